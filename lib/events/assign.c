/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "events/assign.h"
#include "events/catalog_seed.h"
#include "events/encode.h"
#include "events/jsondir.h"
#include "util/error.h"
#include "util/opts.h"
#include "util/outstruct.h"

#define X86_INT (1ull << 20)
#define P4_ESCR_T1 0x3ull
/* PERFEVTSEL bits a fixed counter cannot apply: edge, inv, cmask and the
 * in_tx / in_tx_cp filters.  An event using them needs a generic one. */
#define X86_NOT_FIXED (1ull << 18 | 1ull << 23 | 0xFFull << 24 | 3ull << 32)

/* perfctr model names that the catalog knows under another name, and the
 * catalog models that have a perfctr control form. */
static const struct {
	const char *perfctr, *catalog;
} pc_names[] = {
	{ "k7", "amd64_k7" },        { "k8", "amd64_k8_revb" },
	{ "k8c", "amd64_k8_revc" },  { "fam10h", "amd64_fam10h_barcelona" },
	{ "p4", "netburst" },        { "p4m2", "netburst" },
	{ "p4ht", "netburst" },      { "p4m3", "netburst_p" },
};

#define NPC (sizeof(pc_names) / sizeof(pc_names[0]))

static const struct pmu__catmodel *resolve_model(const char *name,
					      const char **ctl_name)
{
	const struct pmu__catmodel *m;

	*ctl_name = "";
	for (size_t i = 0; i < NPC; i++)
		if (!strcasecmp(name, pc_names[i].perfctr)) {
			*ctl_name = pc_names[i].perfctr;
			name = pc_names[i].catalog;
			break;
		}
	pmu__jsondir_env_load();
	m = pmu__catalog_find(name, strlen(name));
	if (!m)
		m = pmu__seed_model_find(name);
	if (m && pmu__seed_info(m))
		*ctl_name = m->name;
	for (size_t i = 0; m && !**ctl_name && i < NPC; i++)
		if (!strcasecmp(m->name, pc_names[i].catalog))
			*ctl_name = pc_names[i].perfctr;
	return m;
}

static void add_cand(struct pmu__asg_req *r, int ctr, uint16_t res)
{
	if (r->ncand < PMU__ASG_MAX_CAND) {
		r->cand[r->ncand].ctr = (uint8_t)ctr;
		r->cand[r->ncand++].res = res;
	}
}

/* Narrow msk by the umasks named in the ':' fields from p on; a field
 * with '=' is a modifier.  Returns how many umasks matched. */
static int narrow_by_names(const struct pmu__catmodel *m,
			   const struct pmu__event *ev, const char *p,
			   uint64_t *msk)
{
	const struct pmu__umask *um = pmu__event_umasks(m, ev);
	int found = 0;

	while (p && *p == ':') {
		const char *t = p + 1;
		size_t n = strcspn(t, ":");
		for (int i = 0; !memchr(t, '=', n) && i < ev->numasks; i++)
			if (strlen(pmu__um_name(m, &um[i])) == n &&
			    !strncasecmp(pmu__um_name(m, &um[i]), t, n)) {
				found++;
				if (um[i].cntmsk)
					*msk &= um[i].cntmsk;
			}
		p = t + n;
	}
	return found;
}

/* A umask may narrow its event's counters (Intel PREC_DIST: counter 1
 * only).  The umasks the user named count, not what they stand for: an
 * alias (TOTAL_CYCLES = PREC_DIST:i=1:c=10) has counters of its own.
 * Without any, the umasks the encoder chose (defaults, or those of an
 * alias event) are the ones its full string spells out. */
static uint64_t umask_cntmsk(const struct pmu__catmodel *m,
			     const struct pmu__event *ev, const char *str,
			     const char *fstr, uint64_t msk)
{
	const char *p = strstr(str, "::");
	uint64_t given = msk;

	p = p ? p + 2 : str;
	if (narrow_by_names(m, ev, p + strcspn(p, ":"), &given))
		return given;
	p = strstr(fstr, "::");
	narrow_by_names(m, ev, strchr(p ? p + 2 : fstr, ':'), &msk);
	return msk;
}

