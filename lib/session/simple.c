/* SPDX-License-Identifier: MIT */
/*
 * The claim / start / stop / release interface as a facade over a
 * session.  What the kernel API kept in globals (the claim flag, the
 * claim id) lives in the device; the counting is the session's: three
 * events (cycles and the two requested ones) opened, reset and enabled
 * by start, disabled and read by stop.  On a simulated XScale the sim
 * driver runs the API's own register protocol, so PMNC values, the
 * erratum's double write and the overflow handler are the API's.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/simple.h>

#include "hwmodel/model.h"
#include "session/session.h"
#include "util/error.h"
#include "util/outstruct.h"

struct pmu_simple {
	struct pmu_session *s;
	bool xscale;            /* events are PMNC codes */
	bool claimed;
	int claim_id;           /* current claim */
	int last_id;            /* ids handed out so far */
	bool running;           /* between start and stop */
};

/* The XScale events with a generic meaning on other PMUs (the ARM perf
 * driver's XScale map, read backwards). */
static const char *generic_name(uint32_t evt)
{
	switch (evt) {
	case PMU_XSC_EVT_ICACHE_MISS:
		return "L1-icache-load-misses";
	case PMU_XSC_EVT_ITLB_MISS:
		return "iTLB-load-misses";
	case PMU_XSC_EVT_DTLB_MISS:
		return "dTLB-load-misses";
	case PMU_XSC_EVT_BRANCH:
		return "branches";
	case PMU_XSC_EVT_BRANCH_MISS:
		return "branch-misses";
	case PMU_XSC_EVT_INSTRUCTION:
		return "instructions";
	case PMU_XSC_EVT_DCACHE_ACCESS:
		return "L1-dcache-loads";
	case PMU_XSC_EVT_DCACHE_MISS:
		return "L1-dcache-load-misses";
	default:
		return NULL;
	}
}

static bool is_xscale_model(const char *m)
{
	return !strcmp(m, "xscale1") || !strcmp(m, "xscale2");
}

struct pmu_simple *pmu_simple_open(const char *device, struct pmu_error *err)
{
	const char *name = device ? device : "xscale1";
	const struct pmu__driver_ops *named = pmu__driver_find(name);
	/* a driver of this machine's PMU by its name, else a simulated
	 * model */
	bool perf = named && !(named->caps & PMU__DRV_HWMODEL);
	struct pmu_session_opts o = { .sz = sizeof(o),
				      .driver = perf ? named->name : "sim",
				      .model = perf ? NULL : name };
	struct pmu_simple *dev = calloc(1, sizeof(*dev));

	pmu__error_clear(err);
	if (!dev) {
		errno = -pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				    "out of memory");
		return NULL;
	}
	dev->s = pmu_session_new_opts(&o, err);
	if (!dev->s) {
		int e = errno;

		free(dev);
		errno = e;
		return NULL;
	}
	dev->xscale = !perf && is_xscale_model(name);
	return dev;
}

void pmu_simple_close(struct pmu_simple *dev)
{
	if (!dev)
		return;
	pmu_session_free(dev->s);
	free(dev);
}

int pmu_simple_claim(struct pmu_simple *dev)
{
	if (!dev)
		return -EINVAL;
	if (dev->claimed)
		return -EBUSY;
	dev->claimed = true;
	/* the API writes PMNC = 0: whatever ran before stops here */
	if (dev->s->open)
		pmu_session_stop(dev->s);
	dev->running = false;
	/* Ids only grow; past INT_MAX they start again at 1. */
	dev->last_id = dev->last_id == __INT_MAX__ ? 1 : dev->last_id + 1;
	dev->claim_id = dev->last_id;
	return dev->claim_id;
}

int pmu_simple_release(struct pmu_simple *dev, int claim_id)
{
	if (!dev)
		return -EINVAL;
	if (!dev->claimed)
		return 0;
	if (claim_id != dev->claim_id)
		return -EPERM;
	dev->claimed = false;
	return 0;
}

/* "{cycles,A,B}" for events pmn0, pmn1; -EOPNOTSUPP if one has no
 * meaning on this device. */
static int event_list(const struct pmu_simple *dev, uint32_t pmn0,
		      uint32_t pmn1, char *buf, size_t len)
{
	const char *a = generic_name(pmn0), *b = generic_name(pmn1);

	if (dev->xscale) {
		snprintf(buf, len, "{cycles,r%02x,r%02x}", pmn0 & 0xFFu,
			 pmn1 & 0xFFu);
		return 0;
	}
	if (!a || !b)
		return -EOPNOTSUPP;
	snprintf(buf, len, "{cycles,%s,%s}", a, b);
	return 0;
}

