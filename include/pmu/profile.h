/* SPDX-License-Identifier: MIT */
#ifndef PMU_PROFILE_H
#define PMU_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <pmu/error.h>
#include <pmu/session.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Sampling profiles in perf's perf.data format.
 *
 * Reading: open a file (written by pmu or by perf record, in either
 * byte order), then iterate its samples in time order, each with its
 * call chain resolved to frames (symbol, DSO, source line, inlined
 * functions) from the ELF and DWARF of the files the profiled program
 * mapped:
 *
 *	struct pmu_profile *p = pmu_profile_open("perf.data", NULL, &err);
 *	struct pmu_sample s = { .size = sizeof(s) };
 *	struct pmu_frame fr = { .size = sizeof(fr) };
 *	while (pmu_profile_next(p, &s) > 0)
 *		for (size_t i = 0; i < s.nframes; i++) {
 *			pmu_profile_frame(p, i, &fr);
 *			printf("%s %s\n", fr.sym, fr.dso);
 *		}
 *	pmu_profile_close(p);
 *
 * Recording: pmu_record_open() opens sampling events on a target and
 * creates the file; pmu_record_poll() moves what the kernel wrote into
 * it; pmu_record_finish() completes it.
 */
struct pmu_profile;

struct pmu_profile_opts {
	size_t sz;              /* sizeof(struct pmu_profile_opts) */
	bool no_lines;          /* skip DWARF: no source lines, no inlined
				   frames (faster) */
	bool no_inline;         /* source lines, but one frame per address */
	unsigned max_stack;     /* addresses of a call chain kept, from the
				   sample's own: 0 for this machine's
				   kernel.perf_event_max_stack (127 where
				   it cannot be read), as perf report's */
};
#define pmu_profile_opts__last_field max_stack

/* NULL with errno and *err naming the file and the bad field. */
PMU_API struct pmu_profile *pmu_profile_open(const char *path,
					     const struct pmu_profile_opts *opts,
					     struct pmu_error *err);
PMU_API void pmu_profile_close(struct pmu_profile *p);

/* What the file says about itself. */
struct pmu_profile_info {
	size_t size;
	size_t nevents;          /* event descriptions (attrs) */
	uint64_t nsamples;       /* SAMPLE records */
	uint64_t lost;           /* samples the kernel dropped (LOST) */
	uint64_t nlost_records;
	uint64_t total_period;   /* sum of every sample's period */
	bool foreign_endian;     /* written on a machine of the other byte
				    order */
	bool truncated;          /* data section cut short: what is there
				    is read */
	bool corrupt;            /* a record made no sense; reading
				    stopped there */
	uint64_t unknown_records;  /* records of types pmu skips */
	unsigned unknown_features; /* header features pmu skips */
	const char *hostname, *os_release, *arch, *cpu_desc, *cmdline,
		*version;        /* header features ("" when absent) */
	uint64_t first_time, last_time; /* ns, of the first and last sample */
	bool callchains;         /* samples carry call chains */
};

PMU_API int pmu_profile_info(struct pmu_profile *p,
			     struct pmu_profile_info *info);

/* Name of event i ("cpu-clock", "cycles:u"), or NULL past the end. */
PMU_API const char *pmu_profile_event_name(const struct pmu_profile *p,
					   size_t i);

struct pmu_sample {
	size_t size;
	size_t event;            /* index for pmu_profile_event_name */
	uint32_t pid, tid, cpu;  /* cpu: (uint32_t)-1 when not recorded */
	uint64_t time;           /* ns, perf's clock */
	uint64_t period;         /* events (or ns) this sample stands for */
	uint64_t ip;
	const char *comm;        /* the thread's command name */
	bool kernel;             /* ip in the kernel */
	size_t nframes;          /* frames[0] is the leaf (the ip, its
				    innermost inlined function first) */
};

/*
 * The next sample in time order: 1 and *s filled, 0 at the end, or a
 * negative errno.  Records other than samples (COMM, MMAP, FORK...)
 * update what later samples resolve to on the way.
 */
PMU_API int pmu_profile_next(struct pmu_profile *p, struct pmu_sample *s);

