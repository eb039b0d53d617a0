/* SPDX-License-Identifier: MIT */
/*
 * Option structs from callers built against other releases: a newer
 * caller's larger struct is accepted while the fields this library does
 * not know are zero, and refused (naming the struct) when one is set; a
 * size that does not even cover `sz` is refused.  The same rule for
 * every call that takes options.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <pmu/pmu.h>

/* A newer release's struct: ours plus a field we do not know. */
#define NEWER(type) struct { struct type o; uint64_t later; }

enum which { SESSION, OPEN, ENCODE, ASSIGN, IBS };

/* Call the API that takes options of kind w with opts at p (size sz). */
static int call(enum which w, void *p, struct pmu_error *err)
{
	struct pmu_session *s = NULL;
	int rc = 0;

	switch (w) {
	case SESSION:
		s = pmu_session_new_opts(p, err);
		rc = s ? 0 : -errno;
		break;
	case OPEN:
		s = pmu_session_new(NULL);
		assert_int_equal(pmu_session_add(s, "task-clock", NULL), 0);
		rc = pmu_session_open(s, p, err);
		break;
	case ENCODE: {
		struct pmu_encoding e = { .size = sizeof(e) };
		rc = pmu_event_encode("zen4::RETIRED_OPS", p, &e, err);
		break;
	}
	case ASSIGN: {
		static const char *const ev[] = { "RETIRED_OPS" };
		struct pmu_assignment a = { .size = sizeof(a) };
		rc = pmu_assign(ev, 1, p, &a, err);
		break;
	}
	case IBS: {
		struct pmu_ibs_config c = { .size = sizeof(c) };
		rc = pmu_ibs_setup(PMU_IBS_OP, 0x1000, 0, p, &c, err);
		break;
	}
	}
	pmu_session_free(s);
	return rc;
}

static void test_sizes(void **state)
{
	NEWER(pmu_session_opts) so = { { .sz = sizeof(so) }, 0 };
	NEWER(pmu_open_opts) oo = { { .sz = sizeof(oo) }, 0 };
	NEWER(pmu_encode_opts) eo = { { .sz = sizeof(eo), .model = "zen4" }, 0 };
	NEWER(pmu_assign_opts) ao = { { .sz = sizeof(ao), .model = "zen4" }, 0 };
	NEWER(pmu_ibs_opts) io = { { .sz = sizeof(io), .model = "zen4" }, 0 };
	static const char *const names[] = {
		"pmu_session_opts", "pmu_open_opts", "pmu_encode_opts",
		"pmu_assign_opts", "pmu_ibs_opts",
	};
	struct { enum which w; void *p; size_t *sz; uint64_t *later; } rows[] = {
		{ SESSION, &so, &so.o.sz, &so.later },
		{ OPEN, &oo, &oo.o.sz, &oo.later },
		{ ENCODE, &eo, &eo.o.sz, &eo.later },
		{ ASSIGN, &ao, &ao.o.sz, &ao.later },
		{ IBS, &io, &io.o.sz, &io.later },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmu_error err = { .size = sizeof(err) };
		size_t full = *rows[i].sz;

		/* unknown trailing bytes zero: fine */
		if (call(rows[i].w, rows[i].p, &err))
			fail_msg("%s: newer struct, zero tail: %s", names[i],
				 err.message);
		/* set: refused, naming the struct */
		*rows[i].later = 1;
		if (call(rows[i].w, rows[i].p, &err) != -EINVAL ||
		    !strstr(err.message, names[i]))
			fail_msg("%s: newer struct, set tail: '%s'", names[i],
				 err.message);
		*rows[i].later = 0;
		/* not even sz itself */
		*rows[i].sz = 4;
		if (call(rows[i].w, rows[i].p, &err) != -EINVAL ||
		    !strstr(err.message, "sz"))
			fail_msg("%s: sz 4: '%s'", names[i], err.message);
		*rows[i].sz = full;
	}
}

/*
 * A newer release may add a field in the tail padding of a struct, after
 * its last field: sizeof stays the same, so the check must run against
 * the end of the last field (TYPE__last_field), not against sizeof.
 */
#define OFFSETOFEND(type, f) \
	(offsetof(struct type, f) + sizeof(((struct type *)0)->f))
#define END_(type, f) OFFSETOFEND(type, f)
#define END(type) END_(type, type##__last_field)
#define ROW(w, type) { w, #type, sizeof(struct type), END(type), 0 }
#define ROWM(w, type) { w, #type, sizeof(struct type), END(type), \
			offsetof(struct type, model) }

static void test_padding(void **state)
{
	static const struct {
		enum which w;
		const char *name;
		size_t size, end, model; /* model: where .model is, or 0 */
	} rows[] = {
		ROW(SESSION, pmu_session_opts), ROW(OPEN, pmu_open_opts),
		ROWM(ENCODE, pmu_encode_opts), ROWM(ASSIGN, pmu_assign_opts),
		ROWM(IBS, pmu_ibs_opts),
	};
	size_t padded = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		_Alignas(16) unsigned char buf[256] = { 0 };
		struct pmu_error err = { .size = sizeof(err) };
		size_t sz = rows[i].size;

		/* TYPE__last_field names the last field: what follows it is
		   padding, less than the struct's alignment */
		assert_true(rows[i].end <= sz && sz - rows[i].end < 8);
		assert_true(sz <= sizeof(buf));
		memcpy(buf, &sz, sizeof(sz));
		if (rows[i].model)
			memcpy(buf + rows[i].model, &(const char *){ "zen4" },
			       sizeof(char *));
		if (call(rows[i].w, buf, &err))
			fail_msg("%s: zero padding: %s", rows[i].name,
				 err.message);
		if (rows[i].end == sz)
			continue;
		padded++;
		buf[rows[i].end] = 1;
		if (call(rows[i].w, buf, &err) != -EINVAL ||
		    !strstr(err.message, rows[i].name))
			fail_msg("%s: a byte set after the last field was "
				 "accepted: '%s'", rows[i].name, err.message);
	}
	/* the case this test exists for is there (pmu_open_opts ends in
	   bools) */
	assert_true(END(pmu_open_opts) < sizeof(struct pmu_open_opts));
	assert_true(padded >= 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_padding),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
