/* SPDX-License-Identifier: MIT */
/*
 * Sampling formats (seed-semantics 2.6 and 3): "default" (perfmon2's
 * default format: a 128-byte header, then 40-byte entries each followed
 * by the sampled PMDs' values), "ibs" (the same entries for AMD IBS,
 * whose data registers are the sampled PMDs), and the Pentium 4 PEBS
 * formats "pebs32_p4" / "pebs64_p4" (the buffer is the hardware's: a
 * header holding the DS save area, then the PEBS records).
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "perfmon/pfm.h"
#include "sim/pebs.h"
#include "util/error.h"

#define DFL_HDR sizeof(pfm_dfl_smpl_hdr_t)
#define DFL_ENTRY sizeof(pfm_dfl_smpl_entry_t)

_Static_assert(sizeof(pfm_dfl_smpl_hdr_t) == 128, "default format header");
_Static_assert(sizeof(pfm_dfl_smpl_entry_t) == 40, "default format entry");

static pfm_dfl_smpl_hdr_t *dfl_hdr(struct pfm_ctx *c)
{
	return c->buf;
}

static int dfl_validate(const struct pfm_ctx *c, int flags, unsigned npmds,
			const void *arg, struct pmu_error *err)
{
	const pfm_dfl_smpl_arg_t *a = arg;
	uint64_t need = DFL_HDR + DFL_ENTRY + 8u * (uint64_t)npmds;

	(void)c;
	(void)flags;
	if (!a)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, "fmt_arg", -1,
				  "the default format needs its argument "
				  "(pfm_dfl_smpl_arg_t)");
	if (a->buf_size < need)
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, "buf_size",
				  -1, "buf_size %llu is too small: the header "
				  "and one entry with every PMD take %llu bytes",
				  (unsigned long long)a->buf_size,
				  (unsigned long long)need);
	return 0;
}

static size_t dfl_getsize(int flags, const void *arg)
{
	(void)flags;
	return (size_t)((const pfm_dfl_smpl_arg_t *)arg)->buf_size;
}

static int dfl_init(struct pfm_ctx *c, int flags, unsigned npmds,
		    const void *arg, struct pmu_error *err)
{
	const pfm_dfl_smpl_arg_t *a = arg;
	pfm_dfl_smpl_hdr_t *h = dfl_hdr(c);

	(void)flags;
	(void)err;
	memset(h, 0, sizeof(*h));
	h->hdr_version = PFM_DFL_SMPL_VERSION;
	h->hdr_buf_size = a->buf_size;
	h->hdr_buf_flags = a->buf_flags;
	h->hdr_cur_offs = DFL_HDR;
	h->hdr_min_buf_space = DFL_ENTRY + 8u * (uint64_t)npmds;
	return 0;
}

static unsigned dfl_handler(struct pfm_ctx *c, const struct pfm_ovfl_arg *a)
{
	pfm_dfl_smpl_hdr_t *h = dfl_hdr(c);
	pfm_dfl_smpl_entry_t e;
	char *at;

	if (h->hdr_buf_size - h->hdr_cur_offs < h->hdr_min_buf_space)
		goto full;
	memset(&e, 0, sizeof(e));
	e.pid = a->tid;
	e.tgid = a->pid;
	e.ovfl_pmd = (uint16_t)a->pmd;
	e.last_reset_val = a->last_reset;
	e.ip = a->ip;
	e.tstamp = a->tstamp;
	e.cpu = a->cpu;
	e.set = a->set;
	at = (char *)c->buf + h->hdr_cur_offs;
	memcpy(at, &e, sizeof(e));
	memcpy(at + sizeof(e), a->smpl, 8u * a->nsmpl);
	h->hdr_count++;
	h->hdr_cur_offs += DFL_ENTRY + 8u * a->nsmpl;
	/* checked again so the entry just written is kept */
	if (h->hdr_buf_size - h->hdr_cur_offs < h->hdr_min_buf_space)
		goto full;
	return PFM_OVFL_RESET;
full:
	h->hdr_overflows++;
	return PFM_OVFL_NOTIFY | PFM_OVFL_MASK;
}

static unsigned dfl_restart(struct pfm_ctx *c)
{
	pfm_dfl_smpl_hdr_t *h = dfl_hdr(c);

	h->hdr_count = 0;
	h->hdr_cur_offs = DFL_HDR;
	return PFM_OVFL_RESET;
}

static int ibs_validate(const struct pfm_ctx *c, int flags, unsigned npmds,
			const void *arg, struct pmu_error *err)
{
	if (!(c->m->quirks & PMU_QUIRK_HAS_IBS))
		return pmu__error(err, -EINVAL, PMU_ERR_NOT_SUPPORTED, "ibs", -1,
				  "the ibs format needs a model with AMD IBS "
				  "(fam10h); %s has none", c->m->name);
	return dfl_validate(c, flags, npmds, arg, err);
}

/* ---- Pentium 4 PEBS ---- */


static bool pebs64(const struct pfm_ctx *c)
{
	return strcmp(c->fmt->name, "pebs64_p4") == 0;
}

static struct pmu__pebs_buf pebs_buf(const struct pfm_ctx *c)
{
	return (struct pmu__pebs_buf){ .mem = c->buf, .size = c->buf_size,
				       .base = PMU__PFM_PEBS_BASE, .mode64 = pebs64(c) };
}

static bool has_pebs(const struct pmu_hwmodel *m)
{
	return m->check.family == PMU_CHECK_P4 && !(m->quirks & PMU_QUIRK_HT);
}

