/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for tracefs format files, as perf.data's TRACING_DATA
 * carries them (what pmu record copies from tracefs and pmu script
 * reads back): the input up to its first NUL byte is one event's format
 * file (name, ID, field lines, print fmt), the rest a raw record of that
 * event.  The format goes inside a tracing-data section built around it
 * and parsed, the record's bytes also serving as the section's printk
 * formats; the record is printed through the parsed format (its print
 * fmt, else its fields).  Whatever the text
 * and the record hold, parsing succeeds or fails cleanly, printing reads
 * nothing past the record (a copy of exactly its size, which the
 * sanitizers guard), the record's bytes never start a line of their
 * own, and nothing leaks.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/pd_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t put(unsigned char *b, size_t at, const void *p, size_t n)
{
	memcpy(b + at, p, n);
	return at + n;
}

static size_t count_nl(const char *s, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += s[i] == '\n';
	return k;
}

/* Backslash-n pairs in the format text: the most newlines it may print. */
static size_t escapes(const uint8_t *s, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i + 1 < n; i++)
		if (s[i] == '\\') {
			k += s[i + 1] == 'n';
			i++;
		}
	return k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned char magic[10] = { 23, 8, 68, 't', 'r', 'a',
						 'c', 'i', 'n', 'g' };
	const uint8_t *nul = memchr(data, 0, size);
	size_t flen = nul ? (size_t)(nul - data) : size;
	const uint8_t *raw = nul ? nul + 1 : data + size;
	size_t rlen = (size_t)(data + size - raw);
	unsigned char *b = malloc(flen + rlen + 128);
	struct pd_trace t = { 0 };
	uint64_t zero8 = 0, sz = flen;
	uint32_t zero4 = 0, one = 1, sz4;
	const struct pd_tp_syms ks = { NULL, NULL, &t };
	size_t at = 0;
	char *out = NULL;
	size_t outlen = 0;
	FILE *o;

	if (!b)
		return 0;
	at = put(b, at, magic, sizeof(magic));
	at = put(b, at, "0.6", 4);
	b[at++] = 0;                           /* little-endian */
	b[at++] = 8;                           /* long size */
	at = put(b, at, &zero4, 4);            /* page size */
	at = put(b, at, "header_page", 12);
	at = put(b, at, &zero8, 8);
	at = put(b, at, "header_event", 13);
	at = put(b, at, &zero8, 8);
	at = put(b, at, &zero4, 4);            /* no ftrace formats */
	at = put(b, at, &one, 4);              /* one system */
	at = put(b, at, "fz", 3);
	at = put(b, at, &one, 4);              /* one format */
	at = put(b, at, &sz, 8);
	at = put(b, at, data, flen);
	/* no kallsyms; the record's bytes again as printk formats (the
	 * kernel strings a %s of an address prints) */
	at = put(b, at, &zero4, 4);
	sz4 = (uint32_t)rlen;
	at = put(b, at, &sz4, 4);
	at = put(b, at, raw, rlen);
	if (pmu__pd_trace_parse(&t, b, at) == 0 && t.ntp) {
		/* the record printed, into a buffer read back whole */
		unsigned char *copy = malloc(rlen + 1);

		o = open_memstream(&out, &outlen);
		if (copy && o) {
			memcpy(copy, raw, rlen);
			pmu__pd_trace_print(o, &t.tp[0], copy, rlen, &ks);
			fclose(o);
			/* one record, one line: newlines come only from
			 * the print fmt's own \n escapes (as perf prints
			 * them), never from the record's bytes */
			if (count_nl(out, outlen) > escapes(data, flen))
				__builtin_trap();
		} else if (o) {
			fclose(o);
		}
		free(out);
		free(copy);
	}
	pmu__pd_trace_free(&t);
	free(b);
	return 0;
}
