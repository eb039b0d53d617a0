/* SPDX-License-Identifier: MIT */
/*
 * pmu/perfmon.h: perfmon2's calls with their argument checks and errno
 * values, over the context engine (pfm_*.c).  Each call returns -1 with
 * errno set on failure; pmu_perfmon_error() has the details.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "perfmon/pfm.h"
#include "util/error.h"
#include "util/outstruct.h"

static __thread struct pmu_error last_error;

static struct pmu_error *fresh_error(void)
{
	last_error.size = sizeof(last_error);
	pmu__error_clear(&last_error);
	return &last_error;
}

const struct pmu_error *pmu_perfmon_error(void)
{
	last_error.size = sizeof(last_error);
	return &last_error;
}

static int ret(int rc)
{
	if (rc < 0) {
		errno = -rc;
		return -1;
	}
	return rc;
}

static int usage(struct pmu_error *err, int code, const char *tok,
		 const char *what)
{
	return pmu__error(err, code, code == -EFAULT ? PMU_ERR_USAGE
						     : PMU_ERR_BAD_VALUE,
			  tok, -1, "%s", what);
}

int pfm_create(int flags, pfarg_sinfo_t *sif, ...)
{
	struct pmu_error *err = fresh_error();
	const char *fmt = NULL;
	const void *arg = NULL;
	size_t argsz = 0;
	int rc;

	if (flags & PFM_FL_SMPL_FMT) {
		va_list ap;

		va_start(ap, sif);
		fmt = va_arg(ap, const char *);
		arg = va_arg(ap, const void *);
		argsz = va_arg(ap, size_t);
		va_end(ap);
	}
	pmu__pfm_lock();
	rc = pmu__pfm_create(flags, sif, fmt, arg, argsz, NULL, err);
	pmu__pfm_unlock();
	return ret(rc);
}

/* The element size of a register type, 0 if unknown. */
static size_t elem_of(int type)
{
	switch (type) {
	case PFM_RW_PMC:
	case PFM_RW_PMD:
		return sizeof(pfarg_pmr_t);
	case PFM_RW_PMD_ATTR:
		return sizeof(pfarg_pmd_attr_t);
	default:
		return 0;
	}
}

static int check_rw(int flags, int type, const void *regs, size_t sz,
		    struct pmu_error *err)
{
	size_t e = elem_of(type);

	if (flags)
		return usage(err, -EINVAL, "flags", "flags must be 0");
	if (!e)
		return usage(err, -EINVAL, "type", "unknown register type "
			     "(PFM_RW_PMC, PFM_RW_PMD, PFM_RW_PMD_ATTR)");
	if (sz % e)
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, "sz", -1,
				  "size %zu is not a multiple of the %zu-byte "
				  "register record", sz, e);
	if (sz && !regs)
		return usage(err, -EFAULT, "regs", "no register records");
	return 0;
}

static int rw(int fd, int flags, int type, void *regs, size_t sz, bool write)
{
	struct pmu_error *err = fresh_error();
	struct pfm_ctx *c;
	size_t n;
	int rc = check_rw(flags, type, regs, sz, err);

	if (rc)
		return ret(rc);
	n = sz / elem_of(type);
	pmu__pfm_lock();
	if (!(c = pmu__pfm_get(fd, err)))
		rc = -EBADF;
	else if (!(rc = pmu__pfm_check(c, false, err))) {
		if (type == PFM_RW_PMC)
			rc = write ? pmu__pfm_write_pmcs(c, regs, n, err)
				   : pmu__pfm_read_pmcs(c, regs, n, err);
		else if (write)
			rc = pmu__pfm_write_pmds(c, regs, n,
						 type == PFM_RW_PMD_ATTR, err);
		else
			rc = pmu__pfm_read_pmds(c, regs, n,
						type == PFM_RW_PMD_ATTR, err);
	}
	pmu__pfm_unlock();
	return ret(rc);
}

int pfm_write(int fd, int flags, int type, void *regs, size_t sz)
{
	return rw(fd, flags, type, regs, sz, true);
}

int pfm_read(int fd, int flags, int type, void *regs, size_t sz)
{
	return rw(fd, flags, type, regs, sz, false);
}

int pfm_attach(int fd, int flags, int target)
{
	struct pmu_error *err = fresh_error();
	struct pfm_ctx *c;
	int rc;

	if (flags)
		return ret(usage(err, -EINVAL, "flags", "flags must be 0"));
	pmu__pfm_lock();
	if (!(c = pmu__pfm_get(fd, err)))
		rc = -EBADF;
	else if (target == PFM_NO_TARGET &&
		 (rc = pmu__pfm_check(c, false, err)))
		;
	else
		rc = pmu__pfm_attach(c, target, err);
	pmu__pfm_unlock();
	return ret(rc);
}

