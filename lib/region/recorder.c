/* SPDX-License-Identifier: MIT */
/*
 * The regions of a session the caller drives (<pmu/region.h>'s
 * recorder): a simulated PMU's stream marks them with `region begin` /
 * `region end` statements, or the caller with pmu_region_recorder_begin
 * and _end; each reads the session there.  The report is the one a
 * measured program's file gives: written as that file, read back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <pmu/region.h>
#include <pmu/session.h>

#include "region/region.h"
#include "region/regtab.h"
#include "util/error.h"

struct pmu_region_recorder {
	struct pmu_session *s;
	struct pmu__rt_meta meta;
	struct pmu__rt *t;
};

static int on_region(void *arg, bool begin, const char *name)
{
	struct pmu_region_recorder *r = arg;

	return begin ? pmu__rt_begin(r->t, name) : pmu__rt_end(r->t, name);
}

PMU_API struct pmu_region_recorder *pmu_region_recorder_new(
	struct pmu_session *s, struct pmu_error *err)
{
	struct pmu_region_recorder *r;

	pmu__error_clear(err);
	if (!s || !pmu_session_nevents(s)) {
		pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
			   "a recorder needs a session with events");
		errno = EINVAL;
		return NULL;
	}
	if (!(r = calloc(1, sizeof(*r))) || pmu__rt_meta_of(&r->meta, s) ||
	    !(r->t = pmu__rt_new(&r->meta, s, false))) {
		if (r)
			pmu__rt_meta_free(&r->meta);
		free(r);
		pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
			   "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	r->s = s;
	r->t->pid = getpid();
	r->t->tid = (pid_t)syscall(SYS_gettid);
	pmu_session_on_region(s, on_region, r);
	return r;
}

PMU_API void pmu_region_recorder_free(struct pmu_region_recorder *r)
{
	if (!r)
		return;
	pmu_session_on_region(r->s, NULL, NULL);
	pmu__rt_free(r->t);
	pmu__rt_meta_free(&r->meta);
	free(r);
}

static int check_name(const struct pmu_region_recorder *r, const char *name)
{
	return !r || !name || !*name ? -EINVAL : 0;
}

PMU_API int pmu_region_recorder_begin(struct pmu_region_recorder *r,
				      const char *name)
{
	int ret = check_name(r, name);

	return ret ? ret : pmu__rt_begin(r->t, name);
}

PMU_API int pmu_region_recorder_end(struct pmu_region_recorder *r,
				    const char *name)
{
	int ret = check_name(r, name);

	return ret ? ret : pmu__rt_end(r->t, name);
}

/* The regions so far as a file of dir; 0 or a negative errno. */
static int write_to(const struct pmu_region_recorder *r, const char *dir)
{
	char name[32];

	snprintf(name, sizeof(name), "regions.%d", (int)r->t->pid);
	return pmu__rt_write_file(dir, name, &r->meta, r->t->pid, NULL, r->t,
				  true);
}

PMU_API struct pmu_region_report *pmu_region_recorder_report(
	struct pmu_region_recorder *r, struct pmu_error *err)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096], path[4200];
	struct pmu_region_report *rep = NULL;
	int ret;

	pmu__error_clear(err);
	if (!r) {
		pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
			   "no recorder given");
		errno = EINVAL;
		return NULL;
	}
	snprintf(dir, sizeof(dir), "%s/pmu-recorder.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		ret = pmu__error(err, -errno, PMU_ERR_SYSTEM, dir, -1,
				 "cannot make %s: %s", dir, strerror(errno));
		errno = -ret;
		return NULL;
	}
	/* what is open is reported open, at the last reading */
	pmu__rt_sample(r->t);
	if ((ret = write_to(r, dir)))
		pmu__error(err, ret, PMU_ERR_SYSTEM, dir, -1,
			   "cannot write the regions into %s: %s", dir,
			   strerror(-ret));
	else
		rep = pmu_region_report_load(dir, err);
	snprintf(path, sizeof(path), "%s/regions.%d", dir, (int)r->t->pid);
	unlink(path);
	rmdir(dir);
	if (!rep)
		errno = err && err->code ? -err->code : EIO;
	return rep;
}
