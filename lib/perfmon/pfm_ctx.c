/* SPDX-License-Identifier: MIT */
/*
 * Monitoring contexts and their descriptors (seed-semantics 2.1):
 * creation, attach and detach with perfmon2's state and ptrace rules,
 * start / stop / restart, close and the sampling buffer's map.  The
 * lock every call takes and the registry of contexts are pfm_core.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfmon/pfm.h"
#include "util/error.h"

static char use_driver[16];
static char use_model[32];

static void ended(struct pfm_ctx *c);

/* ---- creation ---- */

int pmu__pfm_use(const char *driver, const char *model, struct pmu_error *err)
{
	const struct pmu__driver_ops *o = pmu__driver_find(driver);
	/* a simulated model's PMU, or this machine's */
	bool sim = o && (o->caps & PMU__DRV_HWMODEL);

	if (!o || !o->pfm)
		return pmu__error(err, -ENOENT, PMU_ERR_USAGE, driver, -1,
				  "unknown driver '%s' (perf, sim)", driver);
	if (sim && (!model || !pmu__hwmodel_find(model)))
		return pmu__error(err, -ENOENT, PMU_ERR_UNKNOWN_PMU,
				  model ? model : "", -1, "%s%s%s: 'pmu info "
				  "--list-models' lists the simulated models",
				  model ? "unknown simulated model '" :
				  "the sim driver needs a model",
				  model ? model : "", model ? "'" : "");
	snprintf(use_driver, sizeof(use_driver), "%s", o->name);
	snprintf(use_model, sizeof(use_model), "%s", sim ? model : "");
	return 0;
}

/* The driver's PMU, or NULL with *rc (and *err) saying why not. */
static struct pmu__pfm_hw *take_hw(struct pmu__drv *drv,
				   struct pmu_error *err, int *rc)
{
	struct pmu_error local = { .size = sizeof(local) };
	struct pmu_error *e = err ? err : &local;
	struct pmu__pfm_hw *hw = drv->ops->pfm->pfm_hw(drv, e);

	*rc = hw ? 0 : e->code ? e->code : -ENODEV;
	return hw;
}

static int open_driver(struct pfm_ctx *c, const char *on_model,
		       struct pmu_error *err)
{
	const char *env = getenv("PMU_PERFMON_MODEL");
	const char *drv = on_model ? "sim" : use_driver[0] ? use_driver
				       : env && *env ? "sim" : "perf";
	const char *model = on_model ? on_model
				     : use_driver[0] ? use_model : env;
	const struct pmu__driver_ops *o = pmu__driver_find(drv);
	int rc = pmu__driver_new(drv, o && (o->caps & PMU__DRV_HWMODEL) ? model
							       : NULL,
				 &c->drv, err);

	if (rc)
		return rc;
	c->own_drv = true;
	if (!c->drv->ops->pfm)
		return pmu__error(err, -ENOSYS, PMU_ERR_NOT_SUPPORTED, drv, -1,
				  "monitoring contexts need a PMU programmed "
				  "register by register; the %s driver has "
				  "none: choose a model with "
				  "pmu_perfmon_use(\"sim\", MODEL) or "
				  "$PMU_PERFMON_MODEL", drv);
	/* the driver says why it has none (perf: no hardware PMU here) */
	if (!(c->hw = take_hw(c->drv, err, &rc)))
		return rc;
	c->m = c->hw->model;
	return 0;
}

static bool is_addr(const struct pmu_reg_desc *r, uint32_t a)
{
	return r->addr == a;
}