/* Candidates in preference order: fixed counters first (they spare the
 * generic ones), then generic counters from 0 up. */
static void build_cands(const struct pmu__catmodel *m,
			const struct pmu__event *ev,
			const char *str, const struct pmu_encoding *enc,
			struct pmu__asg_req *r)
{
	const struct pmu__seed_info *si = pmu__seed_info(m);
	uint64_t msk = umask_cntmsk(m, ev, str, enc->fstr, ev->cntmsk);

	r->ncand = 0;
	if (m->kind == PMU__ENC_NETBURST) {
		unsigned sel = enc->ncodes > 1 ?
			       (unsigned)(enc->codes[1] >> 13) & 7 : 0;
		pmu__assign_p4_cands(pmu__ev_name(m, ev), sel, r);
		return;
	}
	/* No mask at all means any generic counter; a fixed-only mask (the
	 * reference-cycles event) must stay fixed-only. */
	if (!msk && m->ncounters > 0)
		msk = (1ull << m->ncounters) - 1;
	for (int f = 0; f < m->nfixed && f < 32; f++)
		if ((msk >> (32 + f) & 1) && !(enc->codes[0] & X86_NOT_FIXED))
			add_cand(r, PMU_ASSIGN_FIXED + f, 0);
	for (int c = 0; c < m->ncounters && c < 32; c++) {
		if (!(msk >> c & 1))
			continue;
		if (si && !pmu__seed_counter_ok(si, enc->codes[0], c))
			continue;
		add_cand(r, c, 0);
	}
}

/*
 * A fixed counter has no event select, only its 4-bit field of
 * IA32_FIXED_CTR_CTRL: bit 0 ring 0, bit 1 ring 3, bit 2 any thread (bit
 * 3, the interrupt, stays clear for counting).  The value is that field
 * in place, ready to be ORed into the register.
 */
static uint64_t fixed_ctrl(uint64_t evtsel, int n)
{
	uint64_t f = (evtsel >> 17 & 1) | (evtsel >> 16 & 1) << 1 |
		     (evtsel >> 21 & 1) << 2;

	return f << (4 * n);
}

static void fill_codes(const struct pmu__catmodel *m,
		       const struct pmu_encoding *enc, int ctr,
		       struct pmu_assigned_event *a)
{
	const struct pmu__seed_info *si = pmu__seed_info(m);

	a->counter = ctr;
	a->ncodes = enc->ncodes;
	memcpy(a->codes, enc->codes, sizeof(a->codes));
	if (si) {
		a->codes[0] = pmu__seed_ctl_value(si, enc->codes[0], ctr);
	} else if (m->kind == PMU__ENC_NETBURST && enc->ncodes >= 2) {
		/* A per-thread control counts thread 0 only. */
		a->codes[0] = enc->codes[1];
		a->codes[1] = enc->codes[0] & ~P4_ESCR_T1;
		a->escr_msr = pmu__p4_escr_msr(ctr, (unsigned)(enc->codes[1]
							      >> 13) & 7);
	} else if (ctr >= PMU_ASSIGN_FIXED) {
		a->ncodes = 1;
		a->codes[0] = fixed_ctrl(enc->codes[0], ctr - PMU_ASSIGN_FIXED);
	} else if (m->kind == PMU__ENC_AMD64 || m->kind == PMU__ENC_INTEL) {
		/* Counting (a-mode) wants no overflow interrupt. */
		a->codes[0] &= ~X86_INT;
	}
}

static int encode_one(const struct pmu__catmodel *m, const char *str, int idx,
		      unsigned dfl_plm, struct pmu_encoding *enc,
		      const struct pmu__event **ev, struct pmu_error *err)
{
	struct pmu_encode_opts eo = { .sz = sizeof(eo), .model = m->name,
				      .dfl_plm = dfl_plm };
	const char *sep = strstr(str, "::");
	int rc;

	if (sep) {
		const char *cn;
		const struct pmu__catmodel *pm;
		char pfx[64];
		snprintf(pfx, sizeof(pfx), "%.*s", (int)(sep - str), str);
		pm = resolve_model(pfx, &cn);
		if (pm != m)
			return pmu__error(err, -EINVAL, PMU_ERR_UNKNOWN_PMU, pfx,
					  0, "event %d names pmu %s, not the "
					  "model %s being assigned", idx, pfx,
					  m->name);
		str = sep + 2;
	}
	memset(enc, 0, sizeof(*enc));
	enc->size = sizeof(*enc);
	rc = pmu__encode(m, str, &eo, enc, err);
	if (rc)
		return rc;
	*ev = pmu__catmodel_event(m, enc->event, strlen(enc->event));
	if (!*ev)
		return pmu__error(err, -ENOENT, PMU_ERR_UNKNOWN_EVENT, str, 0,
				  "%s is not an event of %s", str, m->name);
	return 0;
}