enum pmu_frame_kind {
	PMU_FRAME_USER = 0,
	PMU_FRAME_KERNEL,
	PMU_FRAME_INLINED,       /* code of an inlined function: ip is the
				    address of the frame it was inlined in */
};

struct pmu_frame {
	size_t size;
	uint64_t ip;             /* address in the process (or kernel) */
	uint64_t addr;           /* the same in the file's own addresses */
	const char *sym;         /* function; NULL when unknown */
	uint64_t sym_off;        /* addr - the symbol's start */
	const char *dso;         /* file path, "[kernel.kallsyms]",
				    "[vdso]", "[unknown]" */
	const char *dso_short;   /* its last path component */
	const char *srcfile;     /* source file, NULL without debug info */
	unsigned line;
	enum pmu_frame_kind kind;
};

/* Frame i (0 = leaf) of the sample pmu_profile_next() returned last;
 * strings stay valid until pmu_profile_close(). */
PMU_API int pmu_profile_frame(struct pmu_profile *p, size_t i,
			      struct pmu_frame *f);

/* DSO i of those the samples read so far fell in: its path and, when
 * its symbols could not be read, why (NULL when they could).  0, or
 * -ENOENT past the last. */
PMU_API int pmu_profile_dso(struct pmu_profile *p, size_t i,
			    const char **path, const char **problem);

/* Start again from the first sample. */
PMU_API int pmu_profile_rewind(struct pmu_profile *p);

/* ---- reports and exports ---- */

enum pmu_report_format {
	PMU_REPORT_STDIO = 0,    /* perf report --stdio style text */
	PMU_REPORT_JSON,         /* the same rows as JSON */
	PMU_REPORT_FOLDED,       /* "comm;caller;...;leaf period" lines */
	PMU_REPORT_SVG,          /* an interactive flame graph */
	PMU_REPORT_PPROF,        /* pprof's profile.proto, gzipped */
	PMU_REPORT_FIREFOX,      /* the Firefox Profiler's format */
	PMU_REPORT_SCRIPT,       /* perf script style, one sample a line */
};

/* What a report format is, for a program choosing one. */
struct pmu_report_format_info {
	size_t size;             /* sizeof(struct pmu_report_format_info) */
	const char *name;        /* "stdio", "json", "folded", "svg",
				    "pprof", "firefox", "script" */
	bool binary;             /* not text: a file, not a terminal */
	bool diff;               /* can compare two profiles (base) */
	bool frames;             /* shows every frame, inlined ones and
				    their source lines included, unless
				    told not to (exports to other tools) */
};

/* Describe format fmt (set info->size; filled up to it): 0, or -EINVAL
 * for a format there is not. */
PMU_API int pmu_report_format_info(enum pmu_report_format fmt,
				   struct pmu_report_format_info *info);

enum pmu_callgraph_order {
	PMU_CALLGRAPH_NONE = 0,  /* no call graph below the rows */
	PMU_CALLGRAPH_CALLER,    /* from the root down to the sample */
	PMU_CALLGRAPH_CALLEE,    /* from the sample up to the root */
};

struct pmu_report_opts {
	size_t sz;               /* sizeof(struct pmu_report_opts) */
	const char *sort;        /* "comm,dso,sym" (default), any of comm,
				    pid, tid, dso, sym, srcline, event */
	bool children;           /* rows also count time in callees */
	enum pmu_callgraph_order callgraph;
	double percent_limit;    /* hide rows below this % */
	const char *comm;        /* only samples of these commands (,-list) */
	const char *dso;         /* ... of these DSOs (short names) */
	pid_t tid;               /* ... of this thread (0: all) */
	const char *fields;      /* SCRIPT: "comm,tid,time,event,ip,sym,dso" */
	const char *title;       /* SVG: title line */
	bool no_kernel;          /* leave kernel frames out of stacks */
	double callgraph_limit;  /* STDIO: draw call-graph branches of at
				    least this % of the total (perf's -g
				    graph,LIMIT); 0: perf's 0.5; below 0:
				    every branch */
};
#define pmu_report_opts__last_field callgraph_limit

/*
 * Write a report of profile `p` to `out` in `fmt`.  `base`, when not
 * NULL, makes it differential: STDIO and JSON show each row's share in
 * both and the change, FOLDED and SVG colour frames by the change from
 * base to p.  Returns 0 or a negative errno with *err filled (a bad
 * sort key or field names the token).
 */
