/* SPDX-License-Identifier: MIT */
/*
 * The hardware suite's workload: loops of a known number of retired
 * instructions, so that a count is N x 2 + c with c the same for every
 * tool that counts the same process from its exec.  Linked statically:
 * no dynamic loader, so c is small and depends on the environment only.
 *
 *   hwloop loop N             N iterations of a two-instruction loop
 *   hwloop gate FIFO N        block until a byte arrives on FIFO, then
 *                             loop N (a process tools attach to with -p)
 *   hwloop threads T N [FIFO] T threads, each looping N once all exist
 *                             (and, with FIFO, once its byte arrived)
 *   hwloop hot N              hot_three() loops 3N, hot_one() N: two
 *                             symbols whose samples go 3:1
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hwloop.h"

/* Two instructions an iteration: a decrement that sets the flags and a
 * conditional branch back. */

__attribute__((noinline)) void hot_three(unsigned long n)
{
	hw_loop(3 * n);
}

__attribute__((noinline)) void hot_one(unsigned long n)
{
	hw_loop(n);
}

static unsigned long num(const char *s)
{
	char *end;
	unsigned long v = s ? strtoul(s, &end, 0) : 0;

	if (!s || *end || !*s) {
		fprintf(stderr, "hwloop: '%s' is not a number\n", s ? s : "");
		exit(2);
	}
	return v;
}

static void gate(const char *fifo)
{
	char c;
	int fd = open(fifo, O_RDONLY);

	if (fd < 0 || read(fd, &c, 1) != 1) {
		perror(fifo);
		exit(1);
	}
	close(fd);
}

static pthread_barrier_t start;
static unsigned long iters;

static void *worker(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&start);
	hw_loop(iters);
	return NULL;
}

static int threads(unsigned long t, unsigned long n, const char *fifo)
{
	pthread_t tid[16];

	if (t < 1 || t > 16) {
		fprintf(stderr, "hwloop: 1 to 16 threads\n");
		return 2;
	}
	iters = n;
	pthread_barrier_init(&start, NULL, (unsigned)t + 1);
	for (unsigned long k = 0; k < t; k++)
		if (pthread_create(&tid[k], NULL, worker, NULL)) {
			fprintf(stderr, "hwloop: pthread_create failed\n");
			return 1;
		}
	if (fifo)
		gate(fifo);
	pthread_barrier_wait(&start);
	for (unsigned long k = 0; k < t; k++)
		pthread_join(tid[k], NULL);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "loop") && argc == 3) {
		hw_loop(num(argv[2]));
	} else if (!strcmp(mode, "gate") && argc == 4) {
		gate(argv[2]);
		hw_loop(num(argv[3]));
	} else if (!strcmp(mode, "threads") && (argc == 4 || argc == 5)) {
		return threads(num(argv[2]), num(argv[3]),
			       argc == 5 ? argv[4] : NULL);
	} else if (!strcmp(mode, "hot") && argc == 3) {
		unsigned long n = num(argv[2]);

		hot_three(n);
		hot_one(n);
	} else {
		fprintf(stderr, "usage: hwloop loop N | gate FIFO N | "
				"threads T N [FIFO] | hot N\n");
		return 2;
	}
	return 0;
}
