/* SPDX-License-Identifier: MIT */
/*
 * Workload: four threads, each summing its own array; each hands its
 * result over a pipe and waits in pause() until the process exits.
 *
 * Valgrind runs one thread at a time and hands its lock over at the
 * kernel's pace, so when threads run side by side the order of their
 * instructions varies run to run.  Here no thread takes a branch that
 * depends on that order (pthread_join would: it finds the thread gone
 * or not), so the instructions each one executes, and their total, are
 * the same in every run; and each thread runs alone (the next one is
 * created once the last result is in), so the caches see one order too.
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define N 50000

static unsigned data[4][N];
static int fds[2];

static void *work(void *arg)
{
	long t = (long)arg;
	unsigned long s = 0;

	for (unsigned i = 0; i < N; i++)
		data[t][i] = i * (unsigned)(t + 3);
	for (unsigned r = 0; r < 4; r++)
		for (unsigned i = 0; i < N; i++)
			s += data[t][i] >> r;
	if (write(fds[1], &s, sizeof(s)) != sizeof(s))
		return NULL;
	for (;;)
		pause();
}

int main(void)
{
	pthread_t th;
	unsigned long total = 0, s;

	if (pipe(fds))
		return 1;
	for (long t = 0; t < 4; t++) {
		pthread_create(&th, NULL, work, (void *)t);
		if (read(fds[0], &s, sizeof(s)) != sizeof(s))
			return 1;
		total += s;
	}
	printf("%lu\n", total);
	return 0;
}
