/* SPDX-License-Identifier: MIT */
/* The event-list parser: modifiers (":u", ":pp"...) and numbers. */
#include "events/evlist_priv.h"

/* ---- modifiers ---- */

/* perf's rule for u/k/h (and G/H): the first one named excludes all the
 * others, each one named re-includes itself. */
static void include_priv(struct perf_event_attr *a, char c)
{
	if (!a->exclude_user && !a->exclude_kernel && !a->exclude_hv)
		a->exclude_user = a->exclude_kernel = a->exclude_hv = 1;
	if (c == 'u')
		a->exclude_user = 0;
	else if (c == 'k')
		a->exclude_kernel = 0;
	else
		a->exclude_hv = 0;
}

/* exclude_guest may already be set by default, so "first one named"
 * is kept in PMU__EV_GUEST_DEFAULT rather than read from the attr. */
static void include_virt(struct pmu__ev *d, char c)
{
	struct perf_event_attr *a = &d->attr;

	if (d->flags & PMU__EV_GUEST_DEFAULT)
		a->exclude_guest = a->exclude_host = 1;
	d->flags &= ~PMU__EV_GUEST_DEFAULT;
	if (c == 'G')
		a->exclude_guest = 0;
	else
		a->exclude_host = 0;
}

static int apply_flag(struct pmu__ev *d, char c)
{
	switch (c) {
	case 'u': case 'k': case 'h':
		include_priv(&d->attr, c);
		/* perf's rule: user-only counts leave out guests unless
		 * :G or :H said otherwise; :k and :h do not */
		if (c == 'u' && (d->flags & PMU__EV_GUEST_DEFAULT))
			d->attr.exclude_guest = 1;
		return 0;
	case 'G': case 'H':
		include_virt(d, c);
		return 0;
	case 'P':
		/* the most precise level the PMU takes, when sampling
		 * (pmu__ev_sampling); counting asks for none, as perf
		 * stat does */
		d->flags |= PMU__EV_PRECISE_MAX;
		return 0;
	case 'b':
		/* perf's "count with BPF": the same count, read without
		 * BPF here */
		return 0;
	case 'S':
		d->flags |= PMU__EV_SAMPLE_READ;
		return 0;
	case 'D':
		d->attr.pinned = 1;
		return 0;
	case 'I':
		d->attr.exclude_idle = 1;
		return 0;
	case 'e':
		d->attr.exclusive = 1;
		return 0;
	case 'W':
		/* a weak group: counted apart if it cannot be as a whole */
		d->flags |= PMU__EV_WEAK;
		return 0;
	default:
		return -EINVAL;
	}
}

/* Apply mods[0..len) to d; `tok` is the whole event token for messages. */
int pmu__evl_apply_mods(struct parser *p, struct pmu__ev *d,
		      const char *mods, size_t len, const char *tok,
		      size_t off)
{
	unsigned np = 0;
	char seen[sizeof(MODS_HELP)] = "";

	if (len == 0)
		return pmu__evl_fail(p, -EINVAL, PMU_ERR_SYNTAX, tok, strlen(tok), off,
				     "missing modifier after ':' in '%s'", tok);
	for (size_t i = 0; i < len; i++) {
		/* like perf: each modifier once, but p up to three times */
		if (mods[i] != 'p' && strchr(MODS_HELP, mods[i]) &&
		    strchr(seen, mods[i]))
			return pmu__evl_fail(p, -EINVAL, PMU_ERR_REPEATED, tok,
					     strlen(tok), off, "modifier '%c' given "
					     "twice in '%s' (each one at most once)",
					     mods[i], tok);
		if (mods[i] != 'p')
			seen[strlen(seen)] = mods[i];
		if (mods[i] == 'p') {
			if (++np > 3)
				return pmu__evl_fail(p, -EINVAL, PMU_ERR_BAD_MODIFIER,
						     tok, strlen(tok), off,
						     "too many 'p' modifiers in '%s' (at most ppp)",
						     tok);
		} else if (apply_flag(d, mods[i])) {
			return pmu__evl_fail(p, -EINVAL, PMU_ERR_BAD_MODIFIER, tok,
					     strlen(tok), off,
					     "unknown modifier '%c' in '%s' (valid: "
					     MODS_HELP ")", mods[i], tok);
		}
	}
	if (np && !(d->flags & PMU__EV_PRECISE_MAX))
		d->attr.precise_ip = np;
	/* precise sampling of the host alone, as perf asks for it */
	if (np && (d->flags & PMU__EV_GUEST_DEFAULT))
		d->attr.exclude_guest = 1;
	return 0;
}

bool pmu__evl_mods_valid(const char *mods)
{
	struct parser quiet = { .str = "" };
	struct pmu__ev d = { .scale = 1.0 };

	return pmu__evl_apply_mods(&quiet, &d, mods, strlen(mods), mods, 0) == 0;
}

/* ---- numbers ---- */

unsigned pmu__evl_hexval(char c)
{
	return isdigit((unsigned char)c) ? (unsigned)(c - '0')
					 : (unsigned)(tolower((unsigned char)c) - 'a' + 10);
}

/* Decimal or 0x-hex, the whole string, no wrap-around. */
int pmu__evl_parse_u64(const char *s, uint64_t *v)
{
	unsigned base = 10;
	uint64_t x = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		unsigned dgt;

		if (!(base == 16 ? isxdigit((unsigned char)*s)
				 : isdigit((unsigned char)*s)))
			return -EINVAL;
		dgt = pmu__evl_hexval(*s);
		if (x > (UINT64_MAX - dgt) / base)
			return -ERANGE;
		x = x * base + dgt;
	}
	*v = x;
	return 0;
}
