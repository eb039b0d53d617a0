/* SPDX-License-Identifier: MIT */
/*
 * Finding the emulator and valgrind, and the command line that runs a
 * program under them:
 *
 *   env VALGRIND_LIB=TOOLDIR VALGRIND -q --tool=pmu --trace-children=yes
 *       --vgdb=no --pmu-dir=DIR PROGRAM ARGS...
 *
 * VALGRIND_LIB is the only variable added to the program's environment:
 * valgrind needs it to find a tool outside its own directory (and sets it
 * itself for the children it follows).  TOOLDIR holds the tool and a link
 * to valgrind's preload library; it is $PMU_EMU_DIR, else emu/ or
 * ../emu/ next to the running program (the build tree), else
 * ../lib/pmu/ next to it, else the directory pmu was installed to.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drivers/emu_drv.h"
#include "util/error.h"

#ifndef PMU_EMU_LIBDIR
#define PMU_EMU_LIBDIR "/usr/local/lib/pmu"
#endif

#define TOOL "pmu-amd64-linux"
#define PRELOAD "vgpreload_core-amd64-linux.so"

static bool has_tool(const char *dir)
{
	char p[PATH_MAX];

	if (snprintf(p, sizeof(p), "%s/" TOOL, dir) >= (int)sizeof(p) ||
	    access(p, X_OK))
		return false;
	snprintf(p, sizeof(p), "%s/" PRELOAD, dir);
	return access(p, R_OK) == 0;
}

static bool exe_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;

	if (n <= 0)
		return false;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return false;
	*slash = '\0';
	return true;
}

static bool tool_dir(char *out, size_t len)
{
	static const char *const rel[] = { "emu", "../emu", "../lib/pmu" };
	const char *env = getenv("PMU_EMU_DIR");
	char exe[PATH_MAX], p[PATH_MAX];

	if (env && *env) {
		snprintf(out, len, "%s", env);
		return has_tool(out);
	}
	if (exe_dir(exe, sizeof(exe)))
		for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
			if (snprintf(p, sizeof(p), "%s/%s", exe, rel[i]) >=
			    (int)sizeof(p) || !has_tool(p))
				continue;
			if (!realpath(p, out))
				snprintf(out, len, "%s", p);
			return true;
		}
	snprintf(out, len, "%s", PMU_EMU_LIBDIR);
	return has_tool(out);
}

/* An executable on $PATH, as execvp would find it. */
static bool on_path(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH");

	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path; *p;) {
		size_t n = strcspn(p, ":");

		if (n && snprintf(out, len, "%.*s/%s", (int)n, p, name) <
			 (int)len && access(out, X_OK) == 0)
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

static int not_found(struct pmu_error *err, const char *dir)
{
	return pmu__error(err, -ENOENT, PMU_ERR_NOT_SUPPORTED, TOOL, -1,
			  "the emulator (" TOOL ") is not installed: not found "
			  "next to this program (emu/, ../lib/pmu/) nor in %s; "
			  "it is built when valgrind's headers and static "
			  "libraries are present (Debian: apt-get install "
			  "valgrind, then rebuild pmu), or set PMU_EMU_DIR",
			  dir);
}

/* argv[0..n) then the strings, in one block. */
static char **pack(char *const *head, size_t nh, char *const *argv)
{
	size_t n = 0, bytes = 0;
	char **v, *s;

	for (size_t i = 0; i < nh; i++)
		bytes += strlen(head[i]) + 1;
	for (; argv[n]; n++)
		bytes += strlen(argv[n]) + 1;
	v = malloc((nh + n + 1) * sizeof(*v) + bytes);
	if (!v)
		return NULL;
	s = (char *)(v + nh + n + 1);
	for (size_t i = 0; i < nh + n; i++) {
		const char *src = i < nh ? head[i] : argv[i - nh];
		size_t len = strlen(src) + 1;

		memcpy(s, src, len);
		v[i] = s;
		s += len;
	}
	v[nh + n] = NULL;
	return v;
}

int pmu__emu_command(struct emu_drv *d, char *const *argv, char ***out,
		     struct pmu_error *err)
{
	char dir[PATH_MAX], vg[PATH_MAX], env[PATH_MAX];
	char lib[PATH_MAX + 16], pdir[PATH_MAX + 16];
	char *head[8];
	int rc;

	*out = NULL;
	if (d->is_open)
		return pmu__error(err, -EBUSY, PMU_ERR_USAGE, NULL, -1,
				  "the session is open: make the command line "
				  "before opening it");
	if (!argv || !argv[0])
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "no command to emulate");
	if (!tool_dir(dir, sizeof(dir)))
		return not_found(err, dir);
	if (!on_path("valgrind", vg, sizeof(vg)))
		return pmu__error(err, -ENOENT, PMU_ERR_NOT_SUPPORTED,
				  "valgrind", -1, "valgrind is not installed "
				  "(not on PATH): the emulator runs under it; "
				  "install it (Debian: apt-get install "
				  "valgrind)");
	if (!on_path("env", env, sizeof(env)))
		snprintf(env, sizeof(env), "/usr/bin/env");
	if (d->child)
		pmu__emu_child_free(d->child);
	d->child = NULL;
	if ((rc = pmu__emu_child_new(&d->child, err)))
		return rc;
	snprintf(lib, sizeof(lib), "VALGRIND_LIB=%s", dir);
	snprintf(pdir, sizeof(pdir), "--pmu-dir=%s",
		 pmu__emu_child_dir(d->child));
	head[0] = env;
	head[1] = lib;
	head[2] = vg;
	head[3] = (char *)"-q";
	head[4] = (char *)"--tool=pmu";
	head[5] = (char *)"--trace-children=yes";
	head[6] = (char *)"--vgdb=no";
	head[7] = pdir;
	*out = pack(head, 8, argv);
	if (!*out)
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	return 0;
}
