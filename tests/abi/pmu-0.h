/* SPDX-License-Identifier: MIT */
/*
 * What a program built against an older libpmu saw: the same calls,
 * but every struct the library fills (or reads) one or more trailing
 * fields shorter, as it was before those fields were added.  The ABI
 * test includes this instead of <pmu/pmu.h> and runs against the
 * current library: nothing may be written past these sizes, and the
 * options the old structs lack take their defaults.
 */
#ifndef PMU_0_H
#define PMU_0_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct pmu_session;
struct pmu_hwmodel;
struct pmu_control;
struct pmu_sim;
struct pmu_simple;

enum pmu_error_kind { PMU_ERR_NONE = 0, PMU_ERR_SYNTAX,
		      PMU_ERR_UNKNOWN_EVENT };

struct pmu_error {              /* a shorter message */
	size_t size;
	int code;
	enum pmu_error_kind kind;
	int offset;
	int index;
	char token[64];
	char message[96];
};

struct pmu_value {              /* before status, err */
	size_t size;
	uint64_t raw, enabled, running, scaled;
};

struct pmu_open_opts {          /* before no_mmap_read, pids, npids */
	size_t sz;
	int target;
	pid_t pid;
	const char *cpus;
	bool inherit;
};

struct pmu_encode_opts {        /* before events_dir, flags */
	size_t sz;
	const char *model;
	unsigned dfl_plm;
};

struct pmu_encoding {           /* before cntmsk */
	size_t size;
	char pmu[32];
	char event[64];
	int ncodes;
	uint64_t codes[4];
	char fstr[512];
	char perf_fstr[512];
	bool has_perf;
	struct { uint32_t type; uint64_t config, config1, config2;
		 uint8_t x[6]; } perf;
	enum pmu_error_kind error;
};

struct pmu_catalog_info {       /* before is_host */
	size_t size;
	const char *name, *desc;
	const char *const *aliases;
	size_t nevents, nmodifiers, ncounters, nfixed;
};

struct pmu_event_info {         /* before precise */
	size_t size;
	const char *name, *desc;
	uint64_t code, code2, cntmsk;
	size_t nattrs, numasks;
};

struct pmu_hwmodel_info {       /* before npmcs, npmds */
	size_t size;
	const char *name, *desc, *arch, *pmu_name;
	unsigned cpu_type, features, nr_ctrs, ctr_width, emul_width;
	const char *tsc;
};

struct pmu_check_result {       /* before cstatus */
	size_t size;
	bool ok;
	int code;
	char rule[48];
	int counter;
	char field[32];
	uint32_t value;
	char message[160];
};

struct pmu_host_info {          /* before ncpus_online */
	size_t size;
	int paranoid;
	bool has_hw_pmu, virtualized, privileged;
};

struct pmu_simple_results {     /* before pmn1_of, pmn1 */
	size_t size;
	uint32_t ccnt_of, ccnt, pmn0_of, pmn0;
};

struct pmu_session *pmu_session_new(struct pmu_error *err);
void pmu_session_free(struct pmu_session *s);
int pmu_session_add(struct pmu_session *s, const char *events,
		    struct pmu_error *err);
int pmu_session_open(struct pmu_session *s, const struct pmu_open_opts *o,
		     struct pmu_error *err);
int pmu_session_start(struct pmu_session *s);
int pmu_session_stop(struct pmu_session *s);
ssize_t pmu_session_read(struct pmu_session *s, struct pmu_value *vals,
			 size_t n);
int pmu_event_encode(const char *str, const struct pmu_encode_opts *opts,
		     struct pmu_encoding *out, struct pmu_error *err);
ssize_t pmu_catalog_find(const char *name);
int pmu_catalog_info(size_t model, struct pmu_catalog_info *info);
int pmu_catalog_event_info(size_t model, size_t event,
			   struct pmu_event_info *info);
const struct pmu_hwmodel *pmu_hwmodel_find(const char *name);
int pmu_hwmodel_info(const struct pmu_hwmodel *m,
		     struct pmu_hwmodel_info *info);
struct pmu_control *pmu_control_parse(const char *text, size_t len,
				      struct pmu_error *err);
void pmu_control_free(struct pmu_control *c);
int pmu_control_check(const struct pmu_hwmodel *m,
		      const struct pmu_control *c,
		      struct pmu_check_result *res);
int pmu_host_info(struct pmu_host_info *info);
struct pmu_simple *pmu_simple_open(const char *device,
				   struct pmu_error *err);
void pmu_simple_close(struct pmu_simple *dev);
int pmu_simple_claim(struct pmu_simple *dev);
int pmu_simple_start(struct pmu_simple *dev, uint32_t pmn0, uint32_t pmn1);
int pmu_simple_stop(struct pmu_simple *dev, struct pmu_simple_results *r);
int pmu_simple_event(struct pmu_simple *dev, uint32_t event, uint64_t n);

#endif