PMU_API int pmu_report_write(struct pmu_profile *p, struct pmu_profile *base,
			     enum pmu_report_format fmt, FILE *out,
			     const struct pmu_report_opts *opts,
			     struct pmu_error *err);

/* ---- recording ---- */

enum pmu_callgraph_mode {
	PMU_CALLGRAPH_MODE_NONE = 0,
	PMU_CALLGRAPH_MODE_FP,   /* frame pointers, walked by the kernel */
	PMU_CALLGRAPH_MODE_DWARF, /* user registers and a copy of the
				     stack, unwound later with DWARF CFI */
};

struct pmu_record_opts {
	size_t sz;               /* sizeof(struct pmu_record_opts) */
	const char *events;      /* NULL: cpu-clock (no hardware PMU) or
				    cycles */
	uint64_t freq;           /* samples per second (default 4000;
				    PMU_RECORD_FREQ_MAX: the kernel's
				    limit; above the limit: lowered to it
				    with a warning, as perf does) */
	uint64_t period;         /* or every `period` events (overrides) */
	enum pmu_callgraph_mode callgraph;
	uint32_t stack_size;     /* DWARF: bytes of stack per sample (8192) */
	enum pmu_target_kind target; /* CHILD, PID, TID or CPUS */
	const pid_t *pids;
	size_t npids;
	const char *cpus;        /* CPUS: list (NULL: all) */
	size_t mmap_pages;       /* data pages per ring (power of 2; 0: 128) */
	int argc;                /* the command line stored in the file */
	char *const *argv;
	bool no_inherit;         /* do not follow new children/threads */
	/* The command under pmu's emulator (docs/emulation.md): samples
	 * are the emulated model's i-mode overflows, at the exact
	 * instruction, with its registers and data address, every
	 * `period` events (default 100003); no freq, no call chains;
	 * target CHILD; the child execs pmu_record_command(). */
	bool emulate;
	const char *emu_model;   /* the model (NULL: fam10h) */
	const char *emu;         /* settings "KEY=VALUE ..." (pmu-stat(1)) */
	char *const *command;    /* the command to run under the emulator */
	bool strict_freq;        /* a freq above the kernel's limit is an
				    error instead (perf's --strict-freq) */
};
#define pmu_record_opts__last_field strict_freq

#define PMU_RECORD_FREQ_MAX UINT64_MAX

struct pmu_record;

/* Open events and create `path`.  CHILD: the child must be stopped
 * before its exec (sampling starts at exec). */
PMU_API struct pmu_record *pmu_record_open(const char *path,
					   const struct pmu_record_opts *opts,
					   struct pmu_error *err);

/* With emulate: the command line the child must exec (the command
 * under the emulator), valid until pmu_record_free(); else NULL. */
PMU_API char *const *pmu_record_command(const struct pmu_record *r);

/* Wait up to timeout_ms (-1: forever) for data and write what there is.
 * Returns 0 or a negative errno (EINTR when a signal came). */
PMU_API int pmu_record_poll(struct pmu_record *r, int timeout_ms);

struct pmu_record_stats {
	size_t size;
	uint64_t samples;        /* SAMPLE records written */
	uint64_t lost;           /* samples the kernel dropped */
	uint64_t bytes;          /* file size */
	uint64_t wakeups;        /* rounds that found data */
};

/* Drain, add build-ids and the header's features, close the file. */
PMU_API int pmu_record_finish(struct pmu_record *r,
			      struct pmu_record_stats *st,
			      struct pmu_error *err);

/* Start a new output file (--switch-output): the current one is
 * finished as `done_path` and recording goes on into the original
 * path.  Returns 0 or a negative errno; -EEXIST when done_path exists
 * (nothing is replaced, nothing lost: call again with another name). */
PMU_API int pmu_record_switch(struct pmu_record *r, const char *done_path,
			      struct pmu_error *err);

/* Close the events; an unfinished file is removed.  NULL ok. */
PMU_API void pmu_record_free(struct pmu_record *r);

#ifdef __cplusplus
}
#endif
#endif
