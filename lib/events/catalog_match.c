/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "events/catalog.h"

/*
 * Mapfile patterns against a CPU identifier, with the rules perf applies
 * per architecture (tools/perf/arch/{,x86,arm64}/util/header.c): x86 and
 * the architectures without a rule of their own match a POSIX extended
 * regular expression that must cover the whole identifier; on x86 a
 * pattern without a stepping ignores the identifier's; arm64 compares
 * MIDR values without their variant and revision, which a pattern that
 * gives them turns into a lower bound.
 */

#define MIDR_VARIANT (0xfull << 20)
#define MIDR_REVISION 0xfull

static size_t dashes(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '-';
	return n;
}

/*
 * Can pattern match at the start of id at all?  A match starting there
 * begins with the pattern's literal prefix (up to its first special
 * character, less a last character a quantifier applies to), unless an
 * alternative at the top level offers another start.  Most patterns of
 * a mapfile name another vendor or family: this spares compiling them.
 */
bool pmu__pattern_may_match(const char *pattern, const char *id)
{
	static const char special[] = ".[]()*+?{}|^$\\";
	const char *p = pattern;
	size_t n;
	int depth = 0;

	for (const char *q = pattern; *q; q++) {
		if (*q == '\\' && q[1]) {
			q++;
			continue;
		}
		if (*q == '[') {          /* a class: skip to its end */
			const char *e = q + 1;

			if (*e == '^')
				e++;
			if (*e == ']')
				e++;
			e = strchr(e, ']');
			if (!e)
				return true;      /* regcomp will say */
			q = e;
			continue;
		}
		depth += *q == '(';
		depth -= *q == ')';
		if (*q == '|' && depth == 0)
			return true;
	}
	if (*p == '^')
		p++;
	n = strcspn(p, special);
	if (n && p[n] && strchr("*+?{", p[n]))
		n--;
	return !strncmp(p, id, n);
}

/* Length of the leftmost-longest match of pattern in id, or -1. */
static long match_len(const char *pattern, const char *id)
{
	regmatch_t mt;
	regex_t re;
	long len = -1;

	if (!pmu__pattern_may_match(pattern, id))
		return -1;
	if (regcomp(&re, pattern, REG_EXTENDED) != 0)
		return -1;
	if (regexec(&re, id, 1, &mt, 0) == 0 && mt.rm_so == 0)
		len = (long)(mt.rm_eo - mt.rm_so);
	regfree(&re);
	return len;
}

static bool x86_match(const char *pattern, const char *id)
{
	size_t want = strlen(id);

	/* "Vendor-Family-Model-Stepping": a pattern that is not of that
	 * form leaves the stepping out.  Like perf, the form is told by
	 * counting dashes: exactly three, those of a class such as
	 * "[0-9A-F]" included. */
	if (dashes(id) == 3 && dashes(pattern) != 3)
		want = (size_t)(strrchr(id, '-') - id);
	return match_len(pattern, id) == (long)want;
}

static bool arm64_match(const char *pattern, const char *id)
{
	unsigned long long want = strtoull(pattern, NULL, 16);
	unsigned long long have = strtoull(id, NULL, 16);
	unsigned long long mask = MIDR_VARIANT | MIDR_REVISION;

	if ((want & ~mask) != (have & ~mask))
		return false;
	if (!(want & mask))
		return true;
	/* A later variant, or the same variant and a later revision. */
	if ((have & MIDR_VARIANT) != (want & MIDR_VARIANT))
		return (have & MIDR_VARIANT) > (want & MIDR_VARIANT);
	return (have & MIDR_REVISION) >= (want & MIDR_REVISION);
}

bool pmu__cpuid_pattern_match(enum pmu__arch arch, const char *pattern,
			      const char *id)
{
	if (!pattern || !id || !*id)
		return false;
	switch (arch) {
	case PMU__ARCH_X86:
		return x86_match(pattern, id);
	case PMU__ARCH_ARM64:
		return arm64_match(pattern, id);
	default:
		return match_len(pattern, id) == (long)strlen(id);
	}
}

const char *pmu__arch_name(enum pmu__arch a)
{
	static const char *const names[] = {
		[PMU__ARCH_X86] = "x86", [PMU__ARCH_ARM64] = "arm64",
		[PMU__ARCH_POWER] = "powerpc", [PMU__ARCH_S390] = "s390",
		[PMU__ARCH_RISCV] = "riscv",
	};

	return (unsigned)a < sizeof(names) / sizeof(names[0]) ? names[a]
							      : NULL;
}

static bool starts(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w);

	return n >= k && !strncmp(s, w, k);
}

enum pmu__arch pmu__cpuid_arch(const char *s, size_t n)
{
	size_t hex = 0;

	if (starts(s, n, "GenuineIntel") || starts(s, n, "AuthenticAMD") ||
	    starts(s, n, "HygonGenuine"))
		return PMU__ARCH_X86;
	if (starts(s, n, "^IBM") || starts(s, n, "IBM"))
		return PMU__ARCH_S390;
	if (!starts(s, n, "0x"))
		return PMU__ARCH_NONE;
	if (memchr(s, '-', n))
		return PMU__ARCH_RISCV;
	while (2 + hex < n && isxdigit((unsigned char)s[2 + hex]))
		hex++;
	return hex == 16 && n == 18 ? PMU__ARCH_ARM64 : PMU__ARCH_POWER;
}
