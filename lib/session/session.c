/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include <pmu/event.h>

#include "events/evlist.h"
#include "session/sample.h"
#include "session/session.h"
#include "session/sets.h"
#include "util/error.h"
#include "util/cgroup.h"
#include "util/opts.h"
#include "util/outstruct.h"

_Static_assert((int)PMU__TARGET_SELF == (int)PMU_TARGET_SELF &&
	       (int)PMU__TARGET_PID == (int)PMU_TARGET_PID &&
	       (int)PMU__TARGET_TID == (int)PMU_TARGET_TID &&
	       (int)PMU__TARGET_CHILD == (int)PMU_TARGET_CHILD &&
	       (int)PMU__TARGET_CPUS == (int)PMU_TARGET_CPUS,
	       "driver target kinds follow the public ones");
_Static_assert(PMU_VALUE_SIZE0 == offsetof(struct pmu_value, scaled_err),
	       "PMU_VALUE_SIZE0 is the first layout: up to err");

static struct pmu_session *fail_new(struct pmu_error *err, int code)
{
	if (code == -ENOMEM)
		pmu__error(err, code, PMU_ERR_SYSTEM, NULL, -1,
			   "out of memory");
	errno = -code;
	return NULL;
}

struct pmu_session *pmu__session_new_on(struct pmu__drv *drv, bool own,
					struct pmu_error *err)
{
	struct pmu_session *s = calloc(1, sizeof(*s));

	if (!s) {
		if (own)
			pmu__driver_free(drv);
		return fail_new(err, -ENOMEM);
	}
	s->drv = drv;
	s->own_drv = own;
	s->in_place_min = sizeof(struct pmu_value);
	return s;
}

PMU_API struct pmu_session *pmu_session_new_opts(
	const struct pmu_session_opts *opts, struct pmu_error *err)
{
	struct pmu__drv *drv;
	int ret;

	pmu__error_clear(err);
	ret = PMU__OPTS_CHECK(opts, pmu_session_opts, err);
	if (!ret)
		ret = pmu__driver_new_with(PMU__OPTS_GET(opts, driver, NULL),
					   PMU__OPTS_GET(opts, model, NULL),
					   PMU__OPTS_GET(opts, emu, NULL),
					   &drv, err);
	if (ret)
		return fail_new(err, ret);
	return pmu__session_new_on(drv, true, err);
}

PMU_API struct pmu_session *pmu_session_new(struct pmu_error *err)
{
	return pmu_session_new_opts(NULL, err);
}

static void free_events(struct pmu_session *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->ev[i].name);
		free(s->ev[i].spec);
		free(s->ev[i].cgroup);
		free(s->ev[i].cpus);
	}
	s->n = 0;
	s->ngroups = 0;
	s->ntool = 0;
	s->in_place_min = sizeof(struct pmu_value);
}

void pmu__session_close(struct pmu_session *s)
{
	/* the sets' monitor uses the driver: it stops first */
	pmu__sets_monitor_stop(s);
	if (s->open)
		s->drv->ops->close(s->drv);
	if (s->sets)
		pmu__sets_close(s);
	/* after the driver: the rings it unmapped were the decoder's */
	pmu__smpl_close(s);
	s->rings = NULL;
	s->nrings = 0;
	s->open = false;
	s->nstart = 0;
	pmu__session_free_open(s);
}

void pmu__session_clear(struct pmu_session *s)
{
	pmu__session_close(s);
	pmu__sets_free(s);
	free_events(s);
}

PMU_API void pmu_session_free(struct pmu_session *s)
{
	if (!s)
		return;
	pmu__session_clear(s);
	pmu__smpl_free(s);
	free(s->ev);
	if (s->own_drv)
		pmu__driver_free(s->drv);
	free(s);
}