/* The logical PMU's shape from the model's pmu_desc. */
static void geometry(struct pfm_ctx *c)
{
	const struct pmu_hwmodel *m = c->m;
	bool pebs = m->check.family == PMU_CHECK_P4 &&
		    !(m->quirks & PMU_QUIRK_HT);

	c->npmcs = m->nr_pmcs;
	c->npmds = m->nr_pmds;
	c->width = pmu__pfm_width(m);
	c->ovfl_mask = c->width >= 64 ? UINT64_MAX
				      : (UINT64_C(1) << c->width) - 1;
	c->wmask = m->ctr_width && m->ctr_width < 64
		   ? (UINT64_C(1) << m->ctr_width) - 1 : UINT64_MAX;
	c->irq_model = pmu__pfm_has_irq(m);
	for (unsigned i = 0; i < c->npmcs; i++) {
		bv_set(c->impl_pmcs, i);
		c->pmd_of_pmc[i] = -1;
	}
	for (unsigned i = 0; i < c->npmds; i++) {
		const struct pmu_reg_desc *r = &m->pmds[i];

		bv_set(c->impl_pmds, i);
		if (r->flags & PMU_REGF_COUNTER) {
			bv_set(c->cnt_pmds, i);
			bv_set(c->wr_pmds, i);
			if (c->irq_model)
				bv_set(c->intr_pmds, i);
		}
		if (is_addr(r, PMU_MSR_IBS_FETCH_CTL) ||
		    is_addr(r, PMU_MSR_IBS_OP_CTL)) {
			bv_set(c->wr_pmds, i);
			bv_set(c->intr_pmds, i);
		}
		if (pebs && is_addr(r, PMU_MSR_P4_COUNTER0 + 16))
			bv_set(c->intr_pmds, i);
	}
	/* a PMC that alone controls one counter (EVNTSEL, CCCR) */
	for (unsigned k = 0; k < m->nr_hw_ctrs; k++)
		for (unsigned i = 0; i < c->npmcs; i++) {
			if (!(m->pmcs[i].flags & PMU_REGF_NO_EMUL64) ||
			    m->pmcs[i].addr != m->ctl_addr[k])
				continue;
			for (unsigned j = 0; j < c->npmds; j++)
				if (m->pmds[j].addr == m->ctr_addr[k])
					c->pmd_of_pmc[i] = (int)j;
		}
}

static int check_create(int flags, const char *fmt, struct pmu_error *err)
{
	int known = PFM_FL_NOTIFY_BLOCK | PFM_FL_SYSTEM_WIDE | PFM_FL_SMPL_FMT |
		    PFM_FL_OVFL_NO_MSG;

	if (flags & ~known)
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, "flags", -1,
				  "unknown pfm_create flags 0x%x",
				  (unsigned)(flags & ~known));
	if ((flags & PFM_FL_NOTIFY_BLOCK) && (flags & PFM_FL_SYSTEM_WIDE))
		return pmu__error(err, -EINVAL, PMU_ERR_CONFLICT, "flags", -1,
				  "PFM_FL_NOTIFY_BLOCK is not allowed with "
				  "PFM_FL_SYSTEM_WIDE");
	if ((flags & PFM_FL_SMPL_FMT) && !fmt)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, "fmt_name", -1,
				  "PFM_FL_SMPL_FMT without a format name");
	return 0;
}

/* Like perfmon2's smpl_buffer_mem_max: one buffer's bound. */
#define PFM_MAX_BUF ((size_t)256 << 20)

static int make_buffer(struct pfm_ctx *c, size_t size, struct pmu_error *err)
{
	if (size > PFM_MAX_BUF)
		return pmu__error(err, -ENOMEM, PMU_ERR_RESOURCES, "buf_size",
				  -1, "a %zu-byte sampling buffer is over the "
				  "%zu MiB a context may have", size,
				  PFM_MAX_BUF >> 20);
	c->buf_fd = memfd_create("pmu-sampling-buffer", MFD_CLOEXEC);
	if (c->buf_fd < 0 || ftruncate(c->buf_fd, (off_t)size))
		return pmu__error(err, -errno, PMU_ERR_SYSTEM, NULL, -1,
				  "cannot create the %zu-byte sampling buffer: "
				  "%s", size, strerror(errno));
	c->buf = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
		      c->buf_fd, 0);
	if (c->buf == MAP_FAILED) {
		c->buf = NULL;
		return pmu__error(err, -errno, PMU_ERR_SYSTEM, NULL, -1,
				  "cannot map the %zu-byte sampling buffer: %s",
				  size, strerror(errno));
	}
	c->buf_size = size;
	return 0;
}

