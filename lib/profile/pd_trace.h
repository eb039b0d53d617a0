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
	unsigned count;      /* elements of an array (NAME[N]); 0: none */
	bool is_signed;
	bool str;            /* char array, or a __data_loc char[] */
	bool dyn;            /* __data_loc: a u32 (length << 16 | offset) */
	bool ptr;
	bool common;         /* common_type, common_pid...: not printed */
};

struct pd_fmt;

struct pd_tp {
	uint64_t id;
	char *sys, *name;
	char *fmt;           /* the print fmt line, after "print fmt: " */
	struct pd_fmt *pfmt;        /* the print fmt, compiled; NULL: printed
				     * by field */
	struct pd_tp_field *field;
	size_t nfield;
};

/* A kernel string a record may point to (printk formats). */
struct pd_kstr {
	uint64_t addr;
	char *s;
};

struct pd_trace {
	struct pd_tp *tp;
	size_t ntp;
	struct pd_kstr *kstr;   /* by address */
	size_t nkstr;
};

/* Read a TRACING_DATA feature (perf's layout); 0, -EINVAL when it is
 * not one, -EOPNOTSUPP for a big-endian machine's. */
int pmu__pd_trace_parse(struct pd_trace *t, const void *data, size_t len);
const struct pd_tp *pmu__pd_trace_find(const struct pd_trace *t, uint64_t id);
void pmu__pd_trace_free(struct pd_trace *t);

/* What a record's kernel addresses name: for %pS and %ps, the function
 * holding addr (NULL: none) and addr's offset in it; for a %s given an
 * address, the recording's kernel strings (trace may be NULL). */
struct pd_tp_syms {
	const char *(*name)(void *ctx, uint64_t addr, uint64_t *off);
	void *ctx;
	const struct pd_trace *trace;
};

/* Whether field f lies within a record of `size` bytes. */
bool pmu__pd_field_in(const struct pd_tp_field *f, size_t size);

/* String field f of a record (an array in it, or __data_loc: a u32 of
 * length << 16 | offset pointing into it): its bytes *s, *n of them up
 * to its NUL; 0, or -1 when the record does not hold them. */
int pmu__pd_field_str(const struct pd_tp_field *f, const unsigned char *raw,
		      size_t size, const unsigned char **s, size_t *n);

/* A number of `size` bytes at p (little-endian; the first 8 of a wider
 * one), sign-extended when it is signed. */
uint64_t pmu__pd_trace_num(const unsigned char *p, unsigned size,
			   bool is_signed);

/* The kernel string at addr in t's printk formats, or NULL. */
const char *pmu__pd_trace_kstr(const struct pd_trace *t, uint64_t addr);

/* A record's text: by its print fmt, as perf prints it, else its fields
 * as name=value.  ks may be NULL: functions are printed as addresses. */
void pmu__pd_trace_print(FILE *o, const struct pd_tp *tp, const void *raw,
			 size_t size, const struct pd_tp_syms *ks);

/* pd_trace_fmt.c: a print fmt compiled (NULL: one with a helper or a
 * conversion not run), run on a record (0; -1 when it cannot be: the
 * record is too short for a field, or a string is used as a number),
 * freed. */
struct pd_fmt *pmu__pd_fmt_compile(const struct pd_tp *tp);
int pmu__pd_fmt_print(FILE *o, const struct pd_tp *tp, const struct pd_fmt *f,
		      const void *raw, size_t size, const struct pd_tp_syms *ks);
void pmu__pd_fmt_free(struct pd_fmt *f);

#endif
