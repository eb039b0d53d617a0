/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "events/jsondir_impl.h"
#include "util/error.h"
#include "util/file.h"

/* Vendor files are a few MB at most; anything larger is not one. */
#define JD_MAX_FILE (64u << 20)


static char *read_all(const char *path, size_t *len, struct pmu_error *err)
{
	char *buf = pmu__read_file(path, JD_MAX_FILE, len);
	int e = errno;

	if (!buf) {
		pmu__error(err, -e, PMU_ERR_SYSTEM, path, -1, "%s: %s", path,
			   strerror(e));
		errno = e;
	}
	return buf;
}

static int load_file(struct pmu__jsondir *jd, size_t i, const char *path,
		     const char *what, struct pmu_error *err)
{
	size_t len;
	char *text = read_all(path, &len, err);
	int rc;

	if (!text)
		return -errno;
	rc = pmu__jsondir_add_events(jd, i, what, text, len, err);
	free(text);
	return rc;
}

static int json_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 &&
	       !strcmp(d->d_name + n - 5, ".json");
}

/* Every *.json of a kernel-layout directory, in name order. */
static int load_dir(struct pmu__jsondir *jd, size_t i, const char *dir,
		    const char *sub, struct pmu_error *err)
{
	struct dirent **names = NULL;
	char *path = NULL;
	int n, rc = 0;

	if (asprintf(&path, "%s/%s", dir, sub) < 0)
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	n = scandir(path, &names, json_name, alphasort);
	if (n < 0)
		rc = pmu__error(err, -errno, PMU_ERR_SYSTEM, path, -1,
				"%s: %s", path, strerror(errno));
	for (int k = 0; k < n; k++) {
		char *f = NULL, *what = NULL;
		if (!rc && (asprintf(&f, "%s/%s", path, names[k]->d_name) < 0 ||
			    asprintf(&what, "%s/%s", sub, names[k]->d_name) < 0))
			rc = pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
					"out of memory");
		if (!rc)
			rc = load_file(jd, i, f, what, err);
		free(f);
		free(what);
		free(names[k]);
	}
	free(names);
	free(path);
	return rc;
}

static int load_model(struct pmu__jsondir *jd, size_t i, const char *dir,
		      struct pmu_error *err)
{
	const struct jd_model *jm = jd->models[i];

	for (size_t f = 0; f < jm->nfiles; f++) {
		char *path = NULL;
		int rc;

		if (jm->is_dir) {
			rc = load_dir(jd, i, dir, jm->files[f], err);
		} else if (asprintf(&path, "%s/%s", dir, jm->files[f]) < 0) {
			rc = pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
					"out of memory");
		} else {
			rc = load_file(jd, i, path, jm->files[f], err);
			free(path);
		}
		if (rc)
			return rc;
	}
	return 0;
}

static struct pmu__jsondir *fail(struct pmu__jsondir *jd, int rc)
{
	pmu__jsondir_free(jd);
	errno = rc < 0 ? -rc : EINVAL;
	return NULL;
}

/* Kernel layout: the arch directory's own files hold the standard
 * events its models name; load them before any model's records. */
static int std_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 &&
	       !strcmp(d->d_name + n - 5, ".json");
}

/* Records of the arch directory's own files go to a scratch model: only
 * its kind and layout matter (codes are read as perf configs). */
int pmu__jd_load_std(struct pmu__jsondir *jd, const char *dir,
		     enum pmu__arch arch, struct pmu_error *err)
{
	struct dirent **names = NULL;
	int n = scandir(dir, &names, std_name, alphasort), rc = 0;

	if (n < 0)
		return 0;
	jd->loading_std = true;
	jd->std_arch = arch;
	for (int k = 0; k < n; k++) {
		char *path = NULL, *text = NULL;
		size_t len = 0;

		if (!rc && asprintf(&path, "%s/%s", dir, names[k]->d_name) < 0)
			rc = pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
					"out of memory");
		if (!rc && !(text = pmu__read_file(path, JD_MAX_FILE, &len)))
			rc = pmu__error(err, -errno, PMU_ERR_SYSTEM, path, -1,
					"%s: %s", path, strerror(errno));
		if (!rc)
			rc = pmu__jd_std_events(jd, names[k]->d_name, text, len,
						err);
		free(text);
		free(path);
		free(names[k]);
	}
	free(names);
	jd->loading_std = false;
	return rc;
}

static int load_std(struct pmu__jsondir *jd, size_t first, const char *dir,
		    struct pmu_error *err)
{
	for (size_t i = first; i < jd->n; i++)
		if (jd->models[i]->is_dir)
			return pmu__jd_load_std(jd, dir, jd->models[i]->arch,
						err);
	return 0;
}

/* One mapfile.csv directory; its models' paths get `prefix/`. */
static int load_map(struct pmu__jsondir *jd, const char *dir,
		    const char *prefix, struct pmu_error *err)
{
	char *map = NULL, *text, *sub = NULL;
	size_t len, first = jd->n;
	int rc;

	if (asprintf(&sub, "%s%s%s", dir, *prefix ? "/" : "", prefix) < 0 ||
	    asprintf(&map, "%s/mapfile.csv", sub) < 0) {
		free(sub);
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	}
	text = read_all(map, &len, err);
	free(map);
	rc = text ? pmu__jd_add_map_at(jd, sub, prefix, text, len, err)
		  : -errno;
	free(text);
	if (!rc)
		rc = load_std(jd, first, sub, err);
	free(sub);
	return rc;
}

/* The kernel's tree keeps one mapfile per architecture directory. */
static const char *const arch_dirs[] = {
	"x86", "arm64", "powerpc", "s390", "riscv",
};

static int load_maps(struct pmu__jsondir *jd, const char *dir,
		     struct pmu_error *err)
{
	char *map = NULL;
	bool flat;
	int rc = 0, found = 0;

	if (asprintf(&map, "%s/mapfile.csv", dir) < 0)
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	flat = pmu__jd_exists(map, false);
	free(map);
	if (flat)
		return load_map(jd, dir, "", err);
	for (size_t a = 0; !rc && a < sizeof(arch_dirs) / sizeof(*arch_dirs);
	     a++) {
		char *m = NULL;
		if (asprintf(&m, "%s/%s/mapfile.csv", dir, arch_dirs[a]) < 0)
			return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL,
					  -1, "out of memory");
		if (pmu__jd_exists(m, false)) {
			found++;
			rc = load_map(jd, dir, arch_dirs[a], err);
		}
		free(m);
	}
	/* Neither layout: report the mapfile that is missing. */
	return rc || found ? rc : load_map(jd, dir, "", err);
}

struct pmu__jsondir *pmu__jsondir_load(const char *dir,
				       struct pmu_error *err)
{
	struct pmu__jsondir *jd;
	int rc;

	if (!dir || !*dir) {
		pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
			   "no events directory given");
		errno = EINVAL;
		return NULL;
	}
	if (!(jd = pmu__jsondir_new())) {
		errno = ENOMEM;
		return NULL;
	}
	rc = load_maps(jd, dir, err);
	for (size_t i = 0; !rc && i < jd->n; i++)
		rc = load_model(jd, i, dir, err);
	if (!rc)
		rc = pmu__jsondir_finish(jd, err);
	return rc ? fail(jd, rc) : jd;
}
