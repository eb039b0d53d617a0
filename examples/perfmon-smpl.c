/* SPDX-License-Identifier: MIT */
/*
 * A perfmon2 self-sampling program, written as one was for perfmon2:
 * create a context with the default sampling format, map its buffer,
 * program a counter to overflow every PERIOD instructions with the
 * instructions' cycles sampled alongside, attach to oneself, start, and
 * on each notification (buffer full) walk the entries and restart.
 *
 * The PMU is a simulated one (pmu_perfmon_use; default model p6, or the
 * first argument: p6, pii, piii, pentm, k7, k8, k8c, fam10h): the work
 * monitored is a loop fed to it as an event stream, so every number is
 * known.  With PMU_PERFMON_NO_REDIRECT unset, pmu/perfmon.h routes mmap
 * and close on the context's descriptor to the library, as perfmon2's
 * kernel handled them.
 *
 *   usage: perfmon-smpl [MODEL]
 *
 * The work: LOOPS passes of INSNS instructions (event 0xc0) at ip
 * 0x400000 + pass * 0x10, each followed by CYCLES cycles.  A sample
 * falls on the last instruction of every PERIOD / INSNS = 4th pass
 * (passes 3, 7, ... counted from 0), before that pass's cycles: the
 * cycles sampled with sample k (from 1) are (4k - 1) * CYCLES, less
 * what was not counted while monitoring was masked: the buffer holds
 * ENTRIES samples, and the one that fills it masks monitoring until
 * the restart after its pass, so that pass's CYCLES go uncounted --
 * CYCLES * ((k - 1) / ENTRIES) in all by sample k.  10 samples give 3
 * notifications and leave the 10th in the buffer at the end.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include <pmu/perfmon.h>

#define LOOPS 40
#define INSNS 2500
#define CYCLES 4000
#define PERIOD 10000
#define ENTRIES 3        /* samples the buffer holds before notifying */

static int die(const char *what)
{
	fprintf(stderr, "perfmon-smpl: %s: %s (%s)\n", what, strerror(errno),
		pmu_perfmon_error()->message);
	return 1;
}

/* The default format's entries: the 40-byte entry, then one value per
 * PMD in the overflowed PMD's smpl_pmds (here one: the cycles). */
static uint64_t walk(const pfm_dfl_smpl_hdr_t *hdr, uint64_t seen)
{
	const char *p = (const char *)(hdr + 1);

	for (uint64_t i = 0; i < hdr->hdr_count; i++) {
		const pfm_dfl_smpl_entry_t *e = (const void *)p;
		const uint64_t *cycles = (const uint64_t *)(const void *)(e + 1);

		printf("sample %3" PRIu64 ": pmd %u ip 0x%06" PRIx64
		       " cycles %7" PRIu64 " set %u\n", seen + i + 1,
		       e->ovfl_pmd, e->ip, cycles[0], e->set);
		p += sizeof(*e) + sizeof(uint64_t);
	}
	return seen + hdr->hdr_count;
}

/* The monitored work: one pass of the loop. */
static int work(int fd, unsigned pass)
{
	char stream[128];
	int n = snprintf(stream, sizeof(stream),
			 "ip 0x%x\nevent 0xc0 %d\ncycles %d\n",
			 0x400000 + pass * 0x10, INSNS, CYCLES);

	return pmu_perfmon_feed(fd, stream, (size_t)n);
}

int main(int argc, char **argv)
{
	const char *model = argc > 1 ? argv[1] : "p6";
	unsigned cyc_event = model[0] == 'p' ? 0x79 : 0x76;
	pfm_dfl_smpl_arg_t arg;
	pfarg_pmr_t pc[2];
	pfarg_pmd_attr_t pd[2];
	pfarg_sinfo_t sif;
	pfm_dfl_smpl_hdr_t *hdr;
	uint64_t seen = 0, notes = 0, npmds;
	int fd;

	if (pmu_perfmon_use("sim", model))
		return die(model);
	/* the PMU's registers first: the format keeps 40 bytes plus 8
	 * per PMD free, and notifies when less is left */
	if ((fd = pfm_create(0, &sif)) < 0)
		return die("pfm_create");
	close(fd);
	npmds = (uint64_t)__builtin_popcountll(sif.sif_avail_pmds[0]);
	memset(&arg, 0, sizeof(arg));
	arg.buf_size = sizeof(pfm_dfl_smpl_hdr_t) +
		       ENTRIES * (sizeof(pfm_dfl_smpl_entry_t) + 8) +
		       sizeof(pfm_dfl_smpl_entry_t) + 8 * npmds - 1;
	fd = pfm_create(PFM_FL_SMPL_FMT, NULL, PFM_DFL_SMPL_NAME, &arg,
			sizeof(arg));
	if (fd < 0)
		return die("pfm_create");
	hdr = mmap(NULL, arg.buf_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (hdr == MAP_FAILED)
		return die("mmap");

	memset(pc, 0, sizeof(pc));
	pc[0].reg_num = 0;    /* instructions retired, user+kernel, enable */
	pc[0].reg_value = 0x4300c0;
	pc[1].reg_num = 1;    /* cycles */
	pc[1].reg_value = 0x430000 | cyc_event;
	memset(pd, 0, sizeof(pd));
	pd[0].reg_num = 0;
	pd[0].reg_value = pd[0].reg_long_reset = pd[0].reg_short_reset =
		(uint64_t)-PERIOD;
	pd[0].reg_flags = PFM_REGFL_OVFL_NOTIFY;
	pd[0].reg_smpl_pmds[0] = 1u << 1;
	pd[1].reg_num = 1;
	if (pfm_write(fd, 0, PFM_RW_PMC, pc, sizeof(pc)) ||
	    pfm_write(fd, 0, PFM_RW_PMD_ATTR, pd, sizeof(pd)))
		return die("pfm_write");
	if (pfm_attach(fd, 0, gettid()) ||
	    pfm_set_state(fd, 0, PFM_ST_START))
		return die("pfm_attach/start");

	for (unsigned pass = 0; pass < LOOPS; pass++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		pfarg_msg_t msg;

		if (work(fd, pass))
			return die("work");
		if (poll(&p, 1, 0) != 1)
			continue;
		if (read(fd, &msg, sizeof(msg)) != sizeof(msg) ||
		    msg.type != PFM_MSG_OVFL)
			return die("read");
		notes++;
		seen = walk(hdr, seen);
		if (pfm_set_state(fd, 0, PFM_ST_RESTART))
			return die("restart");
	}
	pfm_set_state(fd, 0, PFM_ST_STOP);
	seen = walk(hdr, seen);
	printf("%" PRIu64 " samples, %" PRIu64 " notifications\n", seen,
	       notes);
	munmap(hdr, arg.buf_size);
	close(fd);
	return 0;
}
