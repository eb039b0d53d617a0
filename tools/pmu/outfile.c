/* SPDX-License-Identifier: MIT */
/*
 * Files an export writes whole or not at all: into a temporary file
 * beside the target, renamed over it once written (an existing file
 * keeps its content when the export fails), and never the file the
 * export reads (a profile written over by its own report is gone).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"

static bool same_file(const struct stat *a, const char *path)
{
	struct stat b;

	return path && !stat(path, &b) && a->st_dev == b.st_dev &&
	       a->st_ino == b.st_ino;
}

/* Where the file goes: a symbolic link's target, so that the link
 * stays what it was. */
static char *final_path(const char *path)
{
	struct stat st;
	char *r;

	if (!lstat(path, &st) && S_ISLNK(st.st_mode) && (r = realpath(path, NULL)))
		return r;
	return strdup(path);
}

static int open_temp(struct pmu_outfile *o, mode_t mode)
{
	char *dir = strdup(o->path), *base = strdup(o->path);
	int fd = -1;

	if (dir && base &&
	    asprintf(&o->tmp, "%s/.%s.XXXXXX", dirname(dir), basename(base)) >= 0)
		fd = mkstemp(o->tmp);
	else
		o->tmp = NULL;
	free(dir);
	free(base);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, mode) || !(o->f = fdopen(fd, "w"))) {
		int e = -errno;

		close(fd);
		unlink(o->tmp);
		return e;
	}
	return 0;
}

int pmu_tool_outfile_open(struct pmu_outfile *o, const char *path,
			  const char *const *inputs, size_t ninputs)
{
	struct stat st;
	mode_t mask;
	int e;

	*o = (struct pmu_outfile){ 0 };
	if (!stat(path, &st)) {
		for (size_t i = 0; i < ninputs; i++)
			if (same_file(&st, inputs[i])) {
				pmu_tool_err("%s: that is the profile being "
					     "read ('%s'): write the export to "
					     "another file", path, inputs[i]);
				return EXIT_PMU_USAGE;
			}
		/* a terminal, a pipe, /dev/null: written as it is */
		if (!S_ISREG(st.st_mode)) {
			if (!(o->f = fopen(path, "we")))
				goto fail;
			return 0;
		}
	}
	if (!(o->path = final_path(path)))
		goto fail;
	if (!stat(o->path, &st)) {
		e = open_temp(o, st.st_mode & 07777);
	} else {
		mask = umask(0);
		umask(mask);
		e = open_temp(o, 0666 & ~mask);
	}
	if (!e)
		return 0;
	errno = -e;
fail:
	pmu_tool_err("cannot create %s: %s", path, strerror(errno));
	free(o->path);
	free(o->tmp);
	*o = (struct pmu_outfile){ 0 };
	return EXIT_PMU_INPUT;
}

int pmu_tool_outfile_close(struct pmu_outfile *o, bool keep)
{
	int e = 0;

	if (!o->f)
		return 0;
	if (ferror(o->f))
		e = EIO;
	if (fclose(o->f) && !e)
		e = errno ? errno : EIO;
	if (o->tmp) {
		if (keep && !e && rename(o->tmp, o->path))
			e = errno;
		if (!keep || e)
			unlink(o->tmp);
	}
	if (keep && e)
		pmu_tool_err("cannot write %s: %s", o->path ? o->path : "the "
			     "output", strerror(e));
	free(o->path);
	free(o->tmp);
	*o = (struct pmu_outfile){ 0 };
	return keep && e ? EXIT_PMU_INPUT : 0;
}
