/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <pmu/pmu.h>

#include "cmd.h"
#include "stat.h"

struct rec_cli {
	struct pmu_record_opts o;
	const char *out;
	char *events;
	pid_t *pids;
	size_t npids;
	bool switch_output, quiet;
	char **argv;
	struct emu_cli emu;      /* --emulate and its options */
};

enum {
	OPT_EMULATE = 0x100, OPT_EMULATE_MODEL, OPT_EMULATE_REGIONS,
	OPT_EMULATE_OPT, OPT_STRICT_FREQ,
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: pmu record [OPTIONS] [--] [COMMAND [ARGS...]]\n"
"\n"
"Sample a command (or processes, threads, CPUs) into a perf.data file\n"
"that perf report/script and pmu report/script read.\n"
"\n"
"  -e, --event LIST         events to sample (default: cycles, or\n"
"                           cpu-clock without a hardware PMU)\n"
"  -F, --freq HZ            samples per second (default 4000; max: the\n"
"                           kernel's limit, to which more is lowered)\n"
"      --strict-freq        a -F above the kernel's limit is an error\n"
"  -c, --count N            one sample every N events instead\n"
"  -g                       call chains by frame pointers\n"
"      --call-graph MODE    fp, or dwarf[,SIZE]: registers and SIZE bytes\n"
"                           of user stack (default 8192), unwound later\n"
"  -p, --pid PID[,PID...]   existing processes\n"
"  -t, --tid TID[,TID...]   existing threads\n"
"  -a, --all-cpus           every CPU (system-wide; with a command, while\n"
"                           it runs)\n"
"  -C, --cpu LIST           these CPUs (system-wide, the same)\n"
"  -o, --output FILE        output file (default perf.data; -: perf's pipe\n"
"                           format on standard output)\n"
"  -m, --mmap-pages N       ring buffer data pages per CPU (power of 2)\n"
"      --no-inherit         do not follow children and new threads\n"
"      --switch-output      on SIGUSR2, close the file as FILE.TIMESTAMP\n"
"                           (to the hundredth, never over another)\n"
"                           and go on in a new one\n"
"  -q, --quiet              no summary\n"
"      --emulate            run COMMAND under pmu's emulator: samples are the\n"
"                           emulated PMU's overflows, at the exact\n"
"                           instruction (default: instructions,\n"
"                           -c 100003; no -F, no -g)\n"
"      --emulate-model M    the model to emulate (default: the one closest\n"
"                           to this CPU, else fam10h; sampling needs p6,\n"
"                           pii, piii, pentm, k7, k8, k8c or fam10h)\n"
"      --emulate-regions    sample only between PMU_EMU_START/STOP\n"
"      --emulate-opt KEY=VAL emulator setting, as for pmu stat (caches,\n"
"                           predictor, costs, max-samples)\n"
"  -h, --help               this help\n"
"\n"
"Without a command, records until SIGINT (or until the processes exit).\n"
"Exit status: the command's own; 1 for bad input, 2 for bad usage.\n");
}

static int parse_u64(const char *arg, const char *opt, uint64_t *v)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = strtoull(arg, &end, 0);
	if (errno || *end || !x || arg[0] == '-') {
		pmu_tool_err("%s: '%s' is not a positive number", opt, arg);
		return EXIT_PMU_USAGE;
	}
	*v = x;
	return 0;
}

static int parse_callgraph(const char *arg, struct rec_cli *c)
{
	uint64_t size = 0;

	if (!strcmp(arg, "fp")) {
		c->o.callgraph = PMU_CALLGRAPH_MODE_FP;
		return 0;
	}
	if (strncmp(arg, "dwarf", 5) || (arg[5] && arg[5] != ',')) {
		pmu_tool_err("--call-graph: '%s' is not fp or dwarf[,SIZE]", arg);
		return EXIT_PMU_USAGE;
	}
	c->o.callgraph = PMU_CALLGRAPH_MODE_DWARF;
	if (arg[5] && parse_u64(arg + 6, "--call-graph", &size))
		return EXIT_PMU_USAGE;
	if (size > 65528) {
		pmu_tool_err("--call-graph: stack size %" PRIu64 " is more "
			     "than the kernel copies (65528)", size);
		return EXIT_PMU_USAGE;
	}
	c->o.stack_size = (uint32_t)size;
	return 0;
}

