/* SPDX-License-Identifier: MIT */
/* Workload: recursion (calls and returns), calls through a table of
 * function pointers and a switch on a jump table (indirect branches). */
#include <stdio.h>
#include <stdlib.h>

static unsigned fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static unsigned f0(unsigned x) { return x + 1; }
static unsigned f1(unsigned x) { return x * 3; }
static unsigned f2(unsigned x) { return x ^ 0x5a5a; }
static unsigned f3(unsigned x) { return x >> 1; }

static unsigned (*const table[4])(unsigned) = { f0, f1, f2, f3 };

static unsigned step(unsigned x, unsigned k)
{
	switch (k % 7) {
	case 0: return x + 11;
	case 1: return x * 5;
	case 2: return x - 3;
	case 3: return x ^ 0xff;
	case 4: return x << 1;
	case 5: return x >> 2;
	default: return x | 1;
	}
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 20;
	unsigned x = 1;

	for (unsigned i = 0; i < 20000; i++) {
		x = table[(x >> 3) & 3](x);
		x = step(x, i);
	}
	printf("%u %u\n", fib(n), x);
	return 0;
}
