/* SPDX-License-Identifier: MIT */
/*
 * The bottom of perfmon2's engine: the one process-wide lock every call
 * takes, and the registry that maps a descriptor to its context (by the
 * pipe's inode, so a dup of it names the same context and a recycled
 * number does not).  A forked child inherits the descriptors but not
 * the contexts: its registry starts empty.  The other engine files call
 * downwards only: pfm_regs.c and pfm_msg.c above this one, then
 * pfm_free.c, pfm_block.c, pfm_sets.c, pfm_ovfl.c and pfm_ctx.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfmon/pfm.h"
#include "util/error.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static struct pfm_ctx **reg;
static size_t nreg, capreg;
/* The child's copy of a context: what the engine held is released,
 * the caller's descriptor stays (a plain pipe end in the child). */
static void forget(struct pfm_ctx *c)
{
	if (c->buf)
		munmap(c->buf, c->buf_size);
	if (c->buf_fd >= 0)
		close(c->buf_fd);
	if (c->wfd >= 0)
		close(c->wfd);
	if (c->watching) {
		close(c->stop_pipe[0]);
		close(c->stop_pipe[1]);
	}
	pmu__driver_free(c->drv);
	free(c->sets);
	free(c);
}

static void child_after_fork(void)
{
	/* perfmon2's contexts were never inherited: the child starts
	 * with none (its watcher threads did not survive the fork) */
	pthread_mutex_init(&lock, NULL);
	for (size_t i = 0; i < nreg; i++)
		forget(reg[i]);
	free(reg);
	reg = NULL;
	nreg = capreg = 0;
}

static void init_once(void)
{
	pthread_atfork(NULL, NULL, child_after_fork);
}

void pmu__pfm_lock(void)
{
	pthread_once(&once, init_once);
	pthread_mutex_lock(&lock);
}

void pmu__pfm_unlock(void)
{
	pthread_mutex_unlock(&lock);
}

void pmu__pfm_wait(pthread_cond_t *cv)
{
	pthread_cond_wait(cv, &lock);
}

/* The lock if it is free (a PMU's own thread, which must never wait for
 * it: the engine stops that thread while holding it). */
bool pmu__pfm_trylock(void)
{
	pthread_once(&once, init_once);
	return pthread_mutex_trylock(&lock) == 0;
}

static struct pfm_ctx *lookup(int fd)
{
	struct stat st;

	if (fd < 0 || fstat(fd, &st))
		return NULL;
	for (size_t i = 0; i < nreg; i++)
		if (reg[i]->dev == st.st_dev && reg[i]->ino == st.st_ino)
			return reg[i];
	return NULL;
}

struct pfm_ctx *pmu__pfm_get(int fd, struct pmu_error *err)
{
	struct pfm_ctx *c = lookup(fd);

	if (!c)
		pmu__error(err, -EBADF, PMU_ERR_USAGE, NULL, -1,
			   "descriptor %d is not a monitoring context", fd);
	return c;
}

int pmu__pfm_register(struct pfm_ctx *c)
{
	if (nreg == capreg) {
		size_t n = capreg ? capreg * 2 : 8;
		struct pfm_ctx **p = realloc(reg, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		reg = p;
		capreg = n;
	}
	reg[nreg++] = c;
	return 0;
}

void pmu__pfm_unregister(struct pfm_ctx *c)
{
	for (size_t i = 0; i < nreg; i++)
		if (reg[i] == c) {
			reg[i] = reg[--nreg];
			return;
		}
}
