/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "drivers/perf_priv.h"
#include "util/error.h"

/* Host facts are only needed to explain failures: read them lazily. */
const struct pmu_host_info *pmu__perf_host(struct pmu__perf *p)
{
	if (!p->host.size) {
		p->host.size = sizeof(p->host);
		if (pmu_host_info(&p->host))
			p->host.paranoid = PMU_PARANOID_UNKNOWN;
		/* a seam's /proc: its paranoid setting, as the kernel's */
		if (p->sys && p->sys->proc) {
			char path[512];
			FILE *f;

			snprintf(path, sizeof(path),
				 "%s/sys/kernel/perf_event_paranoid",
				 p->sys->proc);
			f = fopen(path, "re");
			if (!f || fscanf(f, "%d", &p->host.paranoid) != 1)
				p->host.paranoid = PMU_PARANOID_UNKNOWN;
			if (f)
				fclose(f);
		}
	}
	return &p->host;
}

static const char *ev_name(const struct pmu__perf *p, size_t i)
{
	return p->ev[i].name ? p->ev[i].name : "?";
}

static void paranoid_text(int v, char *buf, size_t len)
{
	if (v == PMU_PARANOID_UNKNOWN)
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%d", v);
}

/*
 * The kernel's levels: <= -1 everything, <= 0 system-wide (CPU) events,
 * <= 1 kernel-mode counting, <= 2 user-mode counting of own processes.
 */
static int permission_error(struct pmu__perf *p, size_t i, int ret,
			    struct pmu_error *err)
{
	int par = p->host.size ? p->host.paranoid : PMU_PARANOID_UNKNOWN;
	const char *what = "counting user-mode events of your own processes";
	const char *alt = "";
	char now[16];
	int need = 2;

	if (p->target == PMU__TARGET_CPUS) {
		what = "system-wide counting (-a, CPU targets)";
		need = 0;
	} else if (!p->attr[i].exclude_kernel) {
		what = "counting kernel-mode events";
		need = 1;
		alt = ", or count user space only with the ':u' modifier";
	}
	paranoid_text(par, now, sizeof(now));
	if (par != PMU_PARANOID_UNKNOWN && par <= need)
		return pmu__error(err, ret, PMU_ERR_PERMISSION, ev_name(p, i),
				  -1, "permission denied opening '%s' "
				  "(kernel.perf_event_paranoid=%s): the target "
				  "belongs to another user or a security policy "
				  "refused it; run as its owner or with "
				  "CAP_PERFMON", ev_name(p, i), now);
	return pmu__error(err, ret, PMU_ERR_PERMISSION, ev_name(p, i), -1,
			  "permission denied opening '%s': %s needs "
			  "kernel.perf_event_paranoid <= %d (it is %s); run "
			  "'sysctl kernel.perf_event_paranoid=%d' or run with "
			  "CAP_PERFMON%s", ev_name(p, i), what, need, now, need,
			  alt);
}

static int fd_error(struct pmu__perf *p, size_t i, int ret,
		    struct pmu_error *err)
{
	struct rlimit rl = { 0 };
	const char *unit = p->target == PMU__TARGET_CPUS ? "CPUs" : "threads";
	char lim[32] = "unknown";

	if (!getrlimit(RLIMIT_NOFILE, &rl))
		snprintf(lim, sizeof(lim), "%llu",
			 (unsigned long long)rl.rlim_cur);
	return pmu__error(err, ret, PMU_ERR_RESOURCES, ev_name(p, i), -1,
			  "too many open files: %zu events × %zu %s need "
			  "%zu descriptors (limit %s); raise `ulimit -n`",
			  p->nev, p->nunits, unit, p->nev * p->nunits, lim);
}

static int target_error(struct pmu__perf *p, size_t i, int ret,
			struct pmu_error *err)
{
	char tok[24];
	int pid = (int)p->units.pid[p->bad_unit];

	snprintf(tok, sizeof(tok), "%d", pid);
	return pmu__error(err, ret, PMU_ERR_NO_TARGET, tok, -1,
			  "no such %s: %d",
			  p->target == PMU__TARGET_TID ? "thread" : "process",
			  pid);
}

int pmu__perf_open_error(struct pmu__perf *p, size_t i, int ret,
			 struct pmu_error *err)
{
	if (ret == -EACCES || ret == -EPERM) {
		pmu__perf_host(p);
		ret = permission_error(p, i, ret, err);
	} else if (ret == -EMFILE || ret == -ENFILE) {
		ret = fd_error(p, i, ret, err);
	} else if (ret == -ESRCH) {
		ret = target_error(p, i, ret, err);
	} else if (ret == -ENOSPC || ret == -EBUSY) {
		ret = pmu__error(err, ret, PMU_ERR_RESOURCES, ev_name(p, i), -1,
				 "cannot open '%s': no free counter or the PMU "
				 "is busy (%s); stop other profilers or count "
				 "fewer events", ev_name(p, i),
				 pmu_strerror(ret));
	} else {
		ret = pmu__error(err, ret, PMU_ERR_SYSTEM, ev_name(p, i), -1,
				 "cannot open '%s': %s", ev_name(p, i),
				 pmu_strerror(ret));
	}
	pmu__error_index(err, (int)i);
	return ret;
}
