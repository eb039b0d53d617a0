/* SPDX-License-Identifier: MIT */
/*
 * Scenarios (docs/scenario-format.md): a monitoring context on a
 * simulated PMU driven line by line -- its registers, sets, attach,
 * start/stop/restart, the program it monitors (event streams), and
 * what to print or expect of its counts, sets, buffer and messages.
 * Statements run as they are read; calls go through pmu/perfmon.h.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfmon/pfm.h"
#include "sim/pebs.h"
#include "util/error.h"

#define MAXTOK 40
#define MAXMSG 64

struct scn {
	const char *text;
	size_t len, pos;
	int line;
	char model[32];
	int fd;
	pfarg_set_desc_t sets[64];
	size_t nsets;
	pfarg_msg_t msgs[MAXMSG];
	size_t nmsgs;
	void (*out)(void *, const char *);
	void *arg;
	struct pmu_error *err;
	int failed;              /* expectations that did not hold */
	char *tok[MAXTOK];
	int col[MAXTOK];
	int ntok;
	char buf[1024];
};

static void say(struct scn *s, const char *fmt, ...) PMU__PRINTF(2, 3);

static void say(struct scn *s, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!s->out)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	s->out(s->arg, line);
}

static int bad(struct scn *s, int t, const char *fmt, ...) PMU__PRINTF(3, 4);