static int setup_format(struct pfm_ctx *c, const struct pfm_fmt *f,
			const char *name, const void *arg, size_t argsz,
			struct pmu_error *err)
{
	size_t size;
	int rc;

	if (!f)
		return pmu__error(err, -EINVAL, PMU_ERR_UNKNOWN_EVENT, name, -1,
				  "unknown sampling format '%s' (%s)", name,
				  pmu__pfm_fmt_names());
	if (argsz != f->arg_size)
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, "fmt_arg_size",
				  -1, "format '%s' takes a %zu-byte argument, "
				  "not %zu", name, f->arg_size, argsz);
	c->fmt = f;
	if ((rc = f->validate(c, c->flags, c->npmds, arg, err)))
		return rc;
	size = f->getsize(c->flags, arg);
	if (size && (rc = make_buffer(c, size, err)))
		return rc;
	return f->init(c, c->flags, c->npmds, arg, err);
}

static void fill_sinfo(const struct pfm_ctx *c, pfarg_sinfo_t *sif)
{
	memset(sif, 0, sizeof(*sif));
	memcpy(sif->sif_avail_pmcs, c->impl_pmcs, sizeof(c->impl_pmcs));
	memcpy(sif->sif_avail_pmds, c->impl_pmds, sizeof(c->impl_pmds));
}

/* The context's own state once its PMU is known. */
static int finish_create(struct pfm_ctx *c, int flags, pfarg_sinfo_t *sif,
			 const struct pfm_fmt *f, const char *fmt,
			 const void *arg, size_t argsz, struct pmu_error *err)
{
	struct stat st;
	int rc;

	geometry(c);
	if ((rc = pmu__pfm_init_sets(c)) || (rc = pmu__pfm_msg_init(c)) ||
	    fstat(c->fd, &st))
		return pmu__error(err, rc ? rc : -errno, PMU_ERR_SYSTEM, NULL,
				  -1, "cannot create the context: %s",
				  strerror(rc ? -rc : errno));
	c->dev = st.st_dev;
	c->ino = st.st_ino;
	if ((flags & PFM_FL_SMPL_FMT) &&
	    (rc = setup_format(c, f, fmt, arg, argsz, err)))
		return rc;
	if ((rc = pmu__pfm_register(c)))
		return rc;
	c->hw->ops->set_callbacks(c->hw, &(struct pmu__pfm_hw_cb){
		.irq = pmu__pfm_irq, .tick = pmu__pfm_tick,
		.deadline = pmu__pfm_deadline, .trylock = pmu__pfm_trylock,
		.unlock = pmu__pfm_unlock, .cancelled = pmu__pfm_cancelled,
		.arg = c });
	if (sif)
		fill_sinfo(c, sif);
	return c->fd;
}

static struct pfm_ctx *new_ctx(int flags)
{
	struct pfm_ctx *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->fd = c->wfd = c->buf_fd = -1;
	c->flags = flags;
	c->state = PFM_CTX_UNLOADED;
	c->cpu = -1;
	c->owner_tid = gettid();
	c->owner_pid = getpid();
	c->rand = UINT64_C(0x9E3779B97F4A7C15) ^ (uint64_t)(uintptr_t)c;
	pthread_cond_init(&c->wake, NULL);
	return c;
}

static int fail_create(struct pfm_ctx *c, int rc)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	pmu__pfm_destroy(c);
	return rc;
}

int pmu__pfm_create(int flags, pfarg_sinfo_t *sif, const char *fmt,
		    const void *arg, size_t argsz, const char *model,
		    struct pmu_error *err)
{
	struct pfm_ctx *c;
	int rc;

