/* SPDX-License-Identifier: MIT */
/*
 * A context's message queue is a pipe: the caller's descriptor is its
 * read end, so read(2) returns pfarg_msg_t records, poll/select/epoll
 * see it readable while one is queued, and F_SETOWN + O_ASYNC deliver
 * SIGIO -- all by the kernel's own pipe code.  The engine writes whole
 * records (64 bytes: atomic on a pipe) and holds at most PFM_MSGQ.
 *
 * A context attached to another thread learns of that thread's end
 * from a watcher thread (a pidfd where the kernel has one for it, else
 * polling /proc) and queues PFM_MSG_END.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "perfmon/pfm.h"

_Static_assert(sizeof(pfarg_msg_t) == 64, "perfmon2 message size");

int pmu__pfm_msg_init(struct pfm_ctx *c)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	/* the engine never blocks on its own queue */
	if (fcntl(p[1], F_SETFL, O_NONBLOCK)) {
		int e = errno;

		close(p[0]);
		close(p[1]);
		return -e;
	}
	c->fd = p[0];
	c->wfd = p[1];
	return 0;
}

void pmu__pfm_msg_fini(struct pfm_ctx *c)
{
	if (c->wfd >= 0)
		close(c->wfd);
	c->wfd = -1;
}

static unsigned queued(const struct pfm_ctx *c)
{
	int n = 0;

	if (ioctl(c->fd, FIONREAD, &n))
		return 0;
	return (unsigned)n / sizeof(pfarg_msg_t);
}

bool pmu__pfm_post(struct pfm_ctx *c, const pfarg_msg_t *m)
{
	if (c->wfd < 0 || queued(c) >= PFM_MSGQ)
		return false;
	return write(c->wfd, m, sizeof(*m)) == (ssize_t)sizeof(*m);
}

/* ---- the monitored thread's end ---- */

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

static int pidfd_for(pid_t tid, pid_t pid)
{
#ifdef SYS_pidfd_open
	int fd;

	if (tid == pid)
		return (int)syscall(SYS_pidfd_open, pid, 0);
	fd = (int)syscall(SYS_pidfd_open, tid, PIDFD_THREAD);
	return fd;
#else
	(void)tid;
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

/* Is the thread gone (or a zombie)? */
static bool thread_gone(pid_t pid, pid_t tid)
{
	char path[64], buf[256];
	FILE *f;
	bool gone = true;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid,
		 (int)tid);
	if (!(f = fopen(path, "re")))
		return true;
	if (fgets(buf, sizeof(buf), f)) {
		const char *p = strrchr(buf, ')');

		gone = p && (p[2] == 'Z' || p[2] == 'X');
	}
	fclose(f);
	return gone;
}

static void *watcher(void *arg)
{
	struct pfm_ctx *c = arg;
	int pfd = pidfd_for(c->tid, c->pid);
	struct pollfd fds[2] = {
		{ .fd = c->stop_pipe[0], .events = POLLIN },
		{ .fd = pfd, .events = POLLIN },
	};

	for (;;) {
		int n = poll(fds, pfd >= 0 ? 2 : 1, pfd >= 0 ? -1 : 50);

		if (n < 0 && errno != EINTR)
			break;
		if (fds[0].revents)
			goto out;
		if (pfd >= 0 ? (n > 0 && fds[1].revents)
			     : thread_gone(c->pid, c->tid))
			break;
	}
	pmu__pfm_lock();
	c->on_end(c);
	pmu__pfm_unlock();
out:
	if (pfd >= 0)
		close(pfd);
	return NULL;
}

int pmu__pfm_watch(struct pfm_ctx *c, void (*on_end)(struct pfm_ctx *c))
{
	int rc;

	c->on_end = on_end;

	if (pipe2(c->stop_pipe, O_CLOEXEC))
		return -errno;
	rc = pthread_create(&c->watcher, NULL, watcher, c);
	if (rc) {
		close(c->stop_pipe[0]);
		close(c->stop_pipe[1]);
		return -rc;
	}
	c->watching = true;
	return 0;
}

/* Called with the lock held: the watcher may be waiting for it, so it
 * is dropped while the thread is joined. */
void pmu__pfm_unwatch(struct pfm_ctx *c)
{
	if (!c->watching)
		return;
	c->watching = false;
	(void)!write(c->stop_pipe[1], "x", 1);
	if (pthread_equal(pthread_self(), c->watcher)) {
		pthread_detach(c->watcher);
	} else {
		pmu__pfm_unlock();
		pthread_join(c->watcher, NULL);
		pmu__pfm_lock();
	}
	close(c->stop_pipe[0]);
	close(c->stop_pipe[1]);
}
