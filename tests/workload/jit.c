/* SPDX-License-Identifier: MIT */
/*
 * A stand-in for a JIT compiler: copies a spin loop into anonymous
 * executable memory, describes it in /tmp/perf-PID.map as "jit_spin"
 * (the format JIT runtimes write for perf), runs it for about SECONDS
 * (default 0.3), and removes the map.  x86-64 only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
#if defined(__x86_64__)
	/* mov rcx, 1000000; 1: dec rcx; jnz 1b; ret */
	static const unsigned char code[] = {
		0x48, 0xb9, 0x40, 0x42, 0x0f, 0, 0, 0, 0, 0,
		0x48, 0xff, 0xc9, 0x75, 0xfb, 0xc3,
	};
	double secs = argc > 1 ? atof(argv[1]) : 0.3;
	char path[64];
	struct timespec t0, t;
	void *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	FILE *f;

	if (m == MAP_FAILED)
		return 1;
	memcpy(m, code, sizeof(code));
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	if (!(f = fopen(path, "w")))
		return 1;
	fprintf(f, "%lx %zx jit_spin\n", (unsigned long)m, sizeof(code));
	fclose(f);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		((void (*)(void))m)();
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	/* the map stays until the profile has been read: the caller
	 * removes it (its name is printed) */
	printf("%s\n", path);
	return 0;
#else
	(void)argc;
	(void)argv;
	return 77;
#endif
}