	if ((rc = check_create(flags, fmt, err)))
		return rc;
	if (!(c = new_ctx(flags)))
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	if ((rc = open_driver(c, model, err)))
		return fail_create(c, rc);
	rc = finish_create(c, flags, sif, fmt ? pmu__pfm_fmt_find(fmt) : NULL,
			   fmt, arg, argsz, err);
	return rc < 0 ? fail_create(c, rc) : rc;
}

int pmu__pfm_create_on(struct pmu__drv *drv, int flags,
		       const struct pfm_fmt *fmt, const void *arg,
		       size_t argsz, struct pmu_error *err)
{
	struct pfm_ctx *c;
	int rc;

	if (fmt)
		flags |= PFM_FL_SMPL_FMT;
	if ((rc = check_create(flags, fmt ? fmt->name : NULL, err)))
		return rc;
	if (!(c = new_ctx(flags)))
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	c->drv = drv;
	if (!drv->ops->pfm) {
		rc = pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED,
				drv->ops->name, -1, "the %s driver has no PMU "
				"a monitoring context can program",
				drv->ops->name);
		return fail_create(c, rc);
	}
	if (!(c->hw = take_hw(drv, err, &rc)))
		return fail_create(c, rc);
	c->m = c->hw->model;
	rc = finish_create(c, flags, NULL, fmt, fmt ? fmt->name : NULL, arg,
			   argsz, err);
	return rc < 0 ? fail_create(c, rc) : rc;
}

/* ---- the target ---- */

/* Tgid, tracer and state of thread tid from /proc; false if gone. */
static bool thread_info(pid_t tid, pid_t *tgid, pid_t *tracer, char *state)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	if (!(f = fopen(path, "re")))
		return false;
	*tgid = *tracer = 0;
	*state = '?';
	while (fgets(line, sizeof(line), f)) {
		int v;

		if (sscanf(line, "Tgid: %d", &v) == 1)
			*tgid = v;
		else if (sscanf(line, "TracerPid: %d", &v) == 1)
			*tracer = v;
		else if (strncmp(line, "State:", 6) == 0)
			sscanf(line + 6, " %c", state);
	}
	fclose(f);
	return *tgid != 0;
}

/* Is tid stopped under ptrace by a thread of this process? */
static bool stopped_by_us(pid_t tid)
{
	pid_t tgid, tracer;
	char state, path[64];

	if (!thread_info(tid, &tgid, &tracer, &state) || !tracer)
		return false;
	snprintf(path, sizeof(path), "/proc/self/task/%d", (int)tracer);
	return (state == 't' || state == 'T') && access(path, F_OK) == 0;
}

/* A thread of this process on a PMU the engine feeds needs no ptrace
 * stop (Linux refuses to trace one's own threads): its monitored
 * program runs only inside pmu_perfmon_feed, which holds the lock or
 * waits for a restart, so every other call finds it stopped. */
static bool fed_sibling(const struct pfm_ctx *c, pid_t tgid)
{
	return pmu__pfm_fed(c) && tgid == getpid();
}

static bool other_thread(const struct pfm_ctx *c)
{
	return (c->state == PFM_CTX_LOADED || c->state == PFM_CTX_MASKED) &&
	       !c->self && !(c->flags & PFM_FL_SYSTEM_WIDE);
}

int pmu__pfm_check(struct pfm_ctx *c, bool detached_only,
		   struct pmu_error *err)
{
	if (c->state == PFM_CTX_ZOMBIE)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "the context was closed while attached: "
				  "it only waits for its thread to end");
	if (detached_only && c->state != PFM_CTX_UNLOADED)
		return pmu__error(err, -EBUSY, PMU_ERR_USAGE, NULL, -1,
				  "only on a detached context "
				  "(pfm_attach(fd, 0, PFM_NO_TARGET) first)");
	if (other_thread(c) && !fed_sibling(c, c->pid) &&
	    !stopped_by_us(c->tid))
		return pmu__error(err, -EBUSY, PMU_ERR_USAGE, NULL, -1,
				  "the monitored thread %d must be stopped "
				  "under ptrace by this process", (int)c->tid);
	return 0;
}

