/* SPDX-License-Identifier: MIT */
/*
 * The host's logical PMU for perfmon2 contexts on the perf driver: its
 * general-purpose counters as PMC/PMD pairs with the event-select
 * layout of the processor (AMD family 17h and later, or Intel's
 * architectural PMU), reserved bits and defaults as the P6 and AMD64
 * pmu_desc tables have them (INT forced on through dfl_val), counters
 * 64 bits wide: perf virtualises them, so the engine emulates nothing.
 * Fixed-function counters (Intel) are not part of it.  On arm64, the
 * Armv8 PMU's event counters (PMEVTYPERn_EL0 / PMEVCNTRn_EL0), as many
 * as the kernel takes in one group; its cycle counter is not one of
 * them (the kernel puts an event 0x11 there when it is free).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "drivers/perf_pfm.h"
#include "util/cpuid.h"
#include "util/error.h"
#include "util/sysfs_pmus.h"

#define BIT(n) (UINT64_C(1) << (n))

/* Event select fields, AMD APM vol. 2 and Intel SDM vol. 3 chapter 20. */
#define SEL_EVENT   UINT64_C(0x00000000FF)
#define SEL_UMASK   UINT64_C(0x000000FF00)
#define SEL_EDGE    BIT(18)
#define SEL_PC      BIT(19)
#define SEL_ANY     BIT(21)          /* Intel, version 3 and later */
#define SEL_INV     BIT(23)
#define SEL_CMASK   UINT64_C(0x00FF000000)
#define AMD_EVENT_HI UINT64_C(0x0F00000000)   /* EventSelect[11:8] */
#define AMD_GUEST   BIT(40)
#define AMD_HOST    BIT(41)

#define SEL_CFG (SEL_EVENT | SEL_UMASK | SEL_EDGE | SEL_INV | SEL_CMASK)

/* AMD PERF_CTL: 63:42, 39:36 do not exist; PC (19) has no meaning for a
 * counter perf runs; INT (20) is forced on as perfmon2's AMD64 table
 * did, 21 is reserved. */
#define AMD_RSVD (UINT64_C(0xFFFFFC0000000000) | UINT64_C(0x000000F000000000) | \
		  SEL_PC | PMU__PERF_PFM_INT | BIT(21))
/* IA32_PERFEVTSEL: 63:32 (later processors' IN_TX bits are left out),
 * PC and INT as above; AnyThread (21) only from version 3. */
#define INTEL_RSVD (UINT64_C(0xFFFFFFFF00000000) | SEL_PC | PMU__PERF_PFM_INT)

#define AMD_CTL0   UINT32_C(0xC0010200)
#define INTEL_SEL0 UINT32_C(0x186)
#define INTEL_PMC0 UINT32_C(0xC1)

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

#if defined(__x86_64__) || defined(__i386__)
/* As the kernel counts them: PerfMonV2's NumPerfCtrCore, else six with
 * PerfCtrExtCore (every family 17h part has it). */
static unsigned amd_counters(void)
{
	unsigned a, b, c, d;

	if (__get_cpuid(0x80000022, &a, &b, &c, &d) && (a & 1) && (b & 0xF))
		return b & 0xF;
	return 6;
}

static void intel_counters(struct pmu__perf_pfm_host *h)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(0xA, &a, &b, &c, &d))
		return;
	h->version = a & 0xFF;
	h->nctrs = (a >> 8) & 0xFF;
}
#endif

#if defined(__aarch64__)
/* The Armv8 PMU's event counters: the largest group of INST_RETIRED
 * (0x08, which the cycle counter cannot take) the kernel accepts. */
static unsigned arm_counters(void)
{
	int fd[33];
	unsigned n = 0;

	for (; n < 32; n++) {
		struct perf_event_attr a = {
			.type = PERF_TYPE_RAW, .size = sizeof(a), .config = 0x08,
			.disabled = 1, .exclude_kernel = 1, .exclude_hv = 1 };

		fd[n] = (int)syscall(SYS_perf_event_open, &a, 0, -1,
				     n ? fd[0] : -1, PERF_FLAG_FD_CLOEXEC);
		if (fd[n] < 0)
			break;
	}
	for (unsigned k = n; k-- > 0;)
		close(fd[k]);
	return n;
}
#endif

/* perf's core PMU of an Armv8 processor: armv8_pmuv3, armv8_pmuv3_0,
 * armv8_cortex_a57... */
static bool armv8(const char *name, const void *arg)
{
	(void)arg;
	return !strncmp(name, "armv8_", 6);
}

static bool has_arm_pmu(void)
{
	char **names;
	size_t n = 0;

	if (pmu__sysfs_pmus(NULL, armv8, NULL, &names, &n))
		return false;
	pmu__strv_free(names, n);
	return n > 0;
}

