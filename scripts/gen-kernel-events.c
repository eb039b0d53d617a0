/* SPDX-License-Identifier: MIT */
/*
 * Generates lib/events/tables/kernel/ from the Linux kernel's pmu-events
 * tree (tools/perf/pmu-events/arch): one table per core model of every
 * architecture's mapfile, and index.c naming them.
 *
 *   gen-kernel-events OUTDIR TREE
 *
 * TREE holds the arch directories (x86, arm64, powerpc, s390, riscv).
 * The tree is read with the library's own loader of that layout
 * (lib/events/jsondir*.c), so that the built-in tables and a directory
 * given at run time (--events-dir) make the same models; then only
 * facts are written out: names, codes, umask values, counter masks,
 * MSR values, precise flags, the metrics' expressions, groups and
 * units.  Descriptions stay in the vendor files (read at run time with
 * --events-dir).  Output is a pure function of the tree.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/catalog.h"
#include "events/jsondir.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* The libpfm4 model of the same CPU, where pmu has one. */
static const struct { const char *kernel, *libpfm; } twins[] = {
	{ "amdzen1", "amd64_fam17h_zen1" }, { "amdzen2", "amd64_fam17h_zen2" },
	{ "amdzen3", "amd64_fam19h_zen3" }, { "amdzen4", "amd64_fam19h_zen4" },
	{ "skylake", "skl" }, { "icelake", "icl" },
	{ "sapphirerapids", "spr" },
};

static const char *const arch_names[] = {
	[PMU__ARCH_NONE] = "-", [PMU__ARCH_X86] = "x86",
	[PMU__ARCH_ARM64] = "arm64", [PMU__ARCH_POWER] = "powerpc",
	[PMU__ARCH_S390] = "s390", [PMU__ARCH_RISCV] = "riscv",
};

static const char *twin_of(const char *name)
{
	for (size_t i = 0; i < NELEM(twins); i++)
		if (!strcmp(twins[i].kernel, name))
			return twins[i].libpfm;
	return NULL;
}

/* ---- the string pool of one table, every string once ---- */

static char *pool;
static size_t pool_len, pool_cap;
static uint32_t *pslots;      /* hash of offsets, 0 = empty */
static size_t pslot_n;

static uint32_t str_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void pool_reset(void)
{
	pool_len = 0;
	free(pslots);
	pslot_n = 1u << 16;
	pslots = calloc(pslot_n, sizeof(*pslots));
	if (!pslots)
		exit(1);
}

static void pool_rehash(void)
{
	size_t n = pslot_n * 2;
	uint32_t *ns = calloc(n, sizeof(*ns));

	if (!ns)
		exit(1);
	for (size_t i = 0; i < pslot_n; i++) {
		uint32_t off = pslots[i];
		if (!off)
			continue;
		size_t p = str_hash(pool + off) & (n - 1);
		while (ns[p])
			p = (p + 1) & (n - 1);
		ns[p] = off;
	}
	free(pslots);
	pslots = ns;
	pslot_n = n;
}

static size_t pool_used;

static uint32_t pool_add(const char *s)
{
	size_t n, p;

	if (!s || !*s)
		return 0;
	if (!pool_len) {
		if (!pool && !(pool = malloc(pool_cap = 1 << 20)))
			exit(1);
		pool[pool_len++] = '\0';
		pool_used = 0;
	}
	p = str_hash(s) & (pslot_n - 1);
	for (; pslots[p]; p = (p + 1) & (pslot_n - 1))
		if (!strcmp(pool + pslots[p], s))
			return pslots[p];
	n = strlen(s) + 1;
	while (pool_len + n > pool_cap)
		if (!(pool = realloc(pool, pool_cap *= 2)))
			exit(1);
	memcpy(pool + pool_len, s, n);
	pslots[p] = (uint32_t)pool_len;
	pool_len += n;
	if (++pool_used * 2 > pslot_n)
		pool_rehash();
	return (uint32_t)(pool_len - n);
}