static int reserve(struct pmu_session *s, size_t more)
{
	struct pmu__ev *ev;
	size_t cap = s->cap ? s->cap : 8;

	while (cap < s->n + more)
		cap *= 2;
	if (cap == s->cap)
		return 0;
	ev = realloc(s->ev, cap * sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	s->ev = ev;
	s->cap = cap;
	return 0;
}

static bool attr_is_hw(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE ||
	       a->type == PERF_TYPE_RAW;
}

int pmu__session_add_attr(struct pmu_session *s, const char *name,
			  const struct perf_event_attr *attr, bool new_group)
{
	struct pmu__ev *e;
	bool clock;

	if (!s || !name || !attr || s->open)
		return -EINVAL;
	if (reserve(s, 1))
		return -ENOMEM;
	e = &s->ev[s->n];
	memset(e, 0, sizeof(*e));
	e->name = strdup(name);
	if (!e->name)
		return -ENOMEM;
	e->attr = *attr;
	new_group = new_group || s->ngroups == 0;
	e->group = new_group ? s->ngroups++ : s->ngroups - 1;
	e->leader = new_group;
	e->flags = attr_is_hw(attr) ? PMU__EV_HW : 0;
	clock = attr->type == PERF_TYPE_SOFTWARE &&
		(attr->config == PERF_COUNT_SW_TASK_CLOCK ||
		 attr->config == PERF_COUNT_SW_CPU_CLOCK);
	strcpy(e->unit, clock ? "msec" : "");
	e->scale = clock ? 1e-6 : 1.0;
	s->n++;
	return 0;
}

/* Bare names are the simulated model's own events. */
static const char *default_model(const struct pmu_session *s)
{
	const struct pmu__driver_ops *o = s->drv->ops;

	return o->hwmodel ? o->hwmodel->catalog_model(s->drv) : NULL;
}

PMU_API int pmu_session_add(struct pmu_session *s, const char *events,
			    struct pmu_error *err)
{
	struct pmu__evlist l = { 0 };
	struct pmu__parse_ctx ctx = { 0 };
	int ret;

	pmu__error_clear(err);
	if (!s || !events)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "no session or no event list given");
	if (s->open)
		return pmu__error(err, -EBUSY, PMU_ERR_USAGE, NULL, -1,
				  "events cannot be added to an open session");
	ctx.default_model = default_model(s);
	/* Real counters: perf's names of the host's kernel model too. */
	ctx.host_names = !ctx.default_model;
	l.ngroups = s->ngroups;
	l.nmerge = s->nmerge;
	ret = pmu__evlist_parse(&l, events, &ctx, err);
	if (!ret && pmu__session_adopt(s, &l))
		ret = pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				 "out of memory");
	pmu__evlist_clear(&l);
	return ret;
}

int pmu__session_adopt(struct pmu_session *s, struct pmu__evlist *l)
{
	if (!s || !l || s->open)
		return -EINVAL;
	if (reserve(s, l->n))
		return -ENOMEM;
	/* the session owns the names and specs now */
	memcpy(s->ev + s->n, l->ev, l->n * sizeof(*l->ev));
	for (size_t i = 0; i < l->n; i++)
		s->ntool += l->ev[i].tool != PMU__TOOL_NONE;
	s->in_place_min = s->ntool ? SIZE_MAX : sizeof(struct pmu_value);
	s->n += l->n;
	s->ngroups = l->ngroups;
	s->nmerge = l->nmerge;
	l->n = 0;
	return 0;
}

PMU_API size_t pmu_session_nevents(const struct pmu_session *s)
{
	return s ? s->n : 0;
}

PMU_API const char *pmu_session_event_name(const struct pmu_session *s,
					   size_t i)
{
	return s && i < s->n ? s->ev[i].name : NULL;
}

PMU_API const char *pmu_session_event_unit(const struct pmu_session *s,
					   size_t i, double *scale)
{
	if (!s || i >= s->n)
		return NULL;
	if (scale)
		*scale = s->ev[i].scale;
	return s->ev[i].unit;
}

PMU_API ssize_t pmu_session_event_group(const struct pmu_session *s,
					size_t i)
{
	return s && i < s->n ? s->ev[i].group : -EINVAL;
}

PMU_API ssize_t pmu_session_event_merge(const struct pmu_session *s,
					size_t i)
{
	return s && i < s->n ? (ssize_t)s->ev[i].merge : -EINVAL;
}

PMU_API const char *pmu_session_event_pmu(const struct pmu_session *s,
					  size_t i)
{
	return s && i < s->n && s->ev[i].pmu[0] ? s->ev[i].pmu : NULL;
}

PMU_API int pmu_session_event_desc(const struct pmu_session *s, size_t i,
				   struct pmu_event_desc *out)
{
	struct pmu_event_desc d;

