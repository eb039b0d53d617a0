/* SPDX-License-Identifier: MIT */
#ifndef PMU_UTIL_OPTS_H
#define PMU_UTIL_OPTS_H

/*
 * Option structs (struct pmu_*_opts) start with `size_t sz`, set by the
 * caller to the size it was built with, so they can grow.  Every module
 * checks them the same way:
 *
 *	if ((ret = PMU__OPTS_CHECK(opts, pmu_open_opts, err)))
 *		return ret;
 *	target = PMU__OPTS_GET(opts, target, PMU_TARGET_SELF);
 *
 * A caller built against an older, smaller struct gets the defaults for
 * the fields it does not have; one built against a newer, larger struct
 * is accepted as long as the fields this library does not know are
 * zero (unset), and refused otherwise rather than silently ignored.
 * Callers therefore zero the whole struct, padding included
 * (PMU_OPTS_INIT, or memset before setting fields).
 */

#include <stddef.h>

#include <pmu/error.h>

int pmu__opts_check(const void *opts, size_t user_sz, size_t known_sz,
		    const char *type, struct pmu_error *err);

/*
 * What this library knows of a struct ends with its last field
 * (TYPE__last_field, defined beside the struct in its public header),
 * not with sizeof: a field a newer release adds in the tail padding
 * leaves sizeof unchanged, and must still be refused when set.
 */
#define PMU__OFFSETOFEND(type, field) \
	(offsetof(struct type, field) + sizeof(((struct type *)0)->field))
#define PMU__OPTS_KNOWN(type, last) PMU__OFFSETOFEND(type, last)
#define PMU__OPTS_KNOWN_(type, last) PMU__OPTS_KNOWN(type, last)

#define PMU__OPTS_CHECK(opts, type, err) \
	(!(opts) ? 0 : \
	 pmu__opts_check((opts), (opts)->sz, \
			 PMU__OPTS_KNOWN_(type, type##__last_field), #type, \
			 (err)))

#define PMU__OPTS_HAS(opts, field) \
	((opts) && (opts)->sz >= offsetof(__typeof__(*(opts)), field) + \
				  sizeof((opts)->field))

#define PMU__OPTS_GET(opts, field, dfl) \
	(PMU__OPTS_HAS(opts, field) ? (opts)->field : (dfl))

#endif
