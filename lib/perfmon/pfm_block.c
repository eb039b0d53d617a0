/* SPDX-License-Identifier: MIT */
/*
 * Blocking notification (PFM_FL_NOTIFY_BLOCK, seed-semantics 2.1 and
 * 2.5): a notification stops the monitored thread until the controller
 * restarts the context.  On a simulated PMU the thread's work is what
 * it feeds (pmu_perfmon_feed), so the thread stops inside its feed, at
 * the interrupt that queued the notification: the rest of its stream
 * waits.  The wait is on the context lock, so the controller can read
 * the message, look at the registers and restart; a restart lets the
 * stream go on, a detach or a close ends the feed there (ECANCELED).
 *
 * Only the monitored thread itself blocks: a thread feeding a context
 * attached to another would wait for itself.  A context destroyed while
 * its feeder waits to run again is freed when that feed ends.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "perfmon/pfm.h"
#include "util/error.h"

static bool attached(const struct pfm_ctx *c)
{
	return c->state == PFM_CTX_LOADED || c->state == PFM_CTX_MASKED;
}

int pmu__pfm_feed(struct pfm_ctx *c, const char *text, size_t len,
		  struct pmu_error *err)
{
	int rc;

	if (c->feeders)
		return pmu__error(err, -EBUSY, PMU_ERR_USAGE, NULL, -1,
				  "the monitored thread's feed waits in the "
				  "middle of its stream for a restart "
				  "(PFM_ST_RESTART)");
	c->feeders++;
	c->feeding_self = attached(c) && !c->self && gettid() == c->tid;
	c->cancelled = false;
	c->block = false;
	rc = c->hw->ops->feed(c->hw, text, len, err);
	c->feeders--;
	c->feeding_self = false;
	c->block = false;
	if (c->cancelled) {
		c->cancelled = false;
		rc = pmu__error(err, -ECANCELED, PMU_ERR_USAGE, NULL, -1,
				"the context was detached or closed while "
				"this thread (%d) waited for a restart: the "
				"rest of the stream was not run", (int)gettid());
	}
	pmu__pfm_reap(c);
	return rc;
}

void pmu__pfm_block_request(struct pfm_ctx *c)
{
	if ((c->flags & PFM_FL_NOTIFY_BLOCK) && c->feeding_self)
		c->block = true;
}

void pmu__pfm_block_wait(struct pfm_ctx *c)
{
	uint64_t gen = c->gen;

	/* the interrupt of someone else's feed (or of a PMU's own
	 * thread) never waits: nothing could wake it */
	if (!c->block || !c->feeding_self || gettid() != c->tid)
		return;
	while (c->block && c->gen == gen && attached(c))
		pmu__pfm_wait(&c->wake);
	if (c->gen != gen || !attached(c))
		c->cancelled = true;
	c->block = false;
}

void pmu__pfm_block_wake(struct pfm_ctx *c)
{
	pthread_cond_broadcast(&c->wake);
}

bool pmu__pfm_cancelled(void *arg)
{
	const struct pfm_ctx *c = arg;

	return c->cancelled;
}
