/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "events/catalog.h"
#include "events/detect.h"
#include "events/evlist.h"
#include "events/evparse.h"
#include "events/jsondir.h"

/*
 * The core PMU of a kernel pmu-events model, for perf's syntax of its
 * events: "cpu/event=0x76/", "cpu/inst_retired.any,cmask=1/",
 * "cpu_atom/INST_RETIRED.ANY/" and bare vendor names.  Where sysfs has
 * the PMU, its files decide; where it does not (a virtual machine
 * without one, a test tree), the formats and event aliases below stand
 * in for it, as the kernel declares them for that CPU
 * (arch/x86/events/intel/core.c, arch/x86/events/amd/core.c,
 * drivers/perf/arm_pmuv3.c, arch/powerpc/perf/power*-pmu.c,
 * arch/s390/kernel/perf_cpum_cf.c, drivers/perf/riscv_pmu_sbi.c), so
 * that the perf_event_attr is the one perf would open there.
 */

struct fmt {
	const char *term, *bits;
};

static const struct fmt intel_fmt[] = {
	{ "event", "config:0-7" }, { "umask", "config:8-15" },
	{ "edge", "config:18" }, { "pc", "config:19" }, { "any", "config:21" },
	{ "inv", "config:23" }, { "cmask", "config:24-31" },
	{ "in_tx", "config:32" }, { "in_tx_cp", "config:33" },
	{ "offcore_rsp", "config1:0-63" }, { "ldlat", "config1:0-15" },
	{ "frontend", "config1:0-23" }, { NULL, NULL },
};

static const struct fmt amd_fmt[] = {
	{ "event", "config:0-7,32-35" }, { "umask", "config:8-15" },
	{ "edge", "config:18" }, { "inv", "config:23" },
	{ "cmask", "config:24-31" }, { NULL, NULL },
};

static const struct fmt arm64_fmt[] = {
	{ "event", "config:0-15" }, { "long", "config1:0" }, { NULL, NULL },
};

static const struct fmt power8_fmt[] = {
	{ "event", "config:0-49" }, { NULL, NULL },
};

static const struct fmt power9_fmt[] = {
	{ "event", "config:0-51" }, { NULL, NULL },
};

static const struct fmt power10_fmt[] = {
	{ "event", "config:0-59" }, { NULL, NULL },
};

static const struct fmt s390_fmt[] = {
	{ "event", "config:0-63" }, { NULL, NULL },
};

static const struct fmt riscv_fmt[] = {
	{ "event", "config:0-47" }, { NULL, NULL },
};

static const struct fmt *formats(const struct pmu__catmodel *m)
{
	switch (m->arch) {
	case PMU__ARCH_X86:
		return m->kind == PMU__ENC_INTEL ? intel_fmt : amd_fmt;
	case PMU__ARCH_ARM64:
		return arm64_fmt;
	case PMU__ARCH_POWER:
		return !strcmp(m->name, "power8") ? power8_fmt :
		       !strcmp(m->name, "power9") ? power9_fmt : power10_fmt;
	case PMU__ARCH_S390:
		return s390_fmt;
	case PMU__ARCH_RISCV:
		return riscv_fmt;
	default:
		return NULL;
	}
}

/* Intel's events/ aliases: transactional memory (Haswell on) and the
 * topdown metrics events (Ice Lake on, and the hybrid P-cores). */
static const struct fmt intel_alias[] = {
	{ "cycles-t", "event=0x3c,in_tx=1" },
	{ "cycles-ct", "event=0x3c,in_tx=1,in_tx_cp=1" },
	{ "tx-start", "event=0xc9,umask=0x1" },
	{ "tx-commit", "event=0xc9,umask=0x2" },
	{ "tx-abort", "event=0xc9,umask=0x4" },
	{ "tx-capacity", "event=0x54,umask=0x2" },
	{ "tx-conflict", "event=0x54,umask=0x1" },
	{ "el-start", "event=0xc8,umask=0x1" },
	{ "el-commit", "event=0xc8,umask=0x2" },
	{ "el-abort", "event=0xc8,umask=0x4" },
	{ "el-capacity", "event=0x54,umask=0x2" },
	{ "el-conflict", "event=0x54,umask=0x1" },
	{ "slots", "event=0x00,umask=0x4" },
	{ "topdown-retiring", "event=0x00,umask=0x80" },
	{ "topdown-bad-spec", "event=0x00,umask=0x81" },
	{ "topdown-fe-bound", "event=0x00,umask=0x82" },
	{ "topdown-be-bound", "event=0x00,umask=0x83" },
	{ "topdown-heavy-ops", "event=0x00,umask=0x84" },
	{ "topdown-br-mispredict", "event=0x00,umask=0x85" },
	{ "topdown-fetch-lat", "event=0x00,umask=0x86" },
	{ "topdown-mem-bound", "event=0x00,umask=0x87" },
	{ NULL, NULL },
};

const struct pmu__catmodel *pmu__core_host(const struct pmu__parse_ctx *ctx)
{
	const char *name;

	if (!ctx || !(ctx->core_model || ctx->host_names))
		return NULL;
	name = ctx->core_model ? ctx->core_model : pmu_event_host_model();
	pmu__jsondir_env_load();
	return pmu__catalog_find(name, strlen(name));
}

static bool pmu_is(const struct pmu__catmodel *m, const char *pmu)
{
	if (!m || !m->pmu || m->arch == PMU__ARCH_NONE)
		return false;
	if (!strcmp(m->pmu, pmu))
		return true;
	/* arm64's core PMUs are named after the driver and the core */
	return m->arch == PMU__ARCH_ARM64 && (!strncmp(pmu, "armv8_", 6) ||
					      !strncmp(pmu, "armv9_", 6));
}

const struct pmu__catmodel *pmu__core_model(const struct pmu__parse_ctx *ctx,
					 const char *pmu)
{
	const struct pmu__catmodel *m = pmu__core_host(ctx), *h;

	if (pmu_is(m, pmu))
		return m;
	h = m && m->hybrid ? pmu__catalog_find(m->hybrid, strlen(m->hybrid))
			   : NULL;
	return pmu_is(h, pmu) ? h : NULL;
}

int pmu__core_format(const struct pmu__catmodel *m, const char *term,
		     struct pmu__format *f)
{
	const struct fmt *t = m ? formats(m) : NULL;

	for (; t && t->term; t++)
		if (!strcmp(t->term, term))
			return pmu__format_parse(t->bits, f);
	return -ENOENT;
}

void pmu__core_format_list(const struct pmu__catmodel *m, char *buf, size_t sz)
{
	const struct fmt *t = m ? formats(m) : NULL;
	size_t used = 0;

	buf[0] = '\0';
	for (; t && t->term && used < sz; t++) {
		int n = snprintf(buf + used, sz - used, "%s%s", used ? ", " : "",
				 t->term);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

int pmu__core_alias(const struct pmu__catmodel *m, const char *name,
		    struct pmu__alias *a)
{
	const struct fmt *t = m && m->kind == PMU__ENC_INTEL ? intel_alias
							      : NULL;

	for (; t && t->term; t++) {
		if (strcmp(t->term, name))
			continue;
		snprintf(a->terms, sizeof(a->terms), "%s", t->bits);
		a->unit[0] = '\0';
		a->scale = 1.0;
		return 0;
	}
	return -ENOENT;
}