static void ctr_name(char *buf, size_t sz, int ctr)
{
	if (ctr >= PMU_ASSIGN_FIXED)
		snprintf(buf, sz, "fixed%d", ctr - PMU_ASSIGN_FIXED);
	else
		snprintf(buf, sz, "%d", ctr);
}

static void conflict_reason(const struct pmu__catmodel *m,
			    const struct pmu__asg_req *req,
			    struct pmu_assignment *out)
{
	uint64_t ctrs = 0;
	int nres = 0, n = (int)out->nconflict;
	char list[160] = "";

	for (int j = 0; j < n; j++)
		for (int k = 0; k < req[out->conflict[j]].ncand; k++) {
			ctrs |= 1ull << req[out->conflict[j]].cand[k].ctr;
			nres += req[out->conflict[j]].cand[k].res != 0;
		}
	if (n == 1 && !ctrs) {
		snprintf(out->reason, sizeof(out->reason),
			 "%s cannot be counted by any counter of %s",
			 out->ev[out->conflict[0]].event, m->name);
		return;
	}
	for (int c = 0; c < 64; c++)
		if (ctrs >> c & 1) {
			char b[16];
			ctr_name(b, sizeof(b), c);
			size_t l = strlen(list);
			snprintf(list + l, sizeof(list) - l, "%s%s",
				 l ? "," : "", b);
		}
	snprintf(out->reason, sizeof(out->reason),
		 "%d events compete for counters {%s}%s", n, list,
		 nres ? " and the ESCRs those counters select" : "");
}

/* The events fit, but can a perfctr control carry them?  The XScale
 * simple API counts the 80200 bus events that perfctr's driver refuses:
 * say so rather than let a control file fail 'pmu check' later. */
static void control_note(const struct pmu__catmodel *m,
			 struct pmu_assignment *out)
{
	const struct pmu__seed_info *si = pmu__seed_info(m);

	/* The P6 global enable lives in EVNTSEL0: a control that leaves
	 * PMC0 unprogrammed passes perfctr's check and counts nothing. */
	if (si && si->family == PMU__SEED_P6 && out->nevents > 0 &&
	    out->ev[0].counter != 0 &&
	    (out->nevents < 2 || out->ev[1].counter != 0)) {
		snprintf(out->note, sizeof(out->note), "%s counts only on "
			 "PMC1, whose enable is EVNTSEL0 bit 22: without an "
			 "event on PMC0 a %s control counts nothing; add one",
			 out->ev[0].name, m->name);
		return;
	}
	for (size_t i = 0; si && i < out->nevents; i++) {
		const struct pmu_assigned_event *e = &out->ev[i];
		if (pmu__seed_ctl_accepts(si, e->codes[0]))
			continue;
		snprintf(out->note, sizeof(out->note), "%s (event 0x%02llx) "
			 "is counted by the XScale simple API, but perfctr's "
			 "XScale driver accepts only events 0x00-0x%02x: "
			 "'pmu check' rejects a control with it", e->name,
			 (unsigned long long)e->codes[0], si->ctl_max);
		return;
	}
}