static int bad(struct scn *s, int t, const char *fmt, ...)
{
	char why[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return pmu__error(s->err, -EINVAL, PMU_ERR_SYNTAX,
			  t < s->ntok ? s->tok[t] : "", -1,
			  "line %d, column %d: %s", s->line,
			  t < s->ntok ? s->col[t] : 1, why);
}

/* Next line into s->buf, split into tokens; false at the end. */
static bool next_line(struct scn *s, bool split)
{
	size_t n = 0;
	char *p;

	if (s->pos >= s->len)
		return false;
	s->line++;
	while (s->pos < s->len && s->text[s->pos] != '\n') {
		char ch = s->text[s->pos++];

		if (n + 1 < sizeof(s->buf))
			s->buf[n++] = ch == '\0' ? '?' : ch;
	}
	s->pos++;
	if (n && s->buf[n - 1] == '\r')
		n--;
	s->buf[n] = '\0';
	s->ntok = 0;
	if (!split)
		return true;
	if ((p = strchr(s->buf, '#')))
		*p = '\0';
	for (p = s->buf; *p && s->ntok < MAXTOK;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		s->col[s->ntok] = (int)(p - s->buf) + 1;
		s->tok[s->ntok++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
	}
	return true;
}

/* A number: decimal, 0x hex, or -N (two's complement, 64 bits). */
static bool num(const char *t, uint64_t *v)
{
	bool neg = *t == '-';
	char *end;

	if (neg)
		t++;
	if (!isdigit((unsigned char)*t))
		return false;
	errno = 0;
	*v = strtoull(t, &end, 0);
	if (errno || *end)
		return false;
	if (neg)
		*v = (uint64_t)0 - *v;
	return true;
}

/* A PMD list "1,4,7" or "-" into a bit vector. */
static bool list(const char *t, uint64_t *bv)
{
	memset(bv, 0, PFM_BV * sizeof(*bv));
	if (strcmp(t, "-") == 0)
		return true;
	while (*t) {
		char *end;
		unsigned long i = strtoul(t, &end, 10);

		if (end == t || i >= 64 * PFM_BV || (*end && *end != ','))
			return false;
		bv_set(bv, (unsigned)i);
		t = *end ? end + 1 : end;
	}
	return true;
}

static void fmt_list(const uint64_t *bv, char *out, size_t sz)
{
	size_t n = 0;

	out[0] = '\0';
	for (unsigned i = 0; i < 64 * PFM_BV && n + 8 < sz; i++)
		if (bv_test(bv, i))
			n += (size_t)snprintf(out + n, sz - n, "%s%u",
					      n ? "," : "", i);
	if (!n)
		snprintf(out, sz, "-");
}

/* "key=value" token t: the value, or NULL if t is not key=... */
static const char *kv(const char *t, const char *key)
{
	size_t n = strlen(key);

	return strncmp(t, key, n) == 0 && t[n] == '=' ? t + n + 1 : NULL;
}

static int errno_of(const char *name)
{
	static const struct { const char *n; int e; } tab[] = {
		{ "EINVAL", EINVAL }, { "EBUSY", EBUSY }, { "EBADF", EBADF },
		{ "ESRCH", ESRCH }, { "EACCES", EACCES }, { "EPERM", EPERM },
		{ "ENOSYS", ENOSYS }, { "ENOENT", ENOENT }, { "EFAULT", EFAULT },
		{ "ENOMEM", ENOMEM },
	};

	for (size_t i = 0; i < sizeof(tab) / sizeof(*tab); i++)
		if (strcmp(tab[i].n, name) == 0)
			return tab[i].e;
	return 0;
}

static const char *errno_name(int e)
{
	static const char *names[] = {
		[EINVAL] = "EINVAL", [EBUSY] = "EBUSY", [EBADF] = "EBADF",
		[ESRCH] = "ESRCH", [EACCES] = "EACCES", [EPERM] = "EPERM",
		[ENOSYS] = "ENOSYS", [ENOENT] = "ENOENT", [EFAULT] = "EFAULT",
		[ENOMEM] = "ENOMEM",
	};

	return e > 0 && e < (int)(sizeof(names) / sizeof(*names)) && names[e]
	       ? names[e] : "error";
}

/*
 * The result of a call statement: with a trailing "-> ERRNO" it must
 * fail with that errno, otherwise succeed.  A mismatch of an expected
 * failure is a failed expectation; an unexpected failure ends the run.
 */
static int outcome(struct scn *s, const char *what, int rc, int want)
{
	int e = rc < 0 ? errno : 0;

	if (!want && rc >= 0)
		return 0;
	if (want && rc < 0 && e == want) {
		say(s, "%s: %s as expected", what, errno_name(e));
		return 0;
	}
	if (want) {
		say(s, "line %d: %s: expected %s, got %s", s->line, what,
		    errno_name(want), rc < 0 ? errno_name(e) : "success");
		s->failed++;
		return 0;
	}
	return pmu__error(s->err, -e, PMU_ERR_USAGE, what, -1,
			  "line %d: %s failed: %s (%s)", s->line, what,
			  errno_name(e), pmu_perfmon_error()->message);
}

/* Strip a trailing "-> ERRNO": returns the errno, 0 if none, -1 bad. */
static int want_errno(struct scn *s)
{
	int e;

	if (s->ntok < 2 || strcmp(s->tok[s->ntok - 2], "->") != 0)
		return 0;
	e = errno_of(s->tok[s->ntok - 1]);
	if (!e)
		return -1;
	s->ntok -= 2;
	return e;
}

static int need_ctx(struct scn *s)
{
	return s->fd >= 0 ? 0 : bad(s, 0, "'%s' needs a context first",
				    s->tok[0]);
}

/* ---- statements ---- */

static int st_model(struct scn *s)
{
	if (s->ntok != 2)
		return bad(s, 0, "model takes one name");
	if (s->fd >= 0)
		return bad(s, 0, "the model is chosen before the context");
	if (!pmu__hwmodel_find(s->tok[1]))
		return pmu__error(s->err, -EINVAL, PMU_ERR_UNKNOWN_PMU,
				  s->tok[1], -1, "line %d, column %d: unknown "
				  "model '%s' ('pmu info --list-models')",
				  s->line, s->col[1], s->tok[1]);
	snprintf(s->model, sizeof(s->model), "%s", s->tok[1]);
	return 0;
}

static int st_context(struct scn *s, int want)
{
	const char *fmt = NULL, *v;
	pfm_dfl_smpl_arg_t dfl = { .buf_size = 0 };
	pfm_pebs_p4_smpl_arg_t pebs = { 0 };
	uint64_t x;
	int flags = 0, rc;
	const void *arg = NULL;
	size_t argsz = 0;

	if (s->fd >= 0)
		return bad(s, 0, "one context per scenario");
	if (!s->model[0])
		return bad(s, 0, "no model: a 'model NAME' line first");
	for (int t = 1; t < s->ntok; t++) {
		const char *k = s->tok[t];

		if ((v = kv(k, "format"))) {
			fmt = v;
			flags |= PFM_FL_SMPL_FMT;
		} else if (strcmp(k, "system-wide") == 0) {
			flags |= PFM_FL_SYSTEM_WIDE;
		} else if (strcmp(k, "no-msg") == 0) {
			flags |= PFM_FL_OVFL_NO_MSG;
		} else if (strcmp(k, "block") == 0) {
			flags |= PFM_FL_NOTIFY_BLOCK;
		} else if ((v = kv(k, "buf_size")) && num(v, &x)) {
			dfl.buf_size = x;
			pebs.buf_size = (size_t)x;
		} else if ((v = kv(k, "cnt_reset")) && num(v, &x)) {
			pebs.cnt_reset = x;
		} else if ((v = kv(k, "intr_thres")) && num(v, &x)) {
			pebs.intr_thres = (size_t)x;
		} else {
			return bad(s, t, "unknown context option '%s'", k);
		}
	}
	if (fmt) {
		bool is_pebs = strncmp(fmt, "pebs", 4) == 0;

		arg = is_pebs ? (const void *)&pebs : (const void *)&dfl;
		argsz = is_pebs ? sizeof(pebs) : sizeof(dfl);
	}
	pmu__pfm_lock();
	rc = pmu__pfm_create(flags, NULL, fmt, arg, argsz, s->model,
			     (struct pmu_error *)pmu_perfmon_error());
	pmu__pfm_unlock();
	if (rc < 0)
		errno = -rc;
	else
		s->fd = rc;
	return outcome(s, "pfm_create", rc, want);
}

static int st_set(struct scn *s, int want)
{
	pfarg_set_desc_t d;
	uint64_t x;
	const char *v;

	memset(&d, 0, sizeof(d));
	if (s->ntok < 2 || !num(s->tok[1], &x) || x > 0xFFFF)
		return bad(s, 1, "set takes an id 0-65535");
	d.set_id = (uint16_t)x;
	for (int t = 2; t < s->ntok; t++) {
		if ((v = kv(s->tok[t], "time")) && num(v, &x)) {
			d.set_flags |= PFM_SETFL_TIME_SWITCH;
			d.set_timeout = x;
		} else if (strcmp(s->tok[t], "overflow") == 0) {
			d.set_flags |= PFM_SETFL_OVFL_SWITCH;
		} else if ((v = kv(s->tok[t], "flags")) && num(v, &x)) {
			d.set_flags = (uint32_t)x;
		} else {
			return bad(s, t, "unknown set option '%s'", s->tok[t]);
		}
	}
	if (need_ctx(s))
		return -EINVAL;
	if (s->nsets < sizeof(s->sets) / sizeof(*s->sets))
		s->sets[s->nsets++] = d;
	return outcome(s, "pfm_create_sets",
		       pfm_create_sets(s->fd, 0, &d, sizeof(d)), want);
}

static int st_pmc(struct scn *s, int want)
{
	pfarg_pmr_t r;
	uint64_t x;
	const char *v;

	memset(&r, 0, sizeof(r));
	if (s->ntok < 3 || !num(s->tok[1], &x) || x > 0xFFFF)
		return bad(s, 1, "pmc takes a register number and a value");
	r.reg_num = (uint16_t)x;
	if (!num(s->tok[2], &r.reg_value))
		return bad(s, 2, "bad value '%s'", s->tok[2]);
	for (int t = 3; t < s->ntok; t++) {
		if ((v = kv(s->tok[t], "set")) && num(v, &x) && x <= 0xFFFF)
			r.reg_set = (uint16_t)x;
		else if (strcmp(s->tok[t], "no-emul64") == 0)
			r.reg_flags |= PFM_REGFL_NO_EMUL64;
		else if ((v = kv(s->tok[t], "flags")) && num(v, &x))
			r.reg_flags = (uint32_t)x;
		else
			return bad(s, t, "unknown pmc option '%s'", s->tok[t]);
	}
	if (need_ctx(s))
		return -EINVAL;
	return outcome(s, "pfm_write PMC",
		       pfm_write(s->fd, 0, PFM_RW_PMC, &r, sizeof(r)), want);
}

static int pmd_opt(struct scn *s, int t, pfarg_pmd_attr_t *r)
{
	const char *k = s->tok[t], *v;
	uint64_t x;

	if (strcmp(k, "notify") == 0)
		r->reg_flags |= PFM_REGFL_OVFL_NOTIFY;
	else if ((v = kv(k, "random")) && num(v, &x)) {
		r->reg_flags |= PFM_REGFL_RANDOM;
		r->reg_random_mask = x;
	} else if ((v = kv(k, "short")) && num(v, &x))
		r->reg_short_reset = x;
	else if ((v = kv(k, "long")) && num(v, &x))
		r->reg_long_reset = x;
	else if ((v = kv(k, "reset")) && num(v, &x))
		r->reg_short_reset = r->reg_long_reset = x;
	else if ((v = kv(k, "smpl")) && list(v, r->reg_smpl_pmds))
		;
	else if ((v = kv(k, "resets")) && list(v, r->reg_reset_pmds))
		;
	else if ((v = kv(k, "swcnt")) && num(v, &x))
		r->reg_ovfl_swcnt = x;
	else if ((v = kv(k, "eventid")) && num(v, &x))
		r->reg_smpl_eventid = x;
	else if ((v = kv(k, "set")) && num(v, &x) && x <= 0xFFFF)
		r->reg_set = (uint16_t)x;
	else if ((v = kv(k, "flags")) && num(v, &x))
		r->reg_flags = (uint32_t)x;
	else
		return bad(s, t, "unknown pmd option '%s'", k);
	return 0;
}

static int st_pmd(struct scn *s, int want)
{
	pfarg_pmd_attr_t r;
	uint64_t x;

	memset(&r, 0, sizeof(r));
	if (s->ntok < 3 || !num(s->tok[1], &x) || x > 0xFFFF)
		return bad(s, 1, "pmd takes a register number and a value");
	r.reg_num = (uint16_t)x;
	if (!num(s->tok[2], &r.reg_value))
		return bad(s, 2, "bad value '%s'", s->tok[2]);
	for (int t = 3; t < s->ntok; t++)
		if (pmd_opt(s, t, &r))
			return -EINVAL;
	if (need_ctx(s))
		return -EINVAL;
	return outcome(s, "pfm_write PMD",
		       pfm_write(s->fd, 0, PFM_RW_PMD_ATTR, &r, sizeof(r)),
		       want);
}

static int st_attach(struct scn *s, int want)
{
	const char *v;
	uint64_t x;
	int target;

	if (s->ntok != 2)
		return bad(s, 0, "attach self | cpu=N | tid=N | none");
	if (strcmp(s->tok[1], "self") == 0)
		target = (int)gettid();
	else if (strcmp(s->tok[1], "none") == 0)
		target = PFM_NO_TARGET;
	else if (((v = kv(s->tok[1], "cpu")) || (v = kv(s->tok[1], "tid"))) &&
		 num(v, &x) && x <= INT32_MAX)
		target = (int)x;
	else
		return bad(s, 1, "attach self | cpu=N | tid=N | none");
	if (need_ctx(s))
		return -EINVAL;
	return outcome(s, "pfm_attach", pfm_attach(s->fd, 0, target), want);
}

static int st_state(struct scn *s, int want, int state)
{
	if (s->ntok != 1)
		return bad(s, 1, "%s takes nothing", s->tok[0]);
	if (need_ctx(s))
		return -EINVAL;
	return outcome(s, "pfm_set_state", pfm_set_state(s->fd, 0, state),
		       want);
}

/* "run" then stream lines up to "end": fed as one program. */
static int st_run(struct scn *s)
{
	size_t start = s->pos, stop = s->pos;
	int first = s->line, rc;

	if (s->ntok != 1)
		return bad(s, 1, "run takes nothing: the stream follows, up "
			   "to a line 'end'");
	for (;;) {
		size_t at = s->pos;

		if (!next_line(s, true))
			return pmu__error(s->err, -EINVAL, PMU_ERR_SYNTAX, "run",
					  -1, "line %d: run without its 'end'",
					  first);
		if (s->ntok == 1 && strcmp(s->tok[0], "end") == 0) {
			stop = at;
			break;
		}
	}
	if (s->fd < 0)
		return pmu__error(s->err, -EINVAL, PMU_ERR_SYNTAX, "run", -1,
				  "line %d: 'run' needs a context first", first);
	rc = pmu_perfmon_feed(s->fd, s->text + start, stop - start);
	if (rc < 0)
		return pmu__error(s->err, -errno, PMU_ERR_SYNTAX, "run", -1,
				  "the stream of the run at line %d: %s",
				  first, pmu_perfmon_error()->message);
	return 0;
}

static void put_value(char *out, size_t sz, uint64_t v)
{
	if (v >> 63)
		snprintf(out, sz, "-%" PRIu64, (uint64_t)0 - v);
	else
		snprintf(out, sz, "%" PRIu64, v);
}

static int read_pmd(struct scn *s, unsigned num_, unsigned set,
		    pfarg_pmd_attr_t *r)
{
	memset(r, 0, sizeof(*r));
	r->reg_num = (uint16_t)num_;
	r->reg_set = (uint16_t)set;
	return pfm_read(s->fd, 0, PFM_RW_PMD_ATTR, r, sizeof(*r));
}

static int st_read(struct scn *s, int want)
{
	pfarg_pmd_attr_t r;
	uint64_t n, set = 0;
	const char *v;
	char a[32], b[32];
	int rc;

	if (s->ntok < 2 || !num(s->tok[1], &n) || n > 0xFFFF)
		return bad(s, 1, "read takes a PMD number");
	for (int t = 2; t < s->ntok; t++)
		if (!(v = kv(s->tok[t], "set")) || !num(v, &set) ||
		    set > 0xFFFF)
			return bad(s, t, "unknown read option '%s'", s->tok[t]);
	if (need_ctx(s))
		return -EINVAL;
	rc = read_pmd(s, (unsigned)n, (unsigned)set, &r);
	if (rc == 0) {
		put_value(a, sizeof(a), r.reg_value);
		put_value(b, sizeof(b), r.reg_last_value);
		say(s, "pmd %u set %u: value %s last %s swcnt %" PRIu64,
		    r.reg_num, r.reg_set, a, b, r.reg_ovfl_swcnt);
	}
	return outcome(s, "pfm_read", rc, want);
}

/* Every set the scenario created, and set 0. */
static size_t known_sets(struct scn *s, uint16_t *ids)
{
	size_t n = 0;

	ids[n++] = 0;
	for (size_t i = 0; i < s->nsets; i++) {
		bool dup = false;

		for (size_t j = 0; j < n; j++)
			dup |= ids[j] == s->sets[i].set_id;
		if (!dup)
			ids[n++] = s->sets[i].set_id;
	}
	/* in id order, as the context keeps them */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && ids[j - 1] > ids[j]; j--) {
			uint16_t t = ids[j];

			ids[j] = ids[j - 1];
			ids[j - 1] = t;
		}
	return n;
}

static int set_info(struct scn *s, unsigned id, pfarg_set_info_t *in)
{
	memset(in, 0, sizeof(*in));
	in->set_id = (uint16_t)id;
	return pfm_getinfo_sets(s->fd, 0, in, sizeof(*in));
}

static int st_sets(struct scn *s)
{
	uint16_t ids[65];
	size_t n;

	if (need_ctx(s))
		return -EINVAL;
	n = known_sets(s, ids);
	for (size_t i = 0; i < n; i++) {
		pfarg_set_info_t in;
		char l[128];

		if (set_info(s, ids[i], &in))
			continue;
		fmt_list(in.set_ovfl_pmds, l, sizeof(l));
		say(s, "set %u: runs %" PRIu64 " duration %" PRIu64
		    " timeout %" PRIu64 " ovfl %s", in.set_id, in.set_runs,
		    in.set_duration, in.set_timeout, l);
	}
	return 0;
}

/* The buffer as mapped by the caller (a fresh read-only mapping). */
static const void *map_buffer(struct scn *s, size_t *size)
{
	struct pmu_perfmon_info in = { .size = sizeof(in) };
	void *p;

	if (pmu_perfmon_info(s->fd, &in) || !in.buf_size)
		return NULL;
	p = pmu_perfmon_mmap(NULL, in.buf_size, PROT_READ, MAP_SHARED, s->fd, 0);
	if (p == MAP_FAILED)
		return NULL;
	*size = in.buf_size;
	return p;
}

static bool is_pebs(struct scn *s, bool *mode64)
{
	struct pmu_perfmon_info in = { .size = sizeof(in) };

	pmu_perfmon_info(s->fd, &in);
	*mode64 = strcmp(in.format, "pebs64_p4") == 0;
	return strncmp(in.format, "pebs", 4) == 0;
}

/* Sampled values in an entry for PMD pmd of set `set`. */
static unsigned nsmpl_of(struct scn *s, unsigned pmd, unsigned set)
{
	pfarg_pmd_attr_t r;
	unsigned n = 0;

	if (read_pmd(s, pmd, set, &r))
		return 0;
	for (unsigned w = 0; w < PFM_BV; w++)
		n += (unsigned)__builtin_popcountll(r.reg_smpl_pmds[w]);
	return n;
}

/* Entry k of a default-format buffer and its values, NULL past the
 * last one written. */
static const pfm_dfl_smpl_entry_t *entry_at(struct scn *s, const void *buf,
					    size_t size, uint64_t k,
					    unsigned *nval)
{
	const pfm_dfl_smpl_hdr_t *h = buf;
	const char *p = (const char *)buf + sizeof(*h);
	const char *end = (const char *)buf +
			  (h->hdr_cur_offs <= size ? h->hdr_cur_offs : size);

	for (uint64_t i = 0; i < h->hdr_count; i++) {
		const pfm_dfl_smpl_entry_t *e = (const void *)p;

		if (p + sizeof(*e) > end)
			return NULL;
		*nval = nsmpl_of(s, e->ovfl_pmd, e->set);
		if (i == k)
			return p + sizeof(*e) + 8u * *nval <= end ? e : NULL;
		p += sizeof(*e) + 8u * *nval;
	}
	return NULL;
}

static void print_dfl(struct scn *s, const void *buf, size_t size)
{
	const pfm_dfl_smpl_hdr_t *h = buf;
	const pfm_dfl_smpl_entry_t *e;
	unsigned nv;

	say(s, "buffer: count %" PRIu64 " offset %" PRIu64 " overflows %"
	    PRIu64 " size %" PRIu64 " min %" PRIu64 " version 0x%x",
	    h->hdr_count, h->hdr_cur_offs, h->hdr_overflows, h->hdr_buf_size,
	    h->hdr_min_buf_space, h->hdr_version);
	for (uint64_t k = 0; (e = entry_at(s, buf, size, k, &nv)); k++) {
		const uint64_t *v = (const uint64_t *)(const void *)(e + 1);
		char vals[400], last[32];
		size_t n = 0;

		vals[0] = '\0';
		for (unsigned j = 0; j < nv && n + 24 < sizeof(vals); j++)
			n += (size_t)snprintf(vals + n, sizeof(vals) - n, " %"
					      PRIu64, v[j]);
		put_value(last, sizeof(last), e->last_reset_val);
		say(s, "  entry %" PRIu64 ": pmd %u set %u ip 0x%" PRIx64
		    " tstamp %" PRIu64 " last %s values%s", k, e->ovfl_pmd,
		    e->set, e->ip, e->tstamp, last, n ? vals : " -");
	}
}

static void print_pebs(struct scn *s, const void *buf, size_t size, bool m64)
{
	struct pmu__pebs_buf b = { (uint8_t *)(uintptr_t)buf, size,
				   PMU__PFM_PEBS_BASE, m64 };
	uint64_t n = pmu__pebs_fmt_count(&b);

	say(s, "pebs: records %" PRIu64 " overflows %" PRIu64, n,
	    pmu__pebs_fmt_hdr(&b, PMU_PEBS_HDR_OVERFLOWS));
	for (uint64_t i = 0; i < n; i++) {
		struct pmu__pebs_rec r;

		pmu__pebs_fmt_record(&b, i, &r);
		say(s, "  record %" PRIu64 ": ip 0x%" PRIx64 " flags 0x%" PRIx64
		    " eax 0x%" PRIx64, i, r.ip, r.flags, r.regs[0]);
	}
}

static int st_buffer(struct scn *s)
{
	size_t size;
	const void *buf;
	bool m64;

	if (need_ctx(s))
		return -EINVAL;
	if (!(buf = map_buffer(s, &size)))
		return bad(s, 0, "the context has no sampling buffer");
	if (is_pebs(s, &m64))
		print_pebs(s, buf, size, m64);
	else
		print_dfl(s, buf, size);
	munmap((void *)(uintptr_t)buf, size);
	return 0;
}

/* Read every queued message (the descriptor is made non-blocking for
 * it) into s->msgs, and print them. */
static int st_messages(struct scn *s)
{
	int fl;

	if (need_ctx(s))
		return -EINVAL;
	fl = fcntl(s->fd, F_GETFL);
	fcntl(s->fd, F_SETFL, fl | O_NONBLOCK);
	s->nmsgs = 0;
	while (s->nmsgs < MAXMSG &&
	       read(s->fd, &s->msgs[s->nmsgs], sizeof(pfarg_msg_t)) ==
	       (ssize_t)sizeof(pfarg_msg_t))
		s->nmsgs++;
	fcntl(s->fd, F_SETFL, fl);
	say(s, "messages: %zu", s->nmsgs);
	for (size_t i = 0; i < s->nmsgs; i++) {
		const pfarg_ovfl_msg_t *m = &s->msgs[i].pfm_ovfl_msg;
		char l[128];

		if (s->msgs[i].type == PFM_MSG_END) {
			say(s, "  message %zu: end", i);
			continue;
		}
		fmt_list(m->msg_ovfl_pmds, l, sizeof(l));
		say(s, "  message %zu: ovfl pmds %s set %u ip 0x%" PRIx64, i, l,
		    m->msg_active_set, m->msg_ovfl_ip);
	}
	return 0;
}

static const char *state_name(int st)
{
	static const char *n[] = { "?", "unloaded", "loaded", "masked",
				   "zombie" };

	return st >= 1 && st <= 4 ? n[st] : n[0];
}

static int st_info(struct scn *s)
{
	struct pmu_perfmon_info in = { .size = sizeof(in) };

	if (need_ctx(s))
		return -EINVAL;
	pmu_perfmon_info(s->fd, &in);
	say(s, "context: model %s state %s restarts %u lost %" PRIu64
	    " width %u format %s", in.model, state_name(in.state),
	    in.can_restart, in.msgs_lost, in.width,
	    in.format[0] ? in.format : "-");
	return 0;
}

/* ---- expect ---- */

static void check_u64(struct scn *s, const char *what, uint64_t got,
		      uint64_t want)
{
	char g[32], w[32];

	if (got == want)
		return;
	put_value(g, sizeof(g), got);
	put_value(w, sizeof(w), want);
	say(s, "line %d: expected %s %s, got %s", s->line, what, w, g);
	s->failed++;
}

static void check_list(struct scn *s, const char *what, const uint64_t *got,
		       const uint64_t *want)
{
	char g[128], w[128];

	if (memcmp(got, want, PFM_BV * sizeof(*got)) == 0)
		return;
	fmt_list(got, g, sizeof(g));
	fmt_list(want, w, sizeof(w));
	say(s, "line %d: expected %s %s, got %s", s->line, what, w, g);
	s->failed++;
}

static int ex_pmd(struct scn *s)
{
	uint64_t n, set = 0, want;
	pfarg_pmd_attr_t r;
	const char *v;
	int t = 3;

	if (s->ntok < 5 || !num(s->tok[2], &n) || n > 0xFFFF)
		return bad(s, 2, "expect pmd N [set=S] value|last|swcnt V");
	if ((v = kv(s->tok[3], "set"))) {
		if (!num(v, &set) || set > 0xFFFF || s->ntok != 6)
			return bad(s, 3, "bad set");
		t = 4;
	} else if (s->ntok != 5) {
		return bad(s, 5, "too many words");
	}
	if (!num(s->tok[t + 1], &want))
		return bad(s, t + 1, "bad value '%s'", s->tok[t + 1]);
	if (read_pmd(s, (unsigned)n, (unsigned)set, &r))
		return outcome(s, "pfm_read", -1, 0);
	if (strcmp(s->tok[t], "value") == 0)
		check_u64(s, "value", r.reg_value, want);
	else if (strcmp(s->tok[t], "last") == 0)
		check_u64(s, "last reset value", r.reg_last_value, want);
	else if (strcmp(s->tok[t], "swcnt") == 0)
		check_u64(s, "swcnt", r.reg_ovfl_swcnt, want);
	else
		return bad(s, t, "value, last or swcnt");
	return 0;
}

static int ex_set(struct scn *s)
{
	pfarg_set_info_t in;
	uint64_t id, want, bv[PFM_BV];
	const char *f;

	if (s->ntok != 5 || !num(s->tok[2], &id) || id > 0xFFFF)
		return bad(s, 2, "expect set ID runs|duration|timeout|ovfl V");
	f = s->tok[3];
	if (set_info(s, (unsigned)id, &in))
		return outcome(s, "pfm_getinfo_sets", -1, 0);
	if (strcmp(f, "ovfl") == 0) {
		if (!list(s->tok[4], bv))
			return bad(s, 4, "a PMD list (1,2) or -");
		check_list(s, "ovfl_pmds", in.set_ovfl_pmds, bv);
		return 0;
	}
	if (!num(s->tok[4], &want))
		return bad(s, 4, "bad value '%s'", s->tok[4]);
	if (strcmp(f, "runs") == 0)
		check_u64(s, "runs", in.set_runs, want);
	else if (strcmp(f, "duration") == 0)
		check_u64(s, "duration", in.set_duration, want);
	else if (strcmp(f, "timeout") == 0)
		check_u64(s, "timeout left", in.set_timeout, want);
	else
		return bad(s, 3, "runs, duration, timeout or ovfl");
	return 0;
}

static int ex_state(struct scn *s)
{
	struct pmu_perfmon_info in = { .size = sizeof(in) };
	const char *got;

	if (s->ntok != 3)
		return bad(s, 2, "expect state unloaded|loaded|masked|zombie");
	pmu_perfmon_info(s->fd, &in);
	got = state_name(in.state);
	if (strcmp(got, s->tok[2]) != 0) {
		say(s, "line %d: expected state %s, got %s", s->line, s->tok[2],
		    got);
		s->failed++;
	}
	return 0;
}

static int ex_context(struct scn *s, const char *f, uint64_t want)
{
	struct pmu_perfmon_info in = { .size = sizeof(in) };

	pmu_perfmon_info(s->fd, &in);
	if (strcmp(f, "restarts") == 0)
		check_u64(s, "restarts", in.can_restart, want);
	else if (strcmp(f, "lost") == 0)
		check_u64(s, "lost messages", in.msgs_lost, want);
	else
		return bad(s, 1, "unknown expectation '%s'", f);
	return 0;
}

static int ex_buffer(struct scn *s)
{
	size_t size;
	const void *buf;
	uint64_t want;
	bool m64;
	int rc = 0;

	if (s->ntok != 4 || !num(s->tok[3], &want))
		return bad(s, 2, "expect buffer count|offset|overflows V");
	if (!(buf = map_buffer(s, &size)))
		return bad(s, 0, "the context has no sampling buffer");
	if (is_pebs(s, &m64)) {
		struct pmu__pebs_buf b = { (uint8_t *)(uintptr_t)buf, size,
					   PMU__PFM_PEBS_BASE, m64 };

		if (strcmp(s->tok[2], "count") == 0)
			check_u64(s, "records", pmu__pebs_fmt_count(&b), want);
		else if (strcmp(s->tok[2], "overflows") == 0)
			check_u64(s, "overflows",
				  pmu__pebs_fmt_hdr(&b, PMU_PEBS_HDR_OVERFLOWS),
				  want);
		else
			rc = bad(s, 2, "count or overflows");
	} else {
		const pfm_dfl_smpl_hdr_t *h = buf;

		if (strcmp(s->tok[2], "count") == 0)
			check_u64(s, "count", h->hdr_count, want);
		else if (strcmp(s->tok[2], "offset") == 0)
			check_u64(s, "offset", h->hdr_cur_offs, want);
		else if (strcmp(s->tok[2], "overflows") == 0)
			check_u64(s, "overflows", h->hdr_overflows, want);
		else
			rc = bad(s, 2, "count, offset or overflows");
	}
	munmap((void *)(uintptr_t)buf, size);
	return rc;
}

static int entry_field(struct scn *s, const pfm_dfl_smpl_entry_t *e,
		       unsigned nv, uint64_t want)
{
	const char *f = s->tok[3];
	const uint64_t *v = (const uint64_t *)(const void *)(e + 1);
	uint64_t j;

	if (strcmp(f, "pmd") == 0)
		check_u64(s, "entry pmd", e->ovfl_pmd, want);
	else if (strcmp(f, "set") == 0)
		check_u64(s, "entry set", e->set, want);
	else if (strcmp(f, "ip") == 0)
		check_u64(s, "entry ip", e->ip, want);
	else if (strcmp(f, "tstamp") == 0)
		check_u64(s, "entry tstamp", e->tstamp, want);
	else if (strcmp(f, "last") == 0)
		check_u64(s, "entry last reset value", e->last_reset_val, want);
	else if (strcmp(f, "tid") == 0)
		check_u64(s, "entry pid (thread id)", e->pid, want);
	else if (strcmp(f, "pid") == 0)
		check_u64(s, "entry tgid (process id)", e->tgid, want);
	else if (strncmp(f, "value", 5) == 0 && num(f + 5, &j) && j < nv)
		check_u64(s, f, v[j], want);
	else
		return bad(s, 3, "pmd, set, ip, tstamp, last, tid, pid or "
			   "valueJ (J below the entry's number of values)");
	return 0;
}

/* A value, or "self": this thread's id (tid) or process id (pid). */
static bool value_or_self(const char *field, const char *t, uint64_t *v)
{
	if (strcmp(t, "self") == 0) {
		*v = strcmp(field, "pid") == 0 ? (uint64_t)getpid()
					       : (uint64_t)gettid();
		return true;
	}
	return num(t, v);
}

static int ex_entry(struct scn *s)
{
	const pfm_dfl_smpl_entry_t *e;
	uint64_t k, want;
	size_t size;
	const void *buf;
	unsigned nv = 0;
	int rc;

	if (s->ntok != 5 || !num(s->tok[2], &k) ||
	    !value_or_self(s->tok[3], s->tok[4], &want))
		return bad(s, 2, "expect entry K FIELD V");
	if (!(buf = map_buffer(s, &size)))
		return bad(s, 0, "the context has no sampling buffer");
	if (!(e = entry_at(s, buf, size, k, &nv))) {
		say(s, "line %d: expected an entry %" PRIu64 ", the buffer has "
		    "fewer", s->line, k);
		s->failed++;
		rc = 0;
	} else {
		rc = entry_field(s, e, nv, want);
	}
	munmap((void *)(uintptr_t)buf, size);
	return rc;
}

static int ex_message(struct scn *s)
{
	const pfarg_ovfl_msg_t *m;
	uint64_t k, want, bv[PFM_BV];
	const char *f;

	if (s->ntok != 5 || !num(s->tok[2], &k))
		return bad(s, 2, "expect message K type|pmds|set|ip|tid|pid V");
	if (k >= s->nmsgs) {
		say(s, "line %d: expected a message %" PRIu64 ", %zu were read",
		    s->line, k, s->nmsgs);
		s->failed++;
		return 0;
	}
	m = &s->msgs[k].pfm_ovfl_msg;
	f = s->tok[3];
	if (strcmp(f, "type") == 0) {
		uint64_t t = strcmp(s->tok[4], "end") == 0 ? PFM_MSG_END
			     : strcmp(s->tok[4], "ovfl") == 0 ? PFM_MSG_OVFL : 0;

		if (!t)
			return bad(s, 4, "ovfl or end");
		check_u64(s, "message type", s->msgs[k].type, t);
	} else if (strcmp(f, "pmds") == 0) {
		if (!list(s->tok[4], bv))
			return bad(s, 4, "a PMD list (1,2) or -");
		check_list(s, "message pmds", m->msg_ovfl_pmds, bv);
	} else if (!value_or_self(f, s->tok[4], &want)) {
		return bad(s, 4, "bad value '%s'", s->tok[4]);
	} else if (strcmp(f, "set") == 0) {
		check_u64(s, "message set", m->msg_active_set, want);
	} else if (strcmp(f, "ip") == 0) {
		check_u64(s, "message ip", m->msg_ovfl_ip, want);
	} else if (strcmp(f, "tid") == 0) {
		/* perfmon2 puts the thread id in msg_ovfl_pid */
		check_u64(s, "message thread id", m->msg_ovfl_pid, want);
	} else if (strcmp(f, "pid") == 0) {
		check_u64(s, "message process id", m->msg_ovfl_tid, want);
	} else {
		return bad(s, 3, "type, pmds, set, ip, tid or pid");
	}
	return 0;
}

static int st_expect(struct scn *s)
{
	uint64_t v;

	if (need_ctx(s))
		return -EINVAL;
	if (s->ntok < 2)
		return bad(s, 0, "expect what?");
	if (strcmp(s->tok[1], "pmd") == 0)
		return ex_pmd(s);
	if (strcmp(s->tok[1], "set") == 0)
		return ex_set(s);
	if (strcmp(s->tok[1], "state") == 0)
		return ex_state(s);
	if (strcmp(s->tok[1], "buffer") == 0)
		return ex_buffer(s);
	if (strcmp(s->tok[1], "entry") == 0)
		return ex_entry(s);
	if (strcmp(s->tok[1], "message") == 0)
		return ex_message(s);
	if (strcmp(s->tok[1], "messages") == 0) {
		if (s->ntok != 3 || !num(s->tok[2], &v))
			return bad(s, 2, "expect messages N");
		check_u64(s, "messages", s->nmsgs, v);
		return 0;
	}
	if (s->ntok == 3 && num(s->tok[2], &v))
		return ex_context(s, s->tok[1], v);
	return bad(s, 1, "unknown expectation '%s'", s->tok[1]);
}

static int statement(struct scn *s)
{
	const char *k = s->tok[0];
	int want = want_errno(s);

	if (want < 0)
		return bad(s, s->ntok - 1, "unknown errno name (EINVAL, "
			   "EBUSY, EBADF, ESRCH, EACCES, ...)");
	if (strcmp(k, "model") == 0 && !want)
		return st_model(s);
	if (strcmp(k, "context") == 0)
		return st_context(s, want);
	if (strcmp(k, "set") == 0)
		return st_set(s, want);
	if (strcmp(k, "pmc") == 0)
		return st_pmc(s, want);
	if (strcmp(k, "pmd") == 0)
		return st_pmd(s, want);
	if (strcmp(k, "attach") == 0)
		return st_attach(s, want);
	if (strcmp(k, "start") == 0)
		return st_state(s, want, PFM_ST_START);
	if (strcmp(k, "stop") == 0)
		return st_state(s, want, PFM_ST_STOP);
	if (strcmp(k, "restart") == 0)
		return st_state(s, want, PFM_ST_RESTART);
	if (strcmp(k, "read") == 0)
		return st_read(s, want);
	if (want)
		return bad(s, s->ntok, "only calls take '-> ERRNO'");
	if (strcmp(k, "run") == 0)
		return st_run(s);
	if (strcmp(k, "sets") == 0)
		return st_sets(s);
	if (strcmp(k, "buffer") == 0)
		return st_buffer(s);
	if (strcmp(k, "messages") == 0)
		return st_messages(s);
	if (strcmp(k, "info") == 0)
		return st_info(s);
	if (strcmp(k, "expect") == 0)
		return st_expect(s);
	return bad(s, 0, "unknown statement '%s'", k);
}

int pmu_perfmon_scenario(const char *text, size_t len, const char *model,
			 void (*out)(void *arg, const char *line), void *arg,
			 struct pmu_error *err)
{
	struct scn *s = calloc(1, sizeof(*s));
	int rc = 0;

	pmu__error_clear(err);
	if (!s)
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	if (!text && len)
		rc = pmu__error(err, -EFAULT, PMU_ERR_USAGE, NULL, -1,
				"no scenario text");
	*s = (struct scn){ .text = text, .len = len, .fd = -1, .out = out,
			   .arg = arg, .err = err };
	if (model && !rc) {
		if (!pmu__hwmodel_find(model))
			rc = pmu__error(err, -EINVAL, PMU_ERR_UNKNOWN_PMU, model,
					-1, "unknown model '%s' ('pmu info "
					"--list-models')", model);
		snprintf(s->model, sizeof(s->model), "%s", model);
	}
	while (!rc && next_line(s, true))
		if (s->ntok)
			rc = statement(s);
	if (s->fd >= 0)
		pmu_perfmon_close(s->fd);
	if (!rc)
		rc = s->failed;
	free(s);
	return rc;
}