void pmu__perf_pfm_host_detect(struct pmu__perf_pfm_host *h)
{
	const struct pmu__cpuid *id = pmu__cpuid_host();
	struct pmu_host_info info = { .size = sizeof(info) };
	const char *dev = "/sys/bus/event_source/devices/";
	char path[96];

	memset(h, 0, sizeof(*h));
	snprintf(path, sizeof(path), "%scpu", dev);
	h->has_pmu = is_dir(path);
	snprintf(path, sizeof(path), "%scpu_core", dev);
	h->hybrid = !h->has_pmu && is_dir(path);
	h->arm = !h->has_pmu && !h->hybrid && has_arm_pmu();
	h->has_pmu = h->has_pmu || h->arm;
	h->virtualized = !pmu_host_info(&info) && info.virtualized;
	if (id->vendor[0])
		snprintf(h->what, sizeof(h->what), "%s family %xh model %xh",
			 id->vendor, (unsigned)id->family, (unsigned)id->model);
	else if (id->midr)
		snprintf(h->what, sizeof(h->what), "Arm MIDR %#llx",
			 (unsigned long long)id->midr);
	else
		snprintf(h->what, sizeof(h->what), "not an x86 processor");
#if defined(__aarch64__)
	if (h->arm && (h->nctrs = arm_counters()))
		h->layout = PMU__PERF_PFM_ARMV8;
#endif
#if defined(__x86_64__) || defined(__i386__)
	if (!strcmp(id->vendor, "AuthenticAMD") && id->family >= 0x17) {
		h->layout = PMU__PERF_PFM_AMD;
		h->nctrs = amd_counters();
	} else if (!strcmp(id->vendor, "GenuineIntel")) {
		intel_counters(h);
		if (h->version && h->nctrs)
			h->layout = PMU__PERF_PFM_INTEL;
	}
#endif
}

static int no_pmu(const struct pmu__perf_pfm_host *h, struct pmu_error *err)
{
	if (h->hybrid)
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED,
				  "perf", -1, "this processor is hybrid (perf's "
				  "cpu_core and cpu_atom PMUs): monitoring "
				  "contexts know one event-select layout for "
				  "all CPUs; choose a simulated model with "
				  "pmu_perfmon_use(\"sim\", MODEL) or "
				  "$PMU_PERFMON_MODEL");
	return pmu__error(err, -ENODEV, PMU_ERR_NOT_SUPPORTED, "perf", -1,
			  "no hardware PMU on this machine (%s): monitoring "
			  "contexts need one; choose a simulated model with "
			  "pmu_perfmon_use(\"sim\", MODEL) or "
			  "$PMU_PERFMON_MODEL", h->virtualized
			  ? "a virtual machine without PMU passthrough"
			  : "perf has no core PMU ('cpu', 'armv8_...')");
}

static void name_regs(struct pmu__perf_pfm_model *pm, const char *ctl,
		      const char *ctr)
{
	for (unsigned k = 0; k < pm->m.nr_pmcs; k++) {
		snprintf(pm->names[0][k], sizeof(pm->names[0][k]), "%s%u", ctl,
			 k);
		snprintf(pm->names[1][k], sizeof(pm->names[1][k]), "%s%u", ctr,
			 k);
		pm->pmcs[k].name = pm->names[0][k];
		pm->pmds[k].name = pm->names[1][k];
	}
}

/* Counter k: its event select and its 64-bit count. */
static void pair(struct pmu__perf_pfm_model *pm, unsigned k, uint32_t ctl,
		 uint32_t ctr, uint64_t rsvd)
{
	pm->pmcs[k] = (struct pmu_reg_desc){
		.addr = ctl, .dfl_val = PMU__PERF_PFM_INT, .rsvd_msk = rsvd,
		.flags = PMU_REGF_NO_EMUL64 };
	pm->pmds[k] = (struct pmu_reg_desc){
		.addr = ctr, .width = 64, .flags = PMU_REGF_COUNTER };
	pm->m.ctl_addr[k] = ctl;
	pm->m.ctr_addr[k] = ctr;
}

/* Armv8 system register encodings (op0 op1 CRn CRm op2, as the
 * kernel's sys_reg() packs them): PMEVTYPERn_EL0 is 3 3 14 (12 + n / 8)
 * (n % 8), PMEVCNTRn_EL0 the same with 8 + n / 8. */
static uint32_t arm_sysreg(unsigned crm, unsigned op2)
{
	return 3u << 14 | 3u << 11 | 14u << 7 | crm << 3 | op2;
}

/* Everything but the event number, P, U and the logical EN; INT is
 * forced on (the engine decides when an overflow notifies). */
#define ARM_RSVD (UINT64_C(0xFFFFFFFF00000000) | UINT64_C(0x3FBF0000))