/* The pool as concatenated string literals, one string a line. */
static void emit_pool_text(FILE *out)
{
	fputs("\n\t\t\"\\0\"", out);
	for (size_t off = 1; off < pool_len; off += strlen(pool + off) + 1) {
		fputs("\n\t\t\"", out);
		for (const char *c = pool + off; *c; c++) {
			if (*c == '"' || *c == '\\')
				fputc('\\', out);
			if (*c == '\n')
				fputs("\\n", out);
			else
				fputc(*c, out);
		}
		fputs("\\0\"", out);
	}
}

static void emit_pool(FILE *out)
{
	fputs("\t.strings =", out);
	emit_pool_text(out);
	fputs(",\n", out);
}

/* ---- one model ---- */

static const char *str(const struct pmu__catmodel *m, uint32_t off)
{
	return off ? m->strings + off : NULL;
}

static void ident(char *buf, size_t sz, const char *name)
{
	size_t i = 0;

	for (; name[i] && i + 1 < sz; i++)
		buf[i] = isalnum((unsigned char)name[i]) ? name[i] : '_';
	buf[i] = '\0';
}

static void emit_events(FILE *out, const struct pmu__catmodel *m)
{
	fputs("\t.events = {\n", out);
	for (uint32_t i = 0; i < m->nevents; i++) {
		const struct pmu__event *e = &m->events[i];
		uint32_t name = pool_add(pmu__ev_name(m, e));

		fprintf(out, "\t\t{ %u, 0, 0, %#x, %#x, %u, %u, %u, %u, "
			"%#llx, %#llx, %#llx },\n", name, e->modmsk, e->flags,
			e->umask0, e->numasks, e->ngrp, e->name_len,
			(unsigned long long)e->code,
			(unsigned long long)e->code2,
			(unsigned long long)e->cntmsk);
	}
	fputs("\t},\n", out);
}

static void emit_umasks(FILE *out, const struct pmu__catmodel *m)
{
	fputs("\t.umasks = {\n", out);
	for (uint32_t i = 0; i < m->numasks; i++) {
		const struct pmu__umask *u = &m->umasks[i];
		uint32_t name = pool_add(pmu__um_name(m, u));

		fprintf(out, "\t\t{ %u, 0, 0, %#x, %#llx, %#llx, %u, %#llx },\n",
			name, u->flags, (unsigned long long)u->code,
			(unsigned long long)u->cntmsk, u->grp,
			(unsigned long long)u->xcode);
	}
	fputs("\t\t{ 0 }\n\t},\n", out);
}

static void emit_hash(FILE *out, const struct pmu__catmodel *m)
{
	fputs("\t.hash = {", out);
	for (uint32_t i = 0; i < m->hash_size; i++)
		fprintf(out, "%s%#x,", i % 8 ? " " : "\n\t\t", m->hash[i]);
	fputs("\n\t},\n", out);
}

static void emit_vhash(FILE *out, const struct pmu__catmodel *m)
{
	fputs("\t.vhash = {", out);
	for (uint32_t i = 0; i < m->vhash_size; i++)
		fprintf(out, "%s%#x,", i % 8 ? " " : "\n\t\t", m->vhash[i]);
	fputs("\n\t},\n", out);
}

static void emit_metrics(FILE *out, const struct pmu__catmodel *m)
{
	fputs("\t.metrics = {\n", out);
	for (uint32_t i = 0; i < m->nmetrics; i++) {
		const struct pmu__metric *x = &m->metrics[i];
		uint32_t f[6];

		f[0] = pool_add(str(m, x->name));
		f[1] = pool_add(str(m, x->expr));
		f[2] = pool_add(str(m, x->groups));
		f[3] = pool_add(str(m, x->nogroup));
		f[4] = pool_add(str(m, x->dflt));
		f[5] = pool_add(str(m, x->unit));
		fprintf(out, "\t\t{ %u, %u, %u, %u, %u, %u, %#x },\n", f[0],
			f[1], f[2], f[3], f[4], f[5], x->flags);
	}
	fputs("\t\t{ 0 }\n\t},\n", out);
}