static int pebs_validate(const struct pfm_ctx *c, int flags, unsigned npmds,
			 const void *arg, struct pmu_error *err, bool mode64)
{
	const pfm_pebs_p4_smpl_arg_t *a = arg;
	uint64_t need = pmu__pebs_hdr_size(mode64) +
			pmu__pebs_rec_size(mode64) + PMU_PEBS_FMT_ALIGN;

	(void)flags;
	(void)npmds;
	if (!has_pebs(c->m))
		return pmu__error(err, -EINVAL, PMU_ERR_NOT_SUPPORTED, "pebs",
				  -1, "PEBS needs a Pentium 4 model without "
				  "HyperThreading (p4, p4m2, p4m3); %s has none",
				  c->m->name);
	if (!a)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, "fmt_arg", -1,
				  "the PEBS format needs its argument "
				  "(pfm_pebs_p4_smpl_arg_t)");
	if (a->buf_size < need)
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, "buf_size",
				  -1, "buf_size %zu is too small: the header, "
				  "one record and the alignment take %llu bytes",
				  a->buf_size, (unsigned long long)need);
	if (a->buf_size > (64u << 20))
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, "buf_size",
				  -1, "buf_size %zu is over the 64 MiB the "
				  "simulated PEBS buffer may have", a->buf_size);
	return 0;
}

static int pebs32_validate(const struct pfm_ctx *c, int flags, unsigned n,
			   const void *arg, struct pmu_error *err)
{
	return pebs_validate(c, flags, n, arg, err, false);
}

static int pebs64_validate(const struct pfm_ctx *c, int flags, unsigned n,
			   const void *arg, struct pmu_error *err)
{
	return pebs_validate(c, flags, n, arg, err, true);
}

static size_t pebs_getsize(int flags, const void *arg)
{
	(void)flags;
	return ((const pfm_pebs_p4_smpl_arg_t *)arg)->buf_size +
	       PMU_PEBS_FMT_ALIGN;
}

static int pebs_init(struct pfm_ctx *c, int flags, unsigned npmds,
		     const void *arg, struct pmu_error *err)
{
	const pfm_pebs_p4_smpl_arg_t *a = arg;
	struct pmu__pebs_buf b = pebs_buf(c);
	struct pmu__pebs_fmt_arg fa = { a->cnt_reset, a->buf_size,
					a->intr_thres };

	(void)flags;
	(void)npmds;
	if (pmu__pebs_fmt_init(&b, &fa))
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, "buf_size",
				  -1, "the PEBS buffer cannot be laid out with "
				  "these parameters");
	return c->hw->ops->pebs_buffer(c->hw, c->buf, c->buf_size, b.mode64,
				       err);
}

static unsigned pebs_handler(struct pfm_ctx *c, const struct pfm_ovfl_arg *a)
{
	struct pmu__pebs_buf b = pebs_buf(c);

	(void)a;
	pmu__pebs_fmt_overflow(&b);
	return PFM_OVFL_NOTIFY | PFM_OVFL_MASK;
}

static unsigned pebs_restart(struct pfm_ctx *c)
{
	struct pmu__pebs_buf b = pebs_buf(c);

	pmu__pebs_fmt_restart(&b);
	return PFM_OVFL_RESET;
}

static const struct pfm_fmt formats[] = {
	{ "default", PFM_DFL_SMPL_VERSION, sizeof(pfm_dfl_smpl_arg_t),
	  dfl_validate, dfl_getsize, dfl_init, dfl_handler, dfl_restart },
	{ "ibs", PFM_DFL_SMPL_VERSION, sizeof(pfm_dfl_smpl_arg_t),
	  ibs_validate, dfl_getsize, dfl_init, dfl_handler, dfl_restart },
	{ "pebs32_p4", PFM_PEBS_P4_SMPL_VERSION, sizeof(pfm_pebs_p4_smpl_arg_t),
	  pebs32_validate, pebs_getsize, pebs_init, pebs_handler,
	  pebs_restart },
	{ "pebs64_p4", PFM_PEBS_P4_SMPL_VERSION, sizeof(pfm_pebs_p4_smpl_arg_t),
	  pebs64_validate, pebs_getsize, pebs_init, pebs_handler,
	  pebs_restart },
};

const struct pfm_fmt *pmu__pfm_fmt_find(const char *name)
{
	for (size_t i = 0; name && i < sizeof(formats) / sizeof(*formats); i++)
		if (strcmp(formats[i].name, name) == 0)
			return &formats[i];
	return NULL;
}

const char *pmu__pfm_fmt_names(void)
{
	return "default, ibs, pebs32_p4, pebs64_p4";
}

/* ---- turns: the sessions' overflow switching ---- */

static int turns_validate(const struct pfm_ctx *c, int flags, unsigned npmds,
			  const void *arg, struct pmu_error *err)
{
	(void)c;
	(void)flags;
	(void)npmds;
	(void)arg;
	(void)err;
	return 0;
}

static size_t turns_getsize(int flags, const void *arg)
{
	(void)flags;
	(void)arg;
	return 0;
}

static int turns_init(struct pfm_ctx *c, int flags, unsigned npmds,
		      const void *arg, struct pmu_error *err)
{
	(void)c;
	(void)flags;
	(void)npmds;
	(void)arg;
	(void)err;
	return 0;
}

static unsigned turns_handler(struct pfm_ctx *c, const struct pfm_ovfl_arg *a)
{
	(void)c;
	(void)a;
	return PFM_OVFL_RESET;
}

static unsigned turns_restart(struct pfm_ctx *c)
{
	(void)c;
	return PFM_OVFL_RESET;
}

const struct pfm_fmt pmu__pfm_fmt_turns = {
	"turns", 0x10000, 0, turns_validate, turns_getsize, turns_init,
	turns_handler, turns_restart,
};