static int detach(struct pfm_ctx *c, struct pmu_error *err)
{
	if (c->state == PFM_CTX_UNLOADED)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "the context is not attached");
	pmu__pfm_save(c);
	c->started = false;
	c->state = PFM_CTX_UNLOADED;
	pmu__pfm_hw_target(c, -1, -1);
	c->gen++;
	pmu__pfm_block_wake(c);
	pmu__pfm_unwatch(c);
	return 0;
}

static int attach_cpu(struct pfm_ctx *c, int cpu, struct pmu_error *err)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int here = sched_getcpu();

	if (cpu < 0 || cpu >= ncpu)
		return pmu__error(err, -EINVAL, PMU_ERR_NO_TARGET, NULL, -1,
				  "CPU %d does not exist (0-%ld)", cpu, ncpu - 1);
	if (here != cpu)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "a system-wide context is attached from "
				  "the CPU it monitors (this thread runs on "
				  "CPU %d, not %d: pin it first)", here, cpu);
	c->cpu = cpu;
	c->self = false;
	c->tid = c->pid = 0;
	return 0;
}

static int attach_thread(struct pfm_ctx *c, pid_t tid, struct pmu_error *err)
{
	pid_t tgid, tracer;
	char state;

	if (tid == gettid()) {
		if (c->flags & PFM_FL_NOTIFY_BLOCK)
			return pmu__error(err, -EINVAL, PMU_ERR_CONFLICT, NULL,
					  -1, "PFM_FL_NOTIFY_BLOCK cannot be "
					  "used to monitor oneself");
		c->self = true;
		c->tid = tid;
		c->pid = getpid();
		return 0;
	}
	if (tid <= 0 || !thread_info(tid, &tgid, &tracer, &state))
		return pmu__error(err, -ESRCH, PMU_ERR_NO_TARGET, NULL, -1,
				  "no thread %d", (int)tid);
	if (!fed_sibling(c, tgid) && !stopped_by_us(tid))
		return pmu__error(err, -EBUSY, PMU_ERR_USAGE, NULL, -1,
				  "thread %d must be stopped under ptrace by "
				  "this process to be attached", (int)tid);
	c->self = false;
	c->tid = tid;
	c->pid = tgid;
	return 0;
}

int pmu__pfm_attach(struct pfm_ctx *c, int target, struct pmu_error *err)
{
	int rc;

	if (c->state == PFM_CTX_ZOMBIE)
		return pmu__pfm_check(c, false, err);
	if (target == PFM_NO_TARGET)
		return detach(c, err);
	if (c->state != PFM_CTX_UNLOADED)
		return pmu__error(err, -EBUSY, PMU_ERR_USAGE, NULL, -1,
				  "the context is already attached");
	rc = c->flags & PFM_FL_SYSTEM_WIDE ? attach_cpu(c, target, err)
					   : attach_thread(c, target, err);
	if (rc)
		return rc;
	c->state = PFM_CTX_LOADED;
	c->started = false;
	c->gen++;
	pmu__pfm_activate(c);
	if (c->flags & PFM_FL_SYSTEM_WIDE)
		pmu__pfm_hw_target(c, -1, c->cpu);
	else
		pmu__pfm_hw_target(c, (int)c->tid, -1);
	if (!c->self && !(c->flags & PFM_FL_SYSTEM_WIDE) &&
	    (rc = pmu__pfm_watch(c, ended))) {
		c->state = PFM_CTX_UNLOADED;
		pmu__pfm_hw_target(c, -1, -1);
		return pmu__error(err, rc, PMU_ERR_SYSTEM, NULL, -1,
				  "cannot watch thread %d: %s", (int)c->tid,
				  strerror(-rc));
	}
	return 0;
}

/* The watcher saw the monitored thread end (lock held): PFM_MSG_END,
 * the context detached (or, a zombie, destroyed). */