struct hdr {
	uint32_t name, desc, pmu, patterns, hybrid, twin;
};

static void emit_header(FILE *out, const struct pmu__catmodel *m,
			const struct hdr *h, uint32_t modmsk)
{
	fprintf(out, "\t.t = {\n\t\t.name = %u,\n\t\t.desc = %u,\n"
		"\t\t.kind = %d,\n\t\t.modmsk = %#x,\n\t\t.ncounters = %d,\n"
		"\t\t.nfixed = %d,\n\t\t.perf_type = %u,\n\t\t.nevents = %u,\n"
		"\t\t.numasks = %u,\n\t\t.hash_size = %u,\n"
		"\t\t.events = offsetof(struct tab, events),\n"
		"\t\t.umasks = offsetof(struct tab, umasks),\n"
		"\t\t.hash = offsetof(struct tab, hash),\n"
		"\t\t.strings = offsetof(struct tab, strings),\n"
		"\t\t.arch = %d,\n\t\t.pmu = %u,\n\t\t.patterns = %u,\n"
		"\t\t.hybrid = %u,\n\t\t.twin = %u,\n\t\t.nmetrics = %u,\n"
		"\t\t.metrics = offsetof(struct tab, metrics),\n"
		"\t\t.vhash_size = %u,\n"
		"\t\t.vhash = offsetof(struct tab, vhash),\n\t},\n",
		h->name, h->desc, (int)m->kind, modmsk, m->ncounters,
		m->nfixed, m->perf_type, m->nevents, m->numasks, m->hash_size,
		(int)m->arch, h->pmu, h->patterns, h->hybrid, h->twin,
		m->nmetrics, m->vhash_size);
}

static void model_desc(char *buf, size_t sz, const struct pmu__catmodel *m,
		       const char *path)
{
	snprintf(buf, sz, "kernel pmu-events %s%s%s", path, m->pmu && strcmp(m->pmu, "cpu")
		 ? ", PMU " : "", m->pmu && strcmp(m->pmu, "cpu") ? m->pmu
								 : "");
}

static void write_model(const char *dir, const struct pmu__catmodel *m,
			const char *path)
{
	char id[96], fn[4096], desc[160], *body = NULL;
	size_t blen = 0;
	struct hdr h;
	FILE *out, *f;

	pool_reset();
	h.name = pool_add(m->name);
	model_desc(desc, sizeof(desc), m, path);
	h.desc = pool_add(desc);
	h.pmu = pool_add(m->pmu);
	h.patterns = pool_add(m->patterns);
	h.hybrid = pool_add(m->hybrid);
	h.twin = pool_add(twin_of(m->name));
	if (!(out = open_memstream(&body, &blen)))
		exit(1);
	emit_events(out, m);
	emit_umasks(out, m);
	emit_hash(out, m);
	emit_vhash(out, m);
	emit_metrics(out, m);
	emit_pool(out);
	fclose(out);
	ident(id, sizeof(id), m->name);
	snprintf(fn, sizeof(fn), "%s/%s.c", dir, id);
	if (!(f = fopen(fn, "w"))) {
		perror(fn);
		exit(1);
	}
	fprintf(f, "/* SPDX-License-Identifier: MIT */\n"
		"/* Generated by scripts/gen-kernel-events.c from the kernel's "
		"pmu-events\n * %s/%s: facts only; do not edit. */\n"
		"#include \"events/catalog.h\"\n\n"
		"struct tab {\n\tstruct pmu__table t;\n"
		"\tstruct pmu__event events[%u];\n"
		"\tstruct pmu__umask umasks[%u];\n\tuint32_t hash[%u];\n"
		"\tuint32_t vhash[%u];\n"
		"\tstruct pmu__metric metrics[%u];\n\tchar strings[%zu];\n};\n\n"
		"static const struct tab tab = {\n",
		arch_names[m->arch], path, m->nevents ? m->nevents : 1,
		m->numasks + 1, m->hash_size, m->vhash_size ? m->vhash_size : 1,
		m->nmetrics + 1, pool_len);
	emit_header(f, m, &h, m->modmsk);
	fwrite(body, 1, blen, f);
	fprintf(f, "};\n\nconst struct pmu__table *pmu__ktable_%s(void);\n"
		"const struct pmu__table *pmu__ktable_%s(void)\n{\n"
		"\treturn &tab.t;\n}\n", id, id);
	if (fclose(f))
		exit(1);
	free(body);
}