static int set_target(struct rec_cli *c, enum pmu_target_kind k)
{
	if (c->o.target != PMU_TARGET_CHILD && c->o.target != k) {
		pmu_tool_err("-p, -t and -a/-C exclude each other");
		return EXIT_PMU_USAGE;
	}
	c->o.target = k;
	return 0;
}

static int add_events(struct rec_cli *c, const char *arg)
{
	size_t old = c->events ? strlen(c->events) : 0;
	char *n = realloc(c->events, old + strlen(arg) + 2);

	if (!n)
		return EXIT_PMU_INPUT;
	sprintf(n + old, "%s%s", old ? "," : "", arg);
	c->events = n;
	return 0;
}

static int parse_opt(int opt, struct rec_cli *c)
{
	uint64_t v;

	switch (opt) {
	case 'e': return add_events(c, optarg);
	case 'F':
		if (!strcmp(optarg, "max")) {
			c->o.freq = PMU_RECORD_FREQ_MAX;
			return 0;
		}
		if (parse_u64(optarg, "-F", &v))
			return EXIT_PMU_USAGE;
		c->o.freq = v;
		return 0;
	case OPT_STRICT_FREQ: c->o.strict_freq = true; return 0;
	case 'c':
		if (parse_u64(optarg, "-c", &v))
			return EXIT_PMU_USAGE;
		c->o.period = v;
		return 0;
	case 'g': c->o.callgraph = PMU_CALLGRAPH_MODE_FP; return 0;
	case 'G': return parse_callgraph(optarg, c);
	case 'p': return set_target(c, PMU_TARGET_PID) ?:
			 pmu_tool_parse_ids("-p", optarg, &c->pids,
					    &c->npids);
	case 't': return set_target(c, PMU_TARGET_TID) ?:
			 pmu_tool_parse_ids("-t", optarg, &c->pids,
					    &c->npids);
	case 'a': return set_target(c, PMU_TARGET_CPUS);
	case 'C':
		c->o.cpus = optarg;
		return set_target(c, PMU_TARGET_CPUS);
	case 'o': c->out = optarg; return 0;
	case 'm':
		if (parse_u64(optarg, "-m", &v))
			return EXIT_PMU_USAGE;
		if (v & (v - 1)) {
			pmu_tool_err("-m: %" PRIu64 " pages is not a power "
				     "of two", v);
			return EXIT_PMU_USAGE;
		}
		c->o.mmap_pages = (size_t)v;
		return 0;
	case 'I': c->o.no_inherit = true; return 0;
	case 'S': c->switch_output = true; return 0;
	case 'q': c->quiet = true; return 0;
	case OPT_EMULATE: return emu_cli_option(&c->emu, "record", "emulate",
						NULL);
	case OPT_EMULATE_MODEL:
		return emu_cli_option(&c->emu, "record", "emulate-model",
				      optarg);
	case OPT_EMULATE_REGIONS:
		return emu_cli_option(&c->emu, "record", "emulate-regions",
				      NULL);
	case OPT_EMULATE_OPT:
		return emu_cli_option(&c->emu, "record", "emulate-opt", optarg);
	default: return EXIT_PMU_USAGE;
	}
}

