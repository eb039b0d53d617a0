/* SPDX-License-Identifier: MIT */
/* elfutils loaded on first use (elfutils.h). */
#define PMU__ELFUTILS_IMPL
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#include "profile/elfutils.h"

struct pmu__elfutils pmu__eu;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int status;
static char problem[256];

static void load(void)
{
	void *h = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
	const char *missing = NULL;

	if (!h) {
		snprintf(problem, sizeof(problem), "libdw.so.1 (elfutils) "
			 "cannot be loaded: %s", dlerror());
		status = -ENOENT;
		return;
	}
#define PMU__EU_SYM(f) \
	if (!(*(void **)(void *)&pmu__eu.f = dlsym(h, #f)) && !missing) \
		missing = #f;
	PMU__ELFUTILS_FNS(PMU__EU_SYM)
#undef PMU__EU_SYM
	if (missing) {
		snprintf(problem, sizeof(problem), "libdw.so.1 (elfutils) has "
			 "no %s", missing);
		status = -ENOENT;
		return;
	}
	pmu__eu.elf_version(EV_CURRENT);
}

int pmu__elfutils_load(void)
{
	pthread_once(&once, load);
	return status;
}

const char *pmu__elfutils_problem(void)
{
	return problem;
}
