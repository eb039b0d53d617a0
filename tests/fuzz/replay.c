/* SPDX-License-Identifier: MIT */
/*
 * Replays fuzz inputs without libFuzzer: every file named on the command
 * line, or found in a directory named there, goes through
 * LLVMFuzzerTestOneInput once; one TAP line per input.  A crash or a
 * sanitizer report fails the run.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path, int *count)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long len;

	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) || !(buf = malloc((size_t)len + 1)) ||
	    fread(buf, 1, (size_t)len, f) != (size_t)len) {
		printf("not ok %d - %s (unreadable)\n", ++*count, path);
		if (f)
			fclose(f);
		free(buf);
		return 1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)len);
	free(buf);
	printf("ok %d - %s\n", ++*count, path);
	fflush(stdout);
	return 0;
}

static int replay_dir(const char *dir, int *count)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort), bad = 0;

	if (n < 0) {
		printf("not ok %d - %s (cannot list)\n", ++*count, dir);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		char path[4096];

		if (names[i]->d_name[0] != '.' &&
		    (size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				     names[i]->d_name) < sizeof(path))
			bad |= replay_file(path, count);
		free(names[i]);
	}
	free(names);
	return bad;
}

int main(int argc, char **argv)
{
	int bad = 0, count = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
			bad |= replay_dir(argv[i], &count);
		else
			bad |= replay_file(argv[i], &count);
	}
	printf("1..%d\n", count);
	return bad;
}
