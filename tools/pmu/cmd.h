/* SPDX-License-Identifier: MIT */
#ifndef PMU_TOOL_CMD_H
#define PMU_TOOL_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* Exit codes shared by every subcommand. */
enum {
	EXIT_PMU_INPUT = 1,  /* pmu's own input was wrong (event, file, pid) */
	EXIT_PMU_USAGE = 2,  /* bad option or option value */
};

struct pmu_cmd {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

/* Each subcommand lives in its own file. */
int cmd_stat(int argc, char **argv);
int cmd_encode(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_assign(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_serve(int argc, char **argv);

/* -v: the library's information and debugging messages are printed
 * too (its warnings always are). */
extern bool pmu_tool_verbose;

/* How pmu was started (argv[0]). */
extern const char *pmu_tool_self;

/* Print "pmu: <message>" to stderr. */
void pmu_tool_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Check a vendor event directory (--events-dir) and make the library
 * use it ($PMU_EVENTS_DIR); 0 or an exit code after a message. */
int pmu_tool_events_dir(const char *dir);

/* Which catalog model names without "pmu::" resolve to on this host, and
 * why (detected, $PMU_EVENTS_MODEL, or no catalog for this CPU), as one
 * sentence for diagnostics; returns false when no CPU catalog matched. */
bool pmu_tool_host_note(char *buf, size_t sz);
/* pmu list's PATTERN: a case-insensitive glob or substring of name. */
bool pmu_tool_list_match(const char *pat, const char *name);
/* pmu list without --model, in perf list's sections: 1 when something
 * matched PATTERN (NULL: everything), with --long (lng) a tracepoint's
 * fields; MODEL and VENDOR are catalog
 * models whose events follow (or -1). */
int pmu_tool_list_perf(const char *pattern, bool json, bool lng,
		       ssize_t model, ssize_t vendor);

/* A short description of an event as a session names it (a generic,
 * software or tool event, or an event of this machine's catalog
 * model), or NULL. */
const char *pmu_tool_event_desc(const char *name);

/* A comma list of process or thread ids (opt: the option, for the
 * message) added to *ids: 0, or an exit status after saying which
 * token is not an id. */
int pmu_tool_parse_ids(const char *opt, const char *arg, pid_t **ids,
		       size_t *n);

/* A whole file of at most `max` bytes ("-": standard input),
 * NUL-terminated; NULL with errno (EFBIG when larger). */
char *pmu_tool_slurp(const char *path, size_t max, size_t *len);

/* An export's output file, written whole or not at all (outfile.c). */
struct pmu_outfile {
	FILE *f;
	char *path;             /* where it goes (a link's target) */
	char *tmp;              /* the temporary file, NULL: written in place */
};
/* Open `path` for an export of the files `inputs` (none of which it may
 * be): 0, or an exit status after saying why. */
int pmu_tool_outfile_open(struct pmu_outfile *o, const char *path,
			  const char *const *inputs, size_t ninputs);
/* Close it: keep = true puts it in place (0, or an exit status after a
 * write error, saying so); false drops it, leaving what was there. */
int pmu_tool_outfile_close(struct pmu_outfile *o, bool keep);

/* Write s as a JSON string literal (NULL as ""). */
void pmu_tool_json_str(FILE *f, const char *s);

/* "  name     description" lines of the simulated models. */
void pmu_tool_list_models(FILE *f);

#endif