static void layout_arm(struct pmu__perf_pfm_model *pm)
{
	struct pmu_hwmodel *m = &pm->m;

	for (unsigned k = 0; k < m->nr_pmcs; k++)
		pair(pm, k, arm_sysreg(12 + k / 8, k % 8),
		     arm_sysreg(8 + k / 8, k % 8), ARM_RSVD);
	for (unsigned k = 0; k < m->nr_pmcs; k++) {
		snprintf(pm->names[0][k], sizeof(pm->names[0][k]),
			 "PMEVTYPER%u_EL0", k);
		snprintf(pm->names[1][k], sizeof(pm->names[1][k]),
			 "PMEVCNTR%u_EL0", k);
		pm->pmcs[k].name = pm->names[0][k];
		pm->pmds[k].name = pm->names[1][k];
	}
	pm->arm = true;
	pm->cfg_mask = PMU__PERF_PFM_ARM_EVENT;
	m->arch = PMU_ARCH_ARM;
	m->tsc_kind = PMU_TSC_NONE;
	m->tsc_addr = 0;
	m->check.family = PMU_CHECK_GENERIC;
	m->name = "host-armv8";
	m->desc = "this machine's Armv8 PMU through perf_event_open";
	m->desc_name = "Armv8 PMUv3 event counters (host)";
}

static void layout(const struct pmu__perf_pfm_host *h,
		   struct pmu__perf_pfm_model *pm)
{
	struct pmu_hwmodel *m = &pm->m;
	bool amd = h->layout == PMU__PERF_PFM_AMD;
	uint64_t rsvd = amd ? AMD_RSVD
			    : INTEL_RSVD | (h->version < 3 ? SEL_ANY : 0);

	for (unsigned k = 0; k < m->nr_pmcs; k++)
		pair(pm, k, amd ? AMD_CTL0 + 2 * k : INTEL_SEL0 + k,
		     amd ? AMD_CTL0 + 2 * k + 1 : INTEL_PMC0 + k, rsvd);
	name_regs(pm, amd ? "PERF_CTL" : "PERFEVTSEL", amd ? "PERF_CTR" : "PMC");
	pm->amd = amd;
	pm->cfg_mask = amd ? SEL_CFG | AMD_EVENT_HI
			   : SEL_CFG | (h->version >= 3 ? SEL_ANY : 0);
	m->name = amd ? "host-amd64" : "host-intel";
	m->desc = amd ? "this machine's AMD PMU through perf_event_open"
		      : "this machine's Intel PMU through perf_event_open";
	m->desc_name = amd ? "AMD64 PERF_CTL (host)"
			   : "Intel architectural PMU (host)";
}

int pmu__perf_pfm_model(const struct pmu__perf_pfm_host *h,
			struct pmu__perf_pfm_model *pm, struct pmu_error *err)
{
	struct pmu_hwmodel *m = &pm->m;
	unsigned n = h->nctrs < PMU__PERF_PFM_MAX ? h->nctrs
						  : PMU__PERF_PFM_MAX;

	memset(pm, 0, sizeof(*pm));
	if (!h->has_pmu)
		return no_pmu(h, err);
	if (h->layout == PMU__PERF_PFM_NONE || !n)
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED,
				  "perf", -1, "monitoring contexts on the perf "
				  "driver know the event selects of AMD family "
				  "17h and later, of Intel's architectural "
				  "PMU and of the Armv8 PMU, not those of this "
				  "processor (%s); "
				  "choose a simulated model with "
				  "pmu_perfmon_use(\"sim\", MODEL)", h->what);
	m->arch = PMU_ARCH_X86;
	m->features = PMU_FEAT_PCINT;
	m->nr_ctrs = m->nr_hw_ctrs = m->nr_pmcs = m->nr_pmds = n;
	m->ctr_width = 64;
	m->emul_width = 0;
	m->ovf_dir = PMU_OVF_NEG_TO_NONNEG;
	m->tsc_kind = PMU_TSC_TSC;
	m->tsc_addr = PMU_MSR_TSC;
	m->check.family = PMU_CHECK_P6_LIKE;
	m->check.p6.max_ctrs = (uint8_t)n;
	m->check.p6.k7_enable = true;
	if (h->layout == PMU__PERF_PFM_ARMV8)
		layout_arm(pm);
	else
		layout(h, pm);
	m->pmcs = pm->pmcs;
	m->pmds = pm->pmds;
	return 0;
}

void pmu__perf_pfm_attr(const struct pmu__perf_pfm_model *pm, uint64_t sel,
			struct perf_event_attr *a)
{
	uint64_t hg = sel & (AMD_GUEST | AMD_HOST);

	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_RAW;
	a->size = sizeof(*a);
	a->config = sel & pm->cfg_mask;
	if (pm->arm) {
		/* EL2 is never counted: NSH is not part of the logical PMC */
		a->exclude_user = !!(sel & PMU__PERF_PFM_ARM_U);
		a->exclude_kernel = !!(sel & PMU__PERF_PFM_ARM_P);
		a->exclude_hv = 1;
		return;
	}
	a->exclude_user = !(sel & PMU__PERF_PFM_USR);
	a->exclude_kernel = !(sel & PMU__PERF_PFM_OS);
	a->exclude_hv = a->exclude_kernel;
	/* GuestOnly alone: not in the host; HostOnly alone: not in a
	 * guest; both or neither: everywhere (AMD's rule) */
	if (pm->amd && hg != (AMD_GUEST | AMD_HOST)) {
		a->exclude_host = hg == AMD_GUEST;
		a->exclude_guest = hg == AMD_HOST;
	}
}
