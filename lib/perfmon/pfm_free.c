/* SPDX-License-Identifier: MIT */
/* The end of a monitoring context: freed, or left to the feed that still
 * runs on its PMU. */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perfmon/pfm.h"

void pmu__pfm_destroy(struct pfm_ctx *c)
{
	pmu__pfm_unwatch(c);
	pmu__pfm_unregister(c);
	if (c->feeders) {
		/* a feed still runs on its PMU (woken from a blocked
		 * notification): freed when that feed ends */
		c->dead = true;
		return;
	}
	if (c->buf)
		munmap(c->buf, c->buf_size);
	if (c->buf_fd >= 0)
		close(c->buf_fd);
	pmu__pfm_msg_fini(c);
	if (c->own_drv)
		pmu__driver_free(c->drv);
	else if (c->drv && c->hw && c->drv->ops->pfm)
		c->drv->ops->pfm->pfm_put(c->drv);
	pthread_cond_destroy(&c->wake);
	free(c->sets);
	free(c);
}

void pmu__pfm_reap(struct pfm_ctx *c)
{
	if (c->dead && !c->feeders)
		pmu__pfm_destroy(c);
}