static int place(const struct pmu__catmodel *m, struct pmu__asg_req *req,
		 const struct pmu_encoding *enc, struct pmu_assignment *out)
{
	int choice[PMU_ASSIGN_MAX_EVENTS] = { 0 }, set[PMU_ASSIGN_MAX_EVENTS];
	int n = (int)out->nevents;
	uint64_t all = (n >= 64) ? ~0ull : (1ull << n) - 1;

	if (pmu__assign_solve(req, n, all, choice)) {
		for (int i = 0; i < n; i++) {
			const struct pmu__asg_cand *c = &req[i].cand[choice[i]];
			fill_codes(m, &enc[i], c->ctr, &out->ev[i]);
		}
		control_note(m, out);
		return 0;
	}
	out->nconflict = (size_t)pmu__assign_conflict(req, n, set);
	for (size_t j = 0; j < out->nconflict; j++)
		out->conflict[j] = (size_t)set[j];
	conflict_reason(m, req, out);
	return -ENOSPC;
}

static void init_entry(struct pmu_assigned_event *a, const char *str,
		       const struct pmu_encoding *enc,
		       const struct pmu__asg_req *r)
{
	snprintf(a->event, sizeof(a->event), "%s", str);
	snprintf(a->name, sizeof(a->name), "%s", enc->event);
	a->counter = -1;
	a->ncodes = enc->ncodes;
	memcpy(a->codes, enc->codes, sizeof(a->codes));
	for (int k = 0; k < r->ncand; k++)
		a->cntmsk |= 1ull << r->cand[k].ctr;
}

/* Encode and place events[0, n) on model `m` into *out (a whole one). */
static int assign_into(const struct pmu__catmodel *m, const char *ctl,
		       const char *const *events, int n, unsigned dfl_plm,
		       struct pmu_assignment *out, struct pmu_error *err)
{
	struct pmu__asg_req req[PMU_ASSIGN_MAX_EVENTS];
	struct pmu_encoding enc[PMU_ASSIGN_MAX_EVENTS];
	int rc;

	snprintf(out->model, sizeof(out->model), "%s", m->name);
	snprintf(out->control_model, sizeof(out->control_model), "%s", ctl);
	for (int i = 0; i < n; i++) {
		const struct pmu__event *ev;
		rc = encode_one(m, events[i], i, dfl_plm, &enc[i], &ev, err);
		if (rc) {
			pmu__error_index(err, i);
			return rc;
		}
		build_cands(m, ev, events[i], &enc[i], &req[i]);
		init_entry(&out->ev[i], events[i], &enc[i], &req[i]);
	}
	out->nevents = (size_t)n;
	return place(m, req, enc, out);
}

static int unknown_model(const char *name, struct pmu_error *err)
{
	const char *near = pmu__catalog_suggest(name, strlen(name));

	return pmu__error(err, -ENOENT, PMU_ERR_UNKNOWN_PMU, name, -1,
			  "unknown model %s%s%s%s; 'pmu list --models' "
			  "shows them", name, near ? " (did you mean '" : "",
			  near ? near : "", near ? "'?)" : "");
}

PMU_API int pmu_assign(const char *const *events, size_t n,
		       const struct pmu_assign_opts *opts,
		       struct pmu_assignment *out, struct pmu_error *err)
{
	const char *name = PMU__OPTS_GET(opts, model, NULL), *ctl;
	const struct pmu__catmodel *m;
	struct pmu_assignment *a;
	int rc = PMU__OPTS_CHECK(opts, pmu_assign_opts, err);

	if (rc)
		return rc;
	if (!pmu__out_ok(out, out ? out->size : 0) || (n > 0 && !events))
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "pmu_assign: bad arguments");
	if (n > PMU_ASSIGN_MAX_EVENTS)
		return pmu__error(err, -E2BIG, PMU_ERR_USAGE, NULL, -1,
				  "at most %d events can be assigned at once",
				  PMU_ASSIGN_MAX_EVENTS);
	name = name ? name : pmu_event_host_model();
	if (!(m = resolve_model(name, &ctl)))
		return unknown_model(name, err);
	if (m->ncounters <= 0 && m->kind != PMU__ENC_NETBURST)
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED,
				  name, -1, "model %s has no hardware "
				  "counters to assign", m->name);
	if (!(a = calloc(1, sizeof(*a))))
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	a->size = sizeof(*a);
	rc = assign_into(m, ctl, events, (int)n,
			 PMU__OPTS_GET(opts, dfl_plm, 0u), a, err);
	/* the conflict and the reason are output too */
	PMU__OUT(out, a);
	free(a);
	return rc;
}
