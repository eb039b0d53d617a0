/* SPDX-License-Identifier: MIT */
/*
 * The bottom of the vendor-directory loader: a loaded directory's
 * memory, a record's members, whether a file is there.  Every other
 * jsondir file calls these; they call none of them.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "events/jsondir_impl.h"
#include "util/json.h"

/* Everything a directory owns hangs off one list, so freeing a loaded
 * directory is one walk whatever the loader did before it failed. */
struct jd_chunk {
	struct jd_chunk *next;
	max_align_t data[];
};

void *pmu__jd_alloc(struct pmu__jsondir *jd, size_t sz)
{
	struct jd_chunk *c = calloc(1, sizeof(*c) + sz);

	if (!c)
		return NULL;
	c->next = jd->chunks;
	jd->chunks = c;
	return c->data;
}

char *pmu__jd_strndup(struct pmu__jsondir *jd, const char *s, size_t n)
{
	char *p = pmu__jd_alloc(jd, n + 1);

	if (p)
		memcpy(p, s, n);
	return p;
}

struct pmu__jsondir *pmu__jsondir_new(void)
{
	return calloc(1, sizeof(struct pmu__jsondir));
}

void pmu__jsondir_free(struct pmu__jsondir *jd)
{
	if (!jd)
		return;
	for (size_t i = 0; i < jd->n; i++) {
		free(jd->models[i]->ents);
		free(jd->models[i]->unc);
		free(jd->models[i]->mets);
	}
	free(jd->std);
	while (jd->chunks) {
		struct jd_chunk *c = jd->chunks;
		jd->chunks = c->next;
		free(c);
	}
	free(jd->models);
	free(jd);
}

const char *pmu__jd_str(const struct pmu_json *o, const char *key)
{
	const struct pmu_json *v = pmu__json_get(o, key);

	return v && v->type == PMU_JSON_STRING ? v->str : NULL;
}

/* "0x3C", "0xB7, 0xBB" (first code), "6", or a JSON integer. */
int pmu__jd_num(const struct pmu_json *o, const char *key, uint64_t *out)
{
	const struct pmu_json *v = pmu__json_get(o, key);
	char *end;

	*out = 0;
	if (!v)
		return 0;
	if (v->type != PMU_JSON_STRING)
		return pmu__json_uint64(v, out) ? -EINVAL : 0;
	errno = 0;
	*out = strtoull(v->str, &end, 0);
	if (errno || end == v->str || (*end && *end != ','))
		return -EINVAL;
	return 0;
}

bool pmu__jd_exists(const char *path, bool want_dir)
{
	struct stat st;

	return !stat(path, &st) && (want_dir ? S_ISDIR(st.st_mode)
					     : S_ISREG(st.st_mode));
}