/* ---- the uncore events of every model, in one file ---- */

/* Records shared by the models that have the same one (the server parts
 * of one generation share most of theirs): 16-bit indices per model. */
static struct pmu__uevent *urec;
static size_t nurec, urec_cap;
static uint32_t *urec_slots;   /* hash of record index + 1 */
static size_t urec_nslots = 1u << 16;

static uint32_t rec_hash(const struct pmu__uevent *u)
{
	return str_hash(pool + u->name) ^ u->terms * 2654435761u ^
	       u->pmu * 40503u ^ u->sunit * 69069u ^ u->flags;
}

static uint16_t urec_add(const struct pmu__uevent *u)
{
	size_t p = rec_hash(u) & (urec_nslots - 1);

	for (; urec_slots[p]; p = (p + 1) & (urec_nslots - 1))
		if (!memcmp(&urec[urec_slots[p] - 1], u, sizeof(*u)))
			return (uint16_t)(urec_slots[p] - 1);
	if (nurec >= 0xffff || nurec * 2 >= urec_nslots) {
		fprintf(stderr, "gen-kernel-events: too many uncore events\n");
		exit(1);
	}
	if (nurec == urec_cap &&
	    !(urec = realloc(urec, (urec_cap = urec_cap ? 2 * urec_cap
						       : 4096) * sizeof(*urec))))
		exit(1);
	urec[nurec] = *u;
	urec_slots[p] = (uint32_t)++nurec;
	return (uint16_t)(nurec - 1);
}

static void emit_u16(FILE *f, const char *name, const uint16_t *v, size_t n)
{
	fprintf(f, "static const uint16_t %s[%zu] = {", name, n ? n : 1);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%u,", i % 12 ? " " : "\n\t", v[i]);
	fputs("\n};\n\n", f);
}

