/* SPDX-License-Identifier: MIT */
#ifndef PMU_PROFILE_PD_TRACE_H
#define PMU_PROFILE_PD_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A field of a tracepoint's record, from its tracefs format. */
struct pd_tp_field {
	char *name;
	unsigned offset, size;
	bool is_signed;
	bool str;            /* char array, or a __data_loc char[] */
	bool dyn;            /* __data_loc: a u32 (length << 16 | offset) */
	bool ptr;
	bool common;         /* common_type, common_pid...: not printed */
};

/* A plain print fmt, made once: text, then a field's value by `conv`
 * (s d i u x X p c; 0 for the text after the last conversion). */
struct pd_tp_piece {
	char *text;
	size_t ntext;
	size_t field;
	char conv;
};

struct pd_tp {
	uint64_t id;
	char *sys, *name;
	char *fmt;           /* the print fmt line, after "print fmt: " */
	struct pd_tp_piece *plan;   /* NULL: not plain, printed by field */
	size_t nplan;
	struct pd_tp_field *field;
	size_t nfield;
};

struct pd_trace {
	struct pd_tp *tp;
	size_t ntp;
};

/* Read a TRACING_DATA feature (perf's layout); 0, -EINVAL when it is
 * not one, -EOPNOTSUPP for a big-endian machine's. */
int pmu__pd_trace_parse(struct pd_trace *t, const void *data, size_t len);
const struct pd_tp *pmu__pd_trace_find(const struct pd_trace *t, uint64_t id);
void pmu__pd_trace_free(struct pd_trace *t);

/* A record's text: its print fmt where that is plain, as perf prints
 * it, else its fields as name=value. */
void pmu__pd_trace_print(FILE *o, const struct pd_tp *tp, const void *raw,
		    size_t size);

#endif