int pfm_set_state(int fd, int flags, int state)
{
	struct pmu_error *err = fresh_error();
	struct pfm_ctx *c;
	int rc;

	if (flags)
		return ret(usage(err, -EINVAL, "flags", "flags must be 0"));
	pmu__pfm_lock();
	if (!(c = pmu__pfm_get(fd, err)))
		rc = -EBADF;
	else if (!(rc = pmu__pfm_check(c, false, err)))
		rc = pmu__pfm_set_state(c, state, err);
	pmu__pfm_unlock();
	return ret(rc);
}

static int sets_call(int fd, int flags, void *s, size_t sz, size_t e,
		     bool create)
{
	struct pmu_error *err = fresh_error();
	struct pfm_ctx *c;
	int rc = 0;

	if (flags)
		rc = usage(err, -EINVAL, "flags", "flags must be 0");
	else if (sz % e)
		rc = pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, "sz", -1,
				"size %zu is not a multiple of the %zu-byte "
				"set record", sz, e);
	else if (sz && !s)
		rc = usage(err, -EFAULT, "s", "no set records");
	if (rc)
		return ret(rc);
	pmu__pfm_lock();
	if (!(c = pmu__pfm_get(fd, err)))
		rc = -EBADF;
	else if (!(rc = pmu__pfm_check(c, create, err)))
		rc = create ? pmu__pfm_create_sets(c, s, sz / e, err)
			    : pmu__pfm_getinfo_sets(c, s, sz / e, err);
	pmu__pfm_unlock();
	return ret(rc);
}

int pfm_create_sets(int fd, int flags, pfarg_set_desc_t *s, size_t sz)
{
	return sets_call(fd, flags, s, sz, sizeof(*s), true);
}

int pfm_getinfo_sets(int fd, int flags, pfarg_set_info_t *s, size_t sz)
{
	return sets_call(fd, flags, s, sz, sizeof(*s), false);
}

void *pmu_perfmon_mmap(void *addr, size_t len, int prot, int flags, int fd,
		       off_t off)
{
	struct pmu_error *err = fresh_error();
	struct pfm_ctx *c;
	void *p;

	pmu__pfm_lock();
	c = pmu__pfm_get(fd, NULL);
	if (!c) {
		pmu__pfm_unlock();
		return mmap(addr, len, prot, flags, fd, off);
	}
	if (c->state == PFM_CTX_ZOMBIE) {
		pmu__pfm_check(c, false, err);
		p = MAP_FAILED;
	} else {
		p = pmu__pfm_mmap(c, addr, len, prot, flags, off, err);
	}
	pmu__pfm_unlock();
	if (p == MAP_FAILED)
		errno = -err->code;
	return p;
}

int pmu_perfmon_close(int fd)
{
	int rc;

	fresh_error();
	pmu__pfm_lock();
	rc = pmu__pfm_close(fd);
	pmu__pfm_unlock();
	if (rc == 1)
		return close(fd);
	return ret(rc);
}

int pmu_perfmon_use(const char *driver, const char *model)
{
	struct pmu_error *err = fresh_error();
	int rc;

	pmu__pfm_lock();
	rc = pmu__pfm_use(driver, model, err);
	pmu__pfm_unlock();
	return ret(rc);
}

int pmu_perfmon_feed(int fd, const char *stream, size_t len)
{
	struct pmu_error *err = fresh_error();
	struct pfm_ctx *c;
	int rc;

	if (len && !stream)
		return ret(usage(err, -EFAULT, "stream", "no stream text"));
	pmu__pfm_lock();
	if (!(c = pmu__pfm_get(fd, err)))
		rc = -EBADF;
	else if (c->state == PFM_CTX_ZOMBIE)
		rc = pmu__pfm_check(c, false, err);
	else
		rc = pmu__pfm_feed(c, stream, len, err);
	pmu__pfm_unlock();
	return ret(rc);
}

int pmu_perfmon_info(int fd, struct pmu_perfmon_info *info)
{
	struct pmu_error *err = fresh_error();
	struct pmu_perfmon_info v;
	struct pfm_ctx *c;
	int rc = 0;

	if (!info)
		return ret(usage(err, -EFAULT, "info", "no info record"));
	memset(&v, 0, sizeof(v));
	pmu__pfm_lock();
	if (!(c = pmu__pfm_get(fd, err))) {
		rc = -EBADF;
	} else {
		v.state = (int)c->state;
		v.can_restart = c->can_restart;
		v.msgs_lost = c->msgs_lost;
		v.spurious = c->spurious;
		v.width = c->width;
		snprintf(v.model, sizeof(v.model), "%s", c->m->name);
		snprintf(v.format, sizeof(v.format), "%s",
			 c->fmt ? c->fmt->name : "");
		v.buf_size = c->buf_size;
	}
	pmu__pfm_unlock();
	if (!rc)
		PMU__OUT(info, &v);
	return ret(rc);
}
