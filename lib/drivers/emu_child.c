/* SPDX-License-Identifier: MIT */
/*
 * A command under the emulator: the private directory with the config
 * the tool reads at start-up and the FIFO every process of the command
 * writes its records to.  A thread drains the FIFO while the command
 * runs, so that no process of it ever waits on a full pipe; reads drain
 * it too, so that what a process wrote before it exited is always
 * counted once the command has been waited for.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drivers/emu_drv.h"
#include "util/error.h"

struct emu_child {
	char dir[PATH_MAX];
	bool made;                   /* dir and FIFO exist */
	int rfd, wfd;                /* the FIFO: read end, and a write end
					that keeps it from reading EOF */
	int stop[2];                 /* wakes the thread to end it */
	pthread_t thr;
	bool running;
	pthread_mutex_t mu;
	struct emu_records rec;
};

static void path(const struct emu_child *c, const char *name, char *out,
		 size_t len)
{
	snprintf(out, len, "%s/%s", c->dir, name);
}

int pmu__emu_child_new(struct emu_child **out, struct pmu_error *err)
{
	struct emu_child *c = calloc(1, sizeof(*c));
	const char *tmp = getenv("TMPDIR");
	char fifo[PATH_MAX + 8];

	*out = NULL;
	if (!c)
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	c->rfd = c->wfd = c->stop[0] = c->stop[1] = -1;
	pthread_mutex_init(&c->mu, NULL);
	snprintf(c->dir, sizeof(c->dir), "%s/pmu-emu.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(c->dir)) {
		int e = -errno;

		pmu__error(err, e, PMU_ERR_SYSTEM, c->dir, -1, "cannot make "
			   "the emulator's directory %s: %s", c->dir,
			   strerror(-e));
		pmu__emu_child_free(c);
		return e;
	}
	c->made = true;
	path(c, "fifo", fifo, sizeof(fifo));
	if (mkfifo(fifo, 0600)) {
		int e = -errno;

		pmu__error(err, e, PMU_ERR_SYSTEM, fifo, -1, "cannot make the "
			   "FIFO %s: %s", fifo, strerror(-e));
		pmu__emu_child_free(c);
		return e;
	}
	*out = c;
	return 0;
}

const char *pmu__emu_child_dir(const struct emu_child *c)
{
	return c->dir;
}

/* Everything the FIFO holds now; the caller holds c->mu. */
static void drain_locked(struct emu_child *c)
{
	unsigned char buf[PIPE_BUF];
	ssize_t n;

	while ((n = read(c->rfd, buf, sizeof(buf))) > 0)
		pmu__emu_records_add(&c->rec, buf, (size_t)n);
}

static void drain(struct emu_child *c)
{
	if (c->rfd < 0)
		return;
	pthread_mutex_lock(&c->mu);
	drain_locked(c);
	pthread_mutex_unlock(&c->mu);
}

static void *reader(void *arg)
{
	struct emu_child *c = arg;
	struct pollfd p[2] = { { c->rfd, POLLIN, 0 }, { c->stop[0], POLLIN, 0 } };

	for (;;) {
		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		if (p[1].revents)
			break;
		if (p[0].revents)
			drain(c);
	}
	return NULL;
}

/* ---- start, read, end ---- */

static int write_config(struct emu_child *c, const struct pmu_emu_config *cfg,
			struct pmu_error *err)
{
	char p[PATH_MAX + 16], tmp[PATH_MAX + 16];
	int fd, e;

	path(c, "config", p, sizeof(p));
	path(c, "config.new", tmp, sizeof(tmp));
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		goto fail;
	if (write(fd, cfg, sizeof(*cfg)) != (ssize_t)sizeof(*cfg)) {
		e = errno;
		close(fd);
		errno = e ? e : EIO;
		goto fail;
	}
	if (close(fd) || rename(tmp, p))
		goto fail;
	return 0;
fail:
	e = -errno;
	return pmu__error(err, e, PMU_ERR_SYSTEM, p, -1, "cannot write the "
			  "emulator's config %s: %s", p, strerror(-e));
}