	if (!s || i >= s->n || !out || !pmu__out_ok(out, out->size))
		return -EINVAL;
	pmu__evlist_describe(&s->ev[i], &d);
	PMU__OUT(out, &d);
	return 0;
}

PMU_API const char *pmu_session_event_cpus(const struct pmu_session *s,
					   size_t i)
{
	return s && i < s->n ? s->ev[i].cpus : NULL;
}

PMU_API const char *pmu_session_driver(const struct pmu_session *s)
{
	return s ? s->drv->ops->name : NULL;
}

PMU_API const char *pmu_session_model(const struct pmu_session *s)
{
	const struct pmu__driver_ops *o = s ? s->drv->ops : NULL;

	return o && o->hwmodel ? o->hwmodel->hwmodel_name(s->drv) : NULL;
}

PMU_API int pmu_session_set_cgroup(struct pmu_session *s, size_t i,
				   const char *cgroup, struct pmu_error *err)
{
	char path[PATH_MAX], *dup = NULL;
	int r;

	pmu__error_clear(err);
	if (!s || i >= s->n || s->open)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "no such event, or the session is open");
	if (!(s->drv->ops->caps & PMU__DRV_CGROUP))
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_USAGE, NULL, -1,
				  "only the perf driver counts per cgroup");
	if (cgroup) {
		r = pmu__cgroup_path(cgroup, path, sizeof(path));
		if (r == -ENOENT)
			return pmu__error(err, r, PMU_ERR_NO_TARGET, cgroup, -1,
					  "no cgroup hierarchy is mounted for "
					  "perf_event (cgroup2 or v1 "
					  "perf_event), so no cgroup '%s'",
					  cgroup);
		if (r == -ENAMETOOLONG)
			return pmu__error(err, r, PMU_ERR_NO_TARGET, cgroup, -1,
					  "cgroup '%s': path too long", cgroup);
		if (r)
			/* out of descriptors or memory reading mountinfo:
			 * the cgroup may well be there, so never "gone" */
			return pmu__error(err, r, PMU_ERR_SYSTEM, cgroup, -1,
					  "cannot find cgroup '%s': reading "
					  "/proc/self/mountinfo: %s", cgroup,
					  pmu_strerror(r));
		if (access(path, R_OK | X_OK)) {
			r = errno == ENOTDIR ? -ENOENT : -errno;
			return pmu__error(err, r, r == -ENOENT || r == -EACCES ?
					  PMU_ERR_NO_TARGET : PMU_ERR_SYSTEM,
					  cgroup, -1, "no access to cgroup %s: %s",
					  path, pmu_strerror(r));
		}
		if (!(dup = strdup(path)))
			return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL,
					  -1, "out of memory");
	}
	free(s->ev[i].cgroup);
	s->ev[i].cgroup = dup;
	return 0;
}

/* argv copied into one block, as the emu driver packs its own. */
static char **copy_argv(char *const *argv)
{
	size_t n = 0, bytes = 0;
	char **v, *p;

	for (; argv[n]; n++)
		bytes += strlen(argv[n]) + 1;
	v = malloc((n + 1) * sizeof(*v) + bytes);
	if (!v)
		return NULL;
	p = (char *)(v + n + 1);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(argv[i]) + 1;

		memcpy(p, argv[i], len);
		v[i] = p;
		p += len;
	}
	v[n] = NULL;
	return v;
}

PMU_API int pmu_session_command(struct pmu_session *s, char *const argv[],
				char ***out, struct pmu_error *err)
{
	const struct pmu__driver_ops *o;

	pmu__error_clear(err);
	if (!out)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "no place for the command line");
	*out = NULL;
	if (!s || !argv || !argv[0])
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "no session or no command given");
	o = s->drv->ops;
	if (o->guest)
		return o->guest->command(s->drv, argv, out, err);
	*out = copy_argv(argv);
	return *out ? 0 : pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				     "out of memory");
}

PMU_API int pmu_cgroup_root(char *buf, size_t len)
{
	char mnt[512];
	int r;

	if (!buf || !len)
		return -EINVAL;
	r = pmu__cgroup_mount_at("/proc/self/mountinfo", mnt, sizeof(mnt));
	if (r == 0 && snprintf(buf, len, "%s", mnt) >= (int)len)
		r = -ENAMETOOLONG;
	return r;
}
