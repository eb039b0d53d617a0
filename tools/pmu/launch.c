/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stat.h"

/* Runs in the child: wait for the go byte, exec, or report why not. */
static _Noreturn void child_run(int go_fd, int err_fd, char **argv,
				const sigset_t *mask, bool out_to_err)
{
	char c;
	ssize_t n;
	int e;

	sigprocmask(SIG_SETMASK, mask, NULL);
	/* pmu's standard output carries a recording: the command's own
	 * output goes to standard error, as perf sends it */
	if (out_to_err && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		_exit(126);
	do
		n = read(go_fd, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		_exit(127); /* the parent gave up before releasing us */
	close(go_fd);
	execvp(argv[0], argv);
	e = errno;
	if (write(err_fd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(e == ENOENT ? 127 : 126);
}

int launch_prepare(struct launch *l, char **argv, const sigset_t *child_mask)
{
	int go[2], er[2];

	l->pid = -1;
	l->go_fd = l->err_fd = -1;
	if (pipe2(go, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(er, O_CLOEXEC) < 0) {
		int e = -errno;
		close(go[0]);
		close(go[1]);
		return e;
	}
	l->pid = fork();
	if (l->pid == 0) {
		close(go[1]);
		close(er[0]);
		child_run(go[0], er[1], argv, child_mask, l->out_to_err);
	}
	close(go[0]);
	close(er[1]);
	if (l->pid < 0) {
		int e = -errno;
		close(go[1]);
		close(er[0]);
		return e;
	}
	l->go_fd = go[1];
	l->err_fd = er[0];
	return 0;
}

static void close_pipes(struct launch *l)
{
	if (l->go_fd >= 0)
		close(l->go_fd);
	if (l->err_fd >= 0)
		close(l->err_fd);
	l->go_fd = l->err_fd = -1;
}

/* A child that died before its release has closed its end of the pipe,
 * and the write would raise SIGPIPE and kill pmu: block it, and consume
 * the one the write raised before restoring the mask. */
static ssize_t write_no_sigpipe(int fd, const void *buf, size_t len)
{
	const struct timespec zero = { 0, 0 };
	sigset_t pipe_set, old, pending;
	bool was_pending;
	ssize_t n;
	int e;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe_set, &old);
	sigpending(&pending);
	was_pending = sigismember(&pending, SIGPIPE);
	n = write(fd, buf, len);
	e = errno;
	if (n < 0 && e == EPIPE && !was_pending)
		while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR)
			;
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return n;
}

int launch_go(struct launch *l)
{
	char c = 1;
	int e;

	if (write_no_sigpipe(l->go_fd, &c, 1) != 1) {
		e = errno ? errno : EIO;
		/* a dead child is left to the caller to reap: its status
		 * says what became of it */
		if (e == EPIPE)
			close_pipes(l);
		else
			launch_abort(l);
		return e;
	}
	close(l->go_fd);
	l->go_fd = -1;
	return 0;
}

int launch_exec_result(struct launch *l)
{
	int e = 0;
	ssize_t n;

	if (l->err_fd < 0)
		return 0;
	/* The error pipe is close-on-exec: EOF means exec succeeded. */
	do
		n = read(l->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(l->err_fd);
	l->err_fd = -1;
	return n == (ssize_t)sizeof(e) ? e : 0;
}

int launch_release(struct launch *l)
{
	int e = launch_go(l);

	return e ? e : launch_exec_result(l);
}

void launch_abort(struct launch *l)
{
	close_pipes(l);
	if (l->pid > 0) {
		while (waitpid(l->pid, NULL, 0) < 0 && errno == EINTR)
			;
		l->pid = -1;
	}
}