/* What --emulate cannot do, said before anything starts. */
static int check_emulate(const struct rec_cli *c)
{
	const char *why = NULL;

	if (c->o.freq)
		why = "-F: an emulated PMU samples every N events (-c N), not "
		      "N times a second: the emulator has no clock that "
		      "samples could follow";
	else if (c->o.callgraph)
		why = "-g/--call-graph: the emulator records no call chains "
		      "(each sample has the exact instruction, its registers "
		      "and data address)";
	else if (c->o.target != PMU_TARGET_CHILD)
		why = "--emulate records the command it runs: drop -p/-t/-a/-C";
	else if (c->o.mmap_pages)
		why = "-m: the emulator has no ring buffer to size";
	else if (c->switch_output)
		why = "--switch-output: a recording under the emulator is one "
		      "file";
	else if (c->o.no_inherit)
		why = "--no-inherit: the emulator follows every process of "
		      "the command";
	if (!why)
		return 0;
	pmu_tool_err("record --emulate: %s", why);
	return EXIT_PMU_USAGE;
}

static int parse_args(int argc, char **argv, struct rec_cli *c)
{
	static const struct option lo[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "freq", required_argument, NULL, 'F' },
		{ "strict-freq", no_argument, NULL, OPT_STRICT_FREQ },
		{ "count", required_argument, NULL, 'c' },
		{ "call-graph", required_argument, NULL, 'G' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "output", required_argument, NULL, 'o' },
		{ "mmap-pages", required_argument, NULL, 'm' },
		{ "no-inherit", no_argument, NULL, 'I' },
		{ "switch-output", no_argument, NULL, 'S' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "emulate", no_argument, NULL, OPT_EMULATE },
		{ "emulate-model", required_argument, NULL, OPT_EMULATE_MODEL },
		{ "emulate-regions", no_argument, NULL, OPT_EMULATE_REGIONS },
		{ "emulate-opt", required_argument, NULL, OPT_EMULATE_OPT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, rc;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "+e:F:c:gp:t:aC:o:m:qh", lo,
				  NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout);
			return -1;
		}
		if (opt == '?') {
			usage(stderr);
			return EXIT_PMU_USAGE;
		}
		if ((rc = parse_opt(opt, c)))
			return rc;
	}
	c->argv = argv + optind;
	if (!*c->argv && c->o.target == PMU_TARGET_CHILD) {
		pmu_tool_err("record: give a command, -p, -t, -a or -C; see "
			     "'pmu record --help'");
		return EXIT_PMU_USAGE;
	}
	/* -a/-C with a command: system-wide for the command's lifetime,
	 * perf's idiom; -p/-t name their own targets */
	if (*c->argv && (c->o.target == PMU_TARGET_PID ||
			 c->o.target == PMU_TARGET_TID)) {
		pmu_tool_err("record: a command and -p/-t exclude each other");
		return EXIT_PMU_USAGE;
	}
	return c->emu.emulate ? check_emulate(c) : 0;
}

static void block_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* FILE.YYYYmmddHHMMSSxx, the hundredths of a second last (perf's
 * name), and a further .N where a dump of the same hundredth exists. */
static int switch_file(struct pmu_record *r, struct rec_cli *c)
{
	struct pmu_error err = { .size = sizeof(err) };
	char done[4200], stamp[32];
	struct timespec ts;
	struct tm tm;
	int ret = -EEXIST;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", &tm);
	for (int k = 0; ret == -EEXIST && k < 1000; k++) {
		if (k)
			snprintf(done, sizeof(done), "%s.%s%02ld.%d", c->out,
				 stamp, ts.tv_nsec / 10000000, k);
		else
			snprintf(done, sizeof(done), "%s.%s%02ld", c->out,
				 stamp, ts.tv_nsec / 10000000);
		ret = pmu_record_switch(r, done, &err);
	}
	if (ret) {
		pmu_tool_err("%s", err.message);
		return -1;
	}
	if (!c->quiet)
		fprintf(stderr, "[ pmu record: dump data: Woken up, wrote "
			"%s ]\n", done);
	return 0;
}