int pmu__emu_child_start(struct emu_child *c, const struct pmu_emu_config *cfg,
			 struct pmu_error *err)
{
	char fifo[PATH_MAX + 8];
	int rc = write_config(c, cfg, err);

	if (rc)
		return rc;
	c->rec.marks = cfg->report_insns != 0;
	path(c, "fifo", fifo, sizeof(fifo));
	c->rfd = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (c->rfd >= 0)
		c->wfd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (c->wfd < 0 || pipe2(c->stop, O_CLOEXEC)) {
		rc = -errno;
		return pmu__error(err, rc, PMU_ERR_SYSTEM, fifo, -1, "cannot "
				  "open the FIFO %s: %s", fifo, strerror(-rc));
	}
	rc = -pthread_create(&c->thr, NULL, reader, c);
	if (rc)
		return pmu__error(err, rc, PMU_ERR_SYSTEM, NULL, -1, "cannot "
				  "start the FIFO's reader: %s", strerror(-rc));
	c->running = true;
	return 0;
}

void pmu__emu_child_drain(struct emu_child *c)
{
	if (c)
		drain(c);
}

void pmu__emu_child_counts(struct emu_child *c, struct emu_counts *out)
{
	memset(out, 0, sizeof(*out));
	if (!c)
		return;
	pthread_mutex_lock(&c->mu);
	if (c->rfd >= 0)
		drain_locked(c);
	*out = c->rec.c;
	pthread_mutex_unlock(&c->mu);
}

long pmu__emu_child_samples(struct emu_child *c,
			    struct pmu_emu_rec_sample *out, size_t max)
{
	size_t n;

	if (!c)
		return 0;
	pthread_mutex_lock(&c->mu);
	if (c->rfd >= 0)
		drain_locked(c);
	n = pmu__emu_records_take(&c->rec, out, max);
	pthread_mutex_unlock(&c->mu);
	return (long)n;
}

void pmu__emu_child_keep_raw(struct emu_child *c)
{
	c->rec.raw = true;
}

long pmu__emu_child_records(struct emu_child *c, void *out, size_t len)
{
	size_t n;

	pthread_mutex_lock(&c->mu);
	if (c->rfd >= 0)
		drain_locked(c);
	n = pmu__emu_records_take_raw(&c->rec, out, len);
	pthread_mutex_unlock(&c->mu);
	return (long)n;
}

ssize_t pmu__emu_child_nmarks(struct emu_child *c)
{
	ssize_t n;

	pthread_mutex_lock(&c->mu);
	if (c->rfd >= 0)
		drain_locked(c);
	n = pmu__emu_records_nmarks(&c->rec);
	pthread_mutex_unlock(&c->mu);
	return n;
}

int pmu__emu_child_mark(struct emu_child *c, size_t k, struct emu_counts *out)
{
	int rc;

	pthread_mutex_lock(&c->mu);
	if (c->rfd >= 0)
		drain_locked(c);
	rc = pmu__emu_records_mark(&c->rec, k, out);
	pthread_mutex_unlock(&c->mu);
	return rc;
}

void pmu__emu_child_free(struct emu_child *c)
{
	char p[PATH_MAX + 16];

	if (!c)
		return;
	if (c->running) {
		ssize_t w = write(c->stop[1], "", 1);

		(void)w;
		pthread_join(c->thr, NULL);
	}
	if (c->rfd >= 0)
		close(c->rfd);
	if (c->wfd >= 0)
		close(c->wfd);
	for (int i = 0; i < 2; i++)
		if (c->stop[i] >= 0)
			close(c->stop[i]);
	if (c->made) {
		path(c, "fifo", p, sizeof(p));
		unlink(p);
		path(c, "config", p, sizeof(p));
		unlink(p);
		rmdir(c->dir);
	}
	pthread_mutex_destroy(&c->mu);
	pmu__emu_records_clear(&c->rec);
	free(c);
}