static void write_uncore(const char *dir, const struct pmu__catmodel **ms,
			 size_t n)
{
	uint16_t *list = NULL, *hash = NULL;
	size_t nlist = 0, nhash = 0, *first = calloc(n, sizeof(size_t));
	size_t *hfirst = calloc(n, sizeof(size_t));
	uint32_t *hsize = calloc(n, sizeof(uint32_t));
	char fn[4096];
	FILE *f;

	pool_reset();
	if (!(urec_slots = calloc(urec_nslots, sizeof(*urec_slots))) ||
	    !first || !hfirst || !hsize)
		exit(1);
	for (size_t k = 0; k < n; k++) {
		const struct pmu__catmodel *m = ms[k];
		struct pmu__catmodel t = { 0 };
		uint32_t size = m->uhash_size;

		first[k] = nlist;
		if (!(list = realloc(list, (nlist + m->nuncore + 1) *
					   sizeof(*list))))
			exit(1);
		for (uint32_t i = 0; i < m->nuncore; i++) {
			const struct pmu__uevent *u = pmu__uncore_at(m, i);
			struct pmu__uevent r = {
				.name = pool_add(pmu__ustr(m, u->name)),
				.terms = pool_add(pmu__ustr(m, u->terms)),
				.pmu = pool_add(pmu__ustr(m, u->pmu)),
				.sunit = pool_add(pmu__ustr(m, u->sunit)),
				.flags = u->flags,
			};
			list[nlist++] = urec_add(&r);
		}
		hfirst[k] = nhash;
		hsize[k] = m->nuncore ? size : 0;
		if (!m->nuncore)
			continue;
		if (!(hash = realloc(hash, (nhash + size) * sizeof(*hash))))
			exit(1);
		t.uev = urec;
		t.ulist = list + first[k];
		t.nuncore = m->nuncore;
		t.ustrings = pool;
		if (pmu__uncore_index(&t, hash + nhash, size))
			exit(1);
		nhash += size;
	}
	snprintf(fn, sizeof(fn), "%s/uncore.c", dir);
	if (!(f = fopen(fn, "w"))) {
		perror(fn);
		exit(1);
	}
	fputs("/* SPDX-License-Identifier: MIT */\n/* Generated by "
	      "scripts/gen-kernel-events.c from the kernel's pmu-events: "
	      "the\n * uncore events of every model; facts only; do not "
	      "edit. */\n#include \"events/catalog_kernel.h\"\n\n", f);
	fprintf(f, "static const char ustrings[%zu] =", pool_len);
	emit_pool_text(f);
	fputs(";\n\n", f);
	fprintf(f, "static const struct pmu__uevent uev[%zu] = {\n",
		nurec ? nurec : 1);
	for (size_t i = 0; i < nurec; i++)
		fprintf(f, "\t{ %u, %u, %u, %u, %#x },\n", urec[i].name,
			urec[i].terms, urec[i].pmu, urec[i].sunit,
			urec[i].flags);
	fputs("};\n\n", f);
	emit_u16(f, "ulist", list, nlist);
	emit_u16(f, "uhash", hash, nhash);
	fprintf(f, "static const struct { uint32_t list, n, hash, size; } "
		"models[%zu] = {\n", n);
	for (size_t k = 0; k < n; k++)
		fprintf(f, "\t{ %zu, %u, %zu, %u },\n", first[k],
			ms[k]->nuncore, hfirst[k], hsize[k]);
	fprintf(f, "};\n\nvoid pmu__kuncore_fill(size_t k, struct pmu__catmodel "
		"*m)\n{\n\tif (k >= %zu || !models[k].n)\n\t\treturn;\n"
		"\tm->uev = uev;\n\tm->ulist = ulist + models[k].list;\n"
		"\tm->nuncore = models[k].n;\n"
		"\tm->uhash = uhash + models[k].hash;\n"
		"\tm->uhash_size = models[k].size;\n"
		"\tm->ustrings = ustrings;\n}\n", n);
	if (fclose(f))
		exit(1);
	fprintf(stderr, "gen-kernel-events: %zu uncore records, %zu listed\n",
		nurec, nlist);
	free(list);
	free(hash);
	free(first);
	free(hfirst);
	free(hsize);
}

/* ---- the index ---- */

static size_t index_of(const struct pmu__catmodel **ms, size_t n,
		       const struct pmu__catmodel *m)
{
	for (size_t i = 0; i < n; i++)
		if (ms[i] == m)
			return i;
	fprintf(stderr, "gen-kernel-events: a row names no model\n");
	exit(1);
}

/* The rows of every mapfile in order, for detection without tables. */
static void write_rows(FILE *f, const struct pmu__jsondir *jd,
		       const struct pmu__catmodel **ms, size_t n)
{
	size_t nr = pmu__jsondir_nrows(jd), off = 0;
	const struct pmu__catmodel *m;

	fputs("static const char patterns[] =", f);
	for (size_t i = 0; i < nr; i++) {
		const char *p = pmu__jsondir_row(jd, i, &m);
		fputs("\n\t\"", f);
		for (; *p; p++) {
			if (*p == '"' || *p == '\\')
				fputc('\\', f);
			fputc(*p, f);
		}
		fputs("\\0\"", f);
	}
	fprintf(f, ";\n\nstatic const struct pmu__krow rows[%zu] = {\n", nr);
	for (size_t i = 0; i < nr; i++) {
		const char *p = pmu__jsondir_row(jd, i, &m);
		fprintf(f, "\t{ %zu, %d, %zu },\n", index_of(ms, n, m),
			(int)m->arch, off);
		off += strlen(p) + 1;
	}
	fprintf(f, "};\n\nsize_t pmu__ktable_rows(const struct pmu__krow "
		"**r, const char **p)\n{\n\t*r = rows;\n\t*p = patterns;\n"
		"\treturn %zu;\n}\n\n", nr);
}