/* Pending signals, without waiting: 1 to stop recording. */
static int take_signals(struct pmu_record *r, struct rec_cli *c, pid_t child)
{
	const struct timespec zero = { 0, 0 };
	sigset_t set;
	siginfo_t si;
	int sig, stop = 0;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGUSR2);
	while ((sig = sigtimedwait(&set, &si, &zero)) > 0) {
		if (sig == SIGUSR2 && c->switch_output)
			switch_file(r, c);
		else if ((sig == SIGINT || sig == SIGTERM) && child > 0) {
			/* Ctrl-C reaches the command itself; a kill
			 * aimed at pmu alone is passed on */
			if (si.si_code <= 0)
				kill(child, sig);
		} else if (sig == SIGINT || sig == SIGTERM) {
			stop = 1;
		}
	}
	return stop;
}

static bool targets_gone(const struct rec_cli *c)
{
	if (c->o.target != PMU_TARGET_PID && c->o.target != PMU_TARGET_TID)
		return false;
	for (size_t i = 0; i < c->npids; i++)
		if (kill(c->pids[i], 0) == 0 || errno != ESRCH)
			return false;
	return true;
}

/* The recording failed: the command is stopped and reaped, as perf
 * stops it, not left running unwatched. */
static void stop_child(pid_t child, int *status)
{
	if (child <= 0 || waitpid(child, status, WNOHANG) == child)
		return;
	kill(child, SIGTERM);
	while (waitpid(child, status, 0) < 0 && errno == EINTR)
		;
}

static int loop(struct pmu_record *r, struct rec_cli *c, pid_t child,
		int *status)
{
	for (;;) {
		int ret = pmu_record_poll(r, 100);

		if (ret && ret != -EINTR) {
			pmu_tool_err("writing %s: %s; the command is stopped",
				     c->out, strerror(-ret));
			stop_child(child, status);
			return EXIT_PMU_INPUT;
		}
		if (take_signals(r, c, child) || targets_gone(c))
			return 0;
		if (child > 0 && waitpid(child, status, WNOHANG) == child)
			return 0;
	}
}

static void summary(const struct rec_cli *c, const struct pmu_record_stats *st)
{
	if (c->emu.emulate && st->lost)
		fprintf(stderr, "[ pmu record: lost %" PRIu64 " samples: past "
			"the emulator's max-samples, or more than it keeps "
			"waiting ]\n", st->lost);
	if (!c->quiet) {
		fprintf(stderr, "[ pmu record: Woken up %" PRIu64 " times to "
			"write data ]\n", st->wakeups);
		fprintf(stderr, "[ pmu record: Captured and wrote %.3f MB %s "
			"(%" PRIu64 " samples) ]\n", st->bytes / 1048576.0,
			c->out, st->samples);
	}
	/* always, even with -q: a profile with holes must say so */
	if (st->lost && !c->emu.emulate)
		fprintf(stderr, "[ pmu record: lost %" PRIu64 " samples: the "
			"ring buffer was full; try a larger -m or a lower "
			"-F ]\n", st->lost);
}

static int exit_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 0;
}

/* Record, wait for the command, finish: the file is complete only
 * when rc is 0. */
static int record_loop(struct pmu_record *r, struct rec_cli *c, pid_t child,
		       int *status)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_record_stats st = { .size = sizeof(st) };
	int rc = loop(r, c, child, status);

	if (!rc && pmu_record_finish(r, &st, &err)) {
		stop_child(child, status);
		pmu_tool_err("%s", err.message);
		rc = EXIT_PMU_INPUT;
	}
	if (!rc)
		summary(c, &st);
	return rc;
}

/* The emulator's command line is known once the recording is open: the
 * command starts after it. */
