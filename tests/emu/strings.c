/* SPDX-License-Identifier: MIT */
/* Workload: the C library's string and memory functions (the vector
 * implementations the host's libc picks). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char buf[65536], copy[65536];

int main(void)
{
	size_t total = 0;
	char line[128];

	for (size_t i = 0; i < sizeof(buf) - 1; i++)
		buf[i] = (char)('a' + (i * 7) % 26);
	buf[sizeof(buf) - 1] = '\0';
	for (int r = 0; r < 40; r++) {
		memcpy(copy, buf, sizeof(buf));
		total += strlen(copy + r);
		total += strcmp(copy, buf) == 0;
		total += (size_t)(strstr(copy, "zgnu") - copy);
		memset(copy + r * 100, 'x', 1000);
		total += (size_t)(strchr(copy + r, 'x') - copy);
		snprintf(line, sizeof(line), "%d %zu %s", r, total, "abc");
		total += strlen(line);
	}
	printf("%zu\n", total);
	return 0;
}
