/* SPDX-License-Identifier: MIT */
/*
 * pmu/sample.h: a session's sampling settings, checked against what its
 * driver can do, and the calls on an open sampling session, which go to
 * the monitoring context (a register-level PMU) or to the perf decoder.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "session/sample.h"
#include "session/sets.h"
#include "util/error.h"
#include "util/opts.h"
#include "util/outstruct.h"

#define DFL_BUF_SIZE ((size_t)64 << 10)
#define DFL_PERIOD 100000u

static const char *const formats[] = { "default", "ibs", "pebs32_p4",
				       "pebs64_p4" };

bool pmu__smpl_on_reg(const struct pmu_session *s)
{
	const struct pmu__driver_ops *o = s->drv->ops;

	return o->pfm && o->hwmodel;
}

static bool on_perf(const struct pmu_session *s)
{
	return !pmu__smpl_on_reg(s) && s->drv->ops->buffer;
}

static int check_format(const char *f, struct pmu_error *err)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(*formats); i++)
		if (!strcmp(f, formats[i]))
			return 0;
	return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, f, -1,
			  "unknown sampling format '%s' (default, ibs, "
			  "pebs32_p4, pebs64_p4)", f);
}

/* What only perfmon2's engine does, or only the kernel. */
static int check_driver(const struct pmu_session *s,
			const struct pmu__smpl *m, struct pmu_error *err)
{
	const char *drv = s->drv->ops->name;

	if (!pmu__smpl_on_reg(s) && !on_perf(s))
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED, drv,
				  -1, "the %s driver cannot sample (the perf "
				  "and sim drivers can)", drv);
	if (pmu__smpl_on_reg(s)) {
		if (m->freq)
			return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE,
					  "freq", -1, "freq: a simulated PMU has "
					  "no seconds to sample per; give a "
					  "period");
		if (m->extra)
			return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE,
					  "extra", -1, "extra: the data address, "
					  "registers and call chain come from "
					  "the perf driver's samples");
		return 0;
	}
	if (strcmp(m->format, "default") && strcmp(m->format, "ibs"))
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED,
				  m->format, -1, "the perf driver samples into "
				  "the default and ibs formats; '%s' needs a "
				  "simulated PMU (driver sim, a Pentium 4 "
				  "model)", m->format);
	if (m->long_period || m->random_mask || m->cnt_reset || m->intr_thres)
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE,
				  m->long_period ? "long_period" :
				  m->random_mask ? "random_mask" :
				  m->cnt_reset ? "cnt_reset" : "intr_thres", -1,
				  "%s is perfmon2's reset of a simulated PMU; "
				  "the kernel restarts periods itself",
				  m->long_period ? "long_period" :
				  m->random_mask ? "random_mask" :
				  m->cnt_reset ? "cnt_reset" : "intr_thres");
	return 0;
}

static int check_values(const struct pmu__smpl *m, struct pmu_error *err)
{
	if (m->period && m->freq)
		return pmu__error(err, -EINVAL, PMU_ERR_CONFLICT, "freq", -1,
				  "give a period or a frequency, not both");
	if (m->period > INT64_MAX || m->long_period > INT64_MAX)
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, "period", -1,
				  "a period is at most 2^63 - 1");
	if (m->freq > INT32_MAX)
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, "freq", -1,
				  "freq %llu Hz is out of range",
				  (unsigned long long)m->freq);
	if (m->extra & ~(uint64_t)(PMU_SAMPLE_DATA_ADDR | PMU_SAMPLE_REGS |
				   PMU_SAMPLE_CALLCHAIN))
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, "extra", -1,
				  "unknown extra bits 0x%llx (PMU_SAMPLE_DATA_"
				  "ADDR, _REGS, _CALLCHAIN)", (unsigned long long)
				  (m->extra & ~(uint64_t)7));
	if (m->buf_size > ((size_t)256 << 20))
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, "buf_size",
				  -1, "buf_size %zu is over the 256 MiB a "
				  "sampling buffer may have", m->buf_size);
	return 0;
}

static int read_opts(const struct pmu_sampling_opts *o, struct pmu__smpl *m,
		     struct pmu_error *err)
{
	const char *f = PMU__OPTS_GET(o, format, NULL);
	int ret = PMU__OPTS_CHECK(o, pmu_sampling_opts, err);

	if (ret)
		return ret;
	f = f ? f : "default";
	if ((ret = check_format(f, err)))
		return ret;
	snprintf(m->format, sizeof(m->format), "%s", f);
	m->buf_size = PMU__OPTS_GET(o, buf_size, 0);
	m->period = PMU__OPTS_GET(o, period, 0);
	m->freq = PMU__OPTS_GET(o, freq, 0);
	m->long_period = PMU__OPTS_GET(o, long_period, 0);
	m->random_mask = PMU__OPTS_GET(o, random_mask, 0);
	m->extra = PMU__OPTS_GET(o, extra, 0);
	m->cnt_reset = PMU__OPTS_GET(o, cnt_reset, 0);
	m->intr_thres = PMU__OPTS_GET(o, intr_thres, 0);
	return check_values(m, err);
}

PMU_API int pmu_session_sample(struct pmu_session *s,
			       const struct pmu_sampling_opts *o,
			       struct pmu_error *err)
{
	struct pmu__smpl m = { 0 };
	int ret;

	pmu__error_clear(err);
	if ((ret = pmu__session_not_open(s, "sampling is set before the "
					 "session opens", err)) ||
	    (ret = read_opts(o, &m, err)) || (ret = check_driver(s, &m, err)))
		return ret;
	if (!m.buf_size)
		m.buf_size = DFL_BUF_SIZE;
	if (!m.period && !m.freq)
		m.period = DFL_PERIOD;
	if (!m.long_period)
		m.long_period = m.period;
	if (!s->smpl && !(s->smpl = malloc(sizeof(*s->smpl))))
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	*s->smpl = m;
	return 0;
}