static void write_index(const char *dir, const struct pmu__jsondir *jd,
			const struct pmu__catmodel **ms, size_t n)
{
	char fn[4096], id[96];
	FILE *f;
	size_t off = 0;

	snprintf(fn, sizeof(fn), "%s/index.c", dir);
	if (!(f = fopen(fn, "w"))) {
		perror(fn);
		exit(1);
	}
	fputs("/* SPDX-License-Identifier: MIT */\n/* Generated by "
	      "scripts/gen-kernel-events.c; do not edit. */\n"
	      "#include \"events/catalog_kernel.h\"\n\n", f);
	for (size_t i = 0; i < n; i++) {
		ident(id, sizeof(id), ms[i]->name);
		fprintf(f, "const struct pmu__table *pmu__ktable_%s(void);\n",
			id);
	}
	fprintf(f, "\n#define NMODELS %zu\n\n/* Names, NUL-separated, and "
		"where each starts: no pointers, no relocations. */\n"
		"static const char names[] =", n);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "\n\t\"%s\\0\"", ms[i]->name);
	fputs(";\n\nstatic const uint16_t name_off[NMODELS] = {", f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s%zu,", i % 10 ? " " : "\n\t", off);
		off += strlen(ms[i]->name) + 1;
	}
	fputs("\n};\n\n", f);
	write_rows(f, jd, ms, n);
	fputs("size_t pmu__ktable_count(void)\n{\n\treturn NMODELS;"
	      "\n}\n\nconst char *pmu__ktable_name(size_t i)\n{\n"
	      "\treturn i < NMODELS ? names + name_off[i] : NULL;\n}\n\n"
	      "const struct pmu__table *pmu__ktable(size_t i)\n{\n"
	      "\tswitch (i) {\n", f);
	for (size_t i = 0; i < n; i++) {
		ident(id, sizeof(id), ms[i]->name);
		fprintf(f, "\tcase %zu: return pmu__ktable_%s();\n", i, id);
	}
	fputs("\tdefault: return NULL;\n\t}\n}\n", f);
	if (fclose(f))
		exit(1);
}

int main(int argc, char **argv)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu__jsondir *jd;
	const struct pmu__catmodel **ms;
	size_t n, k = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: gen-kernel-events OUTDIR TREE\n");
		return 2;
	}
	if (!(jd = pmu__jsondir_load(argv[2], &err))) {
		fprintf(stderr, "gen-kernel-events: %s\n", err.message);
		return 1;
	}
	n = pmu__jsondir_count(jd);
	ms = calloc(n, sizeof(*ms));
	/* Each hybrid part's atom model right after its core model. */
	for (size_t i = 0; i < n; i++) {
		const struct pmu__catmodel *m = pmu__jsondir_model_at(jd, i);
		if (m->pmu && !strcmp(m->pmu, "cpu_atom"))
			continue;
		ms[k++] = m;
		if (m->hybrid)
			ms[k++] = pmu__jsondir_model(jd, m->hybrid);
	}
	for (size_t i = 0; i < k; i++)
		write_model(argv[1], ms[i], pmu__jsondir_model_path(jd, ms[i]));
	write_index(argv[1], jd, ms, k);
	write_uncore(argv[1], ms, k);
	fprintf(stderr, "gen-kernel-events: %zu models\n", k);
	pmu__jsondir_free(jd);
	return 0;
}