static void ended(struct pfm_ctx *c)
{
	pfarg_msg_t m;

	if (!c->watching)
		return;
	memset(&m, 0, sizeof(m));
	m.type = PFM_MSG_END;
	pmu__pfm_save(c);
	c->started = false;
	pmu__pfm_hw_target(c, -1, -1);
	if (c->state == PFM_CTX_ZOMBIE) {
		pmu__pfm_destroy(c);
		return;
	}
	if (!pmu__pfm_post(c, &m))
		c->msgs_lost++;
	c->state = PFM_CTX_UNLOADED;
	pmu__pfm_unwatch(c);
}

/* ---- monitoring ---- */

/* A PMU that refuses what the start programs (a kernel's) leaves the
 * context stopped, as if the start had not happened. */
static int start(struct pfm_ctx *c, struct pmu_error *err)
{
	size_t k = c->active;
	int rc;

	if (c->started)
		return 0;
	c->started = true;
	c->sets[k].runs++;
	if (c->state == PFM_CTX_LOADED) {
		pmu__pfm_load(c);
		pmu__pfm_replay(c);
	}
	if (!(rc = pmu__pfm_hw_error(c, err)))
		return 0;
	pmu__pfm_save(c);
	c->started = false;
	if (k == c->active && c->sets[k].runs)
		c->sets[k].runs--;
	return rc;
}

int pmu__pfm_set_state(struct pfm_ctx *c, int state, struct pmu_error *err)
{
	if (state != PFM_ST_START && state != PFM_ST_STOP &&
	    state != PFM_ST_RESTART)
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, "state", -1,
				  "unknown state %d (PFM_ST_START, _STOP, "
				  "_RESTART)", state);
	if (state == PFM_ST_RESTART) {
		int rc = pmu__pfm_restart(c, err);

		return rc ? rc : pmu__pfm_hw_error(c, err);
	}
	if (c->state == PFM_CTX_UNLOADED)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "%s: the context is not attached",
				  state == PFM_ST_START ? "PFM_ST_START"
							: "PFM_ST_STOP");
	if (state == PFM_ST_START)
		return start(c, err);
	pmu__pfm_save(c);
	c->started = false;
	return pmu__pfm_hw_error(c, err);
}

/* ---- close and mmap ---- */

int pmu__pfm_close(int fd)
{
	struct pfm_ctx *c = pmu__pfm_get(fd, NULL);

	if (!c)
		return 1;       /* not ours */
	if (other_thread(c)) {
		/* perfmon2: the context lives on, unusable, until its
		 * thread ends */
		pmu__pfm_save(c);
		c->state = PFM_CTX_ZOMBIE;
		pmu__pfm_block_wake(c);
		return close(fd) ? -errno : 0;
	}
	if (fd == c->fd) {
		close(fd);
		c->fd = -1;
		pmu__pfm_destroy(c);
		return 0;
	}
	/* a dup: the context stays with the other descriptor */
	return close(fd) ? -errno : 0;
}

void *pmu__pfm_mmap(struct pfm_ctx *c, void *addr, size_t len, int prot,
		    int flags, off_t off, struct pmu_error *err)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t max = (c->buf_size + (size_t)page - 1) & ~((size_t)page - 1);
	void *p;

	if (!c->buf) {
		pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
			   "the context has no sampling buffer "
			   "(pfm_create without PFM_FL_SMPL_FMT)");
		return MAP_FAILED;
	}
	if (prot & PROT_WRITE) {
		pmu__error(err, -EACCES, PMU_ERR_PERMISSION, NULL, -1,
			   "the sampling buffer maps read-only");
		return MAP_FAILED;
	}
	if (off != 0 || len == 0 || len > max) {
		pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, NULL, -1,
			   "map from offset 0 at most the buffer's %zu bytes "
			   "(asked %zu at offset %lld)", c->buf_size, len,
			   (long long)off);
		return MAP_FAILED;
	}
	p = mmap(addr, len, prot, flags, c->buf_fd, 0);
	if (p == MAP_FAILED)
		pmu__error(err, -errno, PMU_ERR_SYSTEM, NULL, -1,
			   "mmap of the sampling buffer: %s", strerror(errno));
	return p;
}