/* 0 when the device counts all three; -EOPNOTSUPP for an event it has
 * not, -ENOSPC when they do not fit its counters together. */
static int all_counted(const struct pmu_session *s)
{
	for (size_t i = 0; i < pmu_session_nevents(s); i++)
		switch (pmu_session_event_status(s, i, NULL)) {
		case PMU_EVENT_OK:
			break;
		case PMU_EVENT_NOT_COUNTED:
			return -ENOSPC;
		default:
			return -EOPNOTSUPP;
		}
	return 0;
}

int pmu_simple_start(struct pmu_simple *dev, uint32_t pmn0, uint32_t pmn1)
{
	char list[96];
	int ret;

	if (!dev)
		return -EINVAL;
	pmu__session_clear(dev->s);
	dev->running = false;
	ret = event_list(dev, pmn0, pmn1, list, sizeof(list));
	if (ret)
		return ret;
	/* no handler before a claim: counters wrap at 32 bits */
	dev->s->raw_width = !dev->claimed;
	ret = pmu_session_add(dev->s, list, NULL);
	if (!ret)
		ret = pmu_session_open(dev->s, NULL, NULL);
	if (!ret)
		ret = all_counted(dev->s);
	if (!ret)
		ret = pmu_session_reset(dev->s);
	if (!ret)
		ret = pmu_session_start(dev->s);
	if (ret) {
		pmu__session_clear(dev->s);
		return ret;
	}
	dev->running = true;
	return 0;
}

static void split(uint64_t v, uint32_t *of, uint32_t *val)
{
	*of = (uint32_t)(v >> 32);
	*val = (uint32_t)v;
}

int pmu_simple_stop(struct pmu_simple *dev, struct pmu_simple_results *res)
{
	struct pmu_simple_results all = { .size = sizeof(all) };
	struct pmu_value v[3] = { { .size = sizeof(v[0]) } };

	if (!dev || !pmu__out_ok(res, res ? res->size : 0))
		return -EINVAL;
	if (!dev->running)
		return -ENOSYS;
	dev->running = false;
	if (pmu_session_stop(dev->s) || pmu_session_read(dev->s, v, 3) != 3)
		return -EIO;
	split(v[0].raw, &all.ccnt_of, &all.ccnt);
	split(v[1].raw, &all.pmn0_of, &all.pmn0);
	split(v[2].raw, &all.pmn1_of, &all.pmn1);
	PMU__OUT(res, &all);
	return 0;
}

static int feed(struct pmu_simple *dev, enum pmu__feed_kind kind,
		uint32_t code, uint64_t n)
{
	struct pmu__feed f = { .kind = kind, .code = code, .n = n };

	if (!dev)
		return -EINVAL;
	return pmu__session_feed(dev->s, &f, NULL);
}

int pmu_simple_event(struct pmu_simple *dev, uint32_t event, uint64_t n)
{
	return feed(dev, PMU__FEED_EVENT, event, n);
}

int pmu_simple_cycles(struct pmu_simple *dev, uint64_t n)
{
	return feed(dev, PMU__FEED_CYCLES, 0, n);
}

int pmu_simple_set_pc(struct pmu_simple *dev, uint64_t pc)
{
	return feed(dev, PMU__FEED_IP, 0, pc);
}

int pmu_simple_stats(const struct pmu_simple *dev, struct pmu_simple_stats *st)
{
	struct pmu_simple_stats all = { .size = sizeof(all) };
	struct pmu__drv_stats ds;
	const struct pmu__drv *d;

	if (!dev || !pmu__out_ok(st, st ? st->size : 0))
		return -EINVAL;
	d = dev->s->drv;
	if (!d->ops->regs || d->ops->regs->stats(d, &ds))
		return -EOPNOTSUPP;
	all.pmnc_writes = ds.ctl_writes;
	all.irqs = ds.irqs;
	all.last_irq_pc = ds.last_irq_ip;
	PMU__OUT(st, &all);
	return 0;
}

int pmu_simple_reg_read(struct pmu_simple *dev, unsigned crn, unsigned crm,
			uint32_t *val)
{
	struct pmu__drv *d;
	uint64_t v;

	if (!dev || !val || crn > 15 || crm > 15)
		return -EINVAL;
	d = dev->s->drv;
	if (!dev->xscale || !d->ops->regs)
		return -EOPNOTSUPP;
	if (d->ops->regs->reg_read(d, PMU__REG_CP14, PMU_CP14(crn, crm), &v))
		return -EINVAL;
	*val = (uint32_t)v;
	return 0;
}