static int run_emulated(struct rec_cli *c, int argc, char **argv,
			const sigset_t *old)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct launch l = { .pid = -1, .go_fd = -1, .err_fd = -1 };
	struct pmu_record *r;
	int status = 0, rc, e;

	l.out_to_err = !strcmp(c->out, "-");
	c->o.events = c->events;
	c->o.argc = argc;
	c->o.argv = argv;
	c->o.emulate = true;
	c->o.emu_model = c->emu.model;
	c->o.emu = c->emu.settings;
	c->o.command = c->argv;
	if (!(r = pmu_record_open(c->out, &c->o, &err))) {
		pmu_tool_err("%s", err.message);
		return err.kind == PMU_ERR_USAGE ? EXIT_PMU_USAGE : EXIT_PMU_INPUT;
	}
	rc = launch_prepare(&l, (char **)pmu_record_command(r), old);
	if (rc < 0) {
		pmu_tool_err("cannot start '%s': %s", c->argv[0],
			     strerror(-rc));
		pmu_record_free(r);
		return EXIT_PMU_INPUT;
	}
	if ((e = launch_release(&l))) {
		if (e != EPIPE)
			launch_abort(&l);
		pmu_record_free(r);
		pmu_tool_err("%s: %s", c->argv[0], strerror(e));
		return 126;
	}
	rc = record_loop(r, c, l.pid, &status);
	pmu_record_free(r);
	return rc ? rc : exit_status(status);
}

static int run(struct rec_cli *c, int argc, char **argv)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_record_stats st = { .size = sizeof(st) };
	struct launch l = { .pid = -1, .go_fd = -1, .err_fd = -1 };
	struct pmu_record *r;
	sigset_t old;
	int status = 0, rc, e;

	block_signals(&old);
	l.out_to_err = !strcmp(c->out, "-");
	if (c->emu.emulate)
		return run_emulated(c, argc, argv, &old);
	if (*c->argv && (rc = launch_prepare(&l, c->argv, &old)) < 0) {
		pmu_tool_err("cannot start '%s': %s", c->argv[0], strerror(-rc));
		return EXIT_PMU_INPUT;
	}
	c->o.events = c->events;
	if (c->o.target == PMU_TARGET_CHILD) {
		c->o.pids = &l.pid;
		c->o.npids = 1;
	} else {
		c->o.pids = c->pids;
		c->o.npids = c->npids;
	}
	c->o.argc = argc;
	c->o.argv = argv;
	r = pmu_record_open(c->out, &c->o, &err);
	if (!r) {
		pmu_tool_err("%s", err.message);
		if (l.pid > 0)
			launch_abort(&l);
		return err.kind == PMU_ERR_USAGE ? EXIT_PMU_USAGE : EXIT_PMU_INPUT;
	}
	if (l.pid > 0 && (e = launch_release(&l))) {
		pmu_record_free(r);
		if (e != EPIPE)
			launch_abort(&l);
		pmu_tool_err("%s: %s", c->argv[0], e == ENOENT ?
			     "command not found" : strerror(e));
		return e == ENOENT ? 127 : 126;
	}
	rc = record_loop(r, c, l.pid, &status);
	pmu_record_free(r);
	if (rc)
		return rc;
	return l.pid > 0 ? exit_status(status) : 0;
}

int cmd_record(int argc, char **argv)
{
	struct rec_cli c = { .o = { .sz = sizeof(c.o),
				    .target = PMU_TARGET_CHILD },
			     .out = "perf.data" };
	int rc = parse_args(argc, argv, &c);
	char self[4096], **line = NULL;
	ssize_t n;

	if (rc < 0) {
		rc = 0;
	} else if (!rc) {
		/* the file's command line is the whole of it, pmu's path
		 * first, as perf stores its own (readers show it) */
		n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n > 0)
			self[n] = '\0';
		else
			snprintf(self, sizeof(self), "%s", pmu_tool_self);
		line = calloc((size_t)argc + 2, sizeof(*line));
		if (!line) {
			pmu_tool_err("out of memory");
			return EXIT_PMU_INPUT;
		}
		line[0] = self;
		memcpy(line + 1, argv, (size_t)argc * sizeof(*line));
		rc = run(&c, argc + 1, line);
		free(line);
	}
	free(c.events);
	free(c.pids);
	free(c.emu.settings);
	return rc;
}