/* ---- open ---- */

/* A register-level PMU: the session is a monitoring context of its
 * sets (one at least).  The perf driver's way is session_open.c's,
 * with the events pmu__smpl_perf_prepare() makes. */
int pmu__smpl_open(struct pmu_session *s, const struct pmu__target *t,
		   struct pmu_error *err)
{
	int ret;

	if (!pmu__smpl_on_reg(s))
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED, NULL,
				  -1, "sampling with event sets needs a "
				  "simulated PMU (driver sim); the %s driver "
				  "samples sessions of one set",
				  s->drv->ops->name);
	if (!pmu__sets_get(s))
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	ret = pmu__session_sets_reg_open(s, t, err);
	s->smpl->reg = ret == 0;
	return ret;
}

/* ---- the open session ---- */

static struct pmu__smpl *open_smpl(struct pmu_session *s)
{
	return s && s->open && s->smpl ? s->smpl : NULL;
}

static int reg_fd(struct pmu_session *s)
{
	return s->sets->reg ? pmu__sets_reg_fd(s) : -EBADF;
}

PMU_API const void *pmu_session_buffer(struct pmu_session *s, size_t *size)
{
	struct pmu__smpl *m = open_smpl(s);
	struct pmu_perfmon_info in = { .size = sizeof(in) };
	void *p;

	if (!m) {
		errno = EINVAL;
		return NULL;
	}
	if (!m->umap && m->reg) {
		if (pmu_perfmon_info(reg_fd(s), &in))
			return NULL;
		p = pmu_perfmon_mmap(NULL, in.buf_size, PROT_READ, MAP_SHARED,
				     reg_fd(s), 0);
		if (p == MAP_FAILED)
			return NULL;
		m->umap = p;
		m->ulen = in.buf_size;
	} else if (!m->umap && pmu__smpl_perf_map(s)) {
		return NULL;
	}
	if (size)
		*size = m->ulen;
	return m->umap;
}

PMU_API int pmu_session_fd(struct pmu_session *s)
{
	struct pmu__smpl *m = open_smpl(s);

	if (!m)
		return -EINVAL;
	return m->reg ? reg_fd(s) : pmu__smpl_perf_fd(s);
}

/* Entries of the context's buffer now (default and ibs: the header's
 * count; PEBS: the records between base and index). */
static uint64_t reg_count(struct pmu_session *s)
{
	const void *b = pmu_session_buffer(s, NULL);

	if (!b)
		return 0;
	if (!strncmp(s->smpl->format, "pebs", 4))
		return pmu__smpl_reg_pebs_count(s, b);
	return ((const struct pmu_sample_hdr *)b)->hdr_count;
}

PMU_API int pmu_session_restart(struct pmu_session *s)
{
	struct pmu__smpl *m = open_smpl(s);
	uint64_t n;

	if (!m)
		return -EINVAL;
	if (!m->reg)
		return pmu__smpl_perf_restart(s);
	n = reg_count(s);
	if (pfm_set_state(reg_fd(s), 0, PFM_ST_RESTART))
		return -errno;
	m->done += n;
	return 0;
}

PMU_API ssize_t pmu_session_sample_poll(struct pmu_session *s, int timeout_ms)
{
	struct pmu__smpl *m = open_smpl(s);

	if (!m)
		return -EINVAL;
	return m->reg ? 0 : pmu__smpl_perf_poll(s, timeout_ms);
}

PMU_API int pmu_session_sample_stats(struct pmu_session *s,
				     struct pmu_sample_stats *st)
{
	struct pmu__smpl *m = open_smpl(s);
	struct pmu_sample_stats mine = { .size = sizeof(mine) };
	int ret = 0;

	if (!m || !st || !pmu__out_ok(st, st->size))
		return -EINVAL;
	if (m->reg) {
		mine.samples = m->done + reg_count(s);
		ret = pmu__smpl_reg_stats(s, pmu_session_buffer(s, NULL),
					  &mine);
	} else {
		ret = pmu__smpl_perf_stats(s, &mine);
	}
	if (!ret)
		PMU__OUT(st, &mine);
	return ret;
}

PMU_API ssize_t pmu_session_sample_event(const struct pmu_session *s,
					 const struct pmu_sample_entry *e)
{
	if (!s || !s->open || !s->smpl || !e)
		return -EINVAL;
	return s->smpl->reg ? pmu__smpl_reg_event(s, e->ovfl_pmd, e->set)
			    : pmu__smpl_perf_event(s, e->ovfl_pmd);
}

PMU_API ssize_t pmu_session_sample_values(const struct pmu_session *s,
					  size_t ev, size_t *idx, size_t max)
{
	if (!s || !s->open || !s->smpl || ev >= s->n || (!idx && max))
		return -EINVAL;
	return s->smpl->reg ? pmu__smpl_reg_values(s, ev, idx, max)
			    : pmu__smpl_perf_values(s, ev, idx, max);
}

void pmu__smpl_close(struct pmu_session *s)
{
	struct pmu__smpl *m = s->smpl;

	if (!m)
		return;
	if (m->umap)
		munmap(m->umap, m->ulen);
	m->umap = NULL;
	m->ulen = 0;
	m->done = 0;
	if (m->perf)
		pmu__smpl_perf_close(s);
	m->reg = false;
}

void pmu__smpl_free(struct pmu_session *s)
{
	if (!s->smpl)
		return;
	pmu__smpl_close(s);
	free(s->smpl);
	s->smpl = NULL;
}
