/* SPDX-License-Identifier: MIT */
/*
 * The tool's side of the protocol with pmu (lib/proto/emu.h):
 * the config file it reads at start-up, the records it writes to pmu's
 * FIFO.  Each record is one write(2) smaller than PIPE_BUF, so the
 * records of every process of the program arrive whole.  The FIFO is
 * opened for each batch and closed again: the program never sees the
 * descriptor (and cannot close it under the tool).
 */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_vki.h"

#include "emu.h"

#define POLL_OUT 0x0004
#define POLL_BAD (0x0008 | 0x0010 | 0x0020) /* POLLERR POLLHUP POLLNVAL */

static void path(HChar *buf, SizeT len, const HChar *dir, const HChar *name)
{
	VG_(snprintf)(buf, len, "%s/%s", dir, name);
}

Bool emu_read_config(const HChar *dir, struct pmu_emu_config *cfg,
		     HChar *why, SizeT whylen)
{
	HChar p[4096];
	SysRes r;
	Int fd, n;

	path(p, sizeof(p), dir, "config");
	r = VG_(open)(p, VKI_O_RDONLY, 0);
	if (sr_isError(r)) {
		VG_(snprintf)(why, whylen, "cannot open %s", p);
		return False;
	}
	fd = (Int)sr_Res(r);
	n = VG_(read)(fd, cfg, sizeof(*cfg));
	VG_(close)(fd);
	if (n != (Int)sizeof(*cfg) || cfg->magic != PMU_EMU_MAGIC ||
	    cfg->version != PMU_EMU_VERSION || cfg->size != sizeof(*cfg)) {
		VG_(snprintf)(why, whylen, "%s is not a config of this "
			      "version of pmu (run the tool through pmu)", p);
		return False;
	}
	return True;
}

/* Write everything, waiting while the FIFO is full; False if pmu is
 * gone. */
static Bool write_all(Int fd, const UChar *buf, Int len)
{
	Int tries = 0;

	while (len > 0) {
		Int n = VG_(write)(fd, buf, len);
		struct vki_pollfd pf = { fd, POLL_OUT, 0 };

		if (n > 0) {
			buf += n;
			len -= n;
			continue;
		}
		if (++tries > 600)
			return False;
		if (sr_isError(VG_(poll)(&pf, 1, 100)) || (pf.revents & POLL_BAD))
			return False;
	}
	return True;
}

/* Records of at most PIPE_BUF bytes, each written whole. */
static void send(const void *const *recs, const UInt *sizes, UInt n)
{
	HChar p[4096];
	SysRes r;
	Int fd;

	if (!emu.dir)
		return;
	path(p, sizeof(p), emu.dir, "fifo");
	r = VG_(open)(p, VKI_O_WRONLY | VKI_O_NONBLOCK, 0);
	if (sr_isError(r))
		return;          /* pmu is gone: nobody to tell */
	fd = (Int)sr_Res(r);
	for (UInt i = 0; i < n; i++)
		if (!write_all(fd, recs[i], (Int)sizes[i]))
			break;
	VG_(close)(fd);
}

static void header(struct pmu_emu_rec_hdr *h, UInt type, UInt size)
{
	h->type = type;
	h->size = size;
	h->pid = VG_(getpid)();
	h->tid = VG_(gettid)();
}

void emu_report_samples(void)
{
	struct emu_ctx *c = &emu.ctx[0];
	const void *recs[64];
	UInt sizes[64];

	while (c->nsmp) {
		UInt n = c->nsmp < 64 ? c->nsmp : 64;

		for (UInt i = 0; i < n; i++) {
			/* the header is the sample's own: its thread */
			recs[i] = &c->smp[i];
			sizes[i] = sizeof(c->smp[i]);
		}
		send(recs, sizes, n);
		VG_(memmove)(c->smp, c->smp + n,
			     (c->nsmp - n) * sizeof(*c->smp));
		c->nsmp -= n;
	}
}

void emu_report(UInt why)
{
	struct emu_ctx *c = &emu.ctx[0];
	struct pmu_emu_rec_counts rec;
	struct pmu_emu_rec_set sets[PMU_EMU_MAX_SETS];
	struct pmu_emu_read now;
	const void *r[PMU_EMU_MAX_SETS + 1];
	UInt size[PMU_EMU_MAX_SETS + 1], n;

	if (!emu.have_cfg || !c->used)
		return;
	n = emu_sets_records(sets);
	for (UInt k = 0; k < n; k++) {
		header(&sets[k].h, PMU_EMU_REC_SET, sizeof(sets[k]));
		r[k] = &sets[k];
		size[k] = sizeof(sets[k]);
	}
	r[n] = &rec;
	size[n] = sizeof(rec);
	emu_ctx_read(0, &now);
	emu_report_samples();
	VG_(memset)(&rec, 0, sizeof(rec));
	header(&rec.h, PMU_EMU_REC_COUNTS, sizeof(rec));
	rec.why = why;
	rec.nctrs = now.nctrs;
	rec.tsc = now.tsc - c->reported_tsc;
	c->reported_tsc = now.tsc;
	for (UInt i = 0; i < now.nctrs; i++) {
		rec.sum[i] = now.sum[i] - c->reported[i];
		c->reported[i] = now.sum[i];
	}
	for (UInt k = 0; k < PMU_EMU_NKIND; k++) {
		rec.kind[k] = emu.kind[k] - emu.reported[k];
		emu.reported[k] = emu.kind[k];
	}
	rec.samples_lost = c->lost;
	c->lost = 0;
	send(r, size, n + 1);
	if (emu.cfg.report_ms)
		emu.next_report_ms = VG_(read_millisecond_timer)() +
				     emu.cfg.report_ms;
}

void emu_report_error(const HChar *text)
{
	struct pmu_emu_rec_error rec;
	const void *r = &rec;
	UInt size = sizeof(rec);

	VG_(memset)(&rec, 0, sizeof(rec));
	header(&rec.h, PMU_EMU_REC_ERROR, sizeof(rec));
	VG_(strncpy)(rec.text, text, sizeof(rec.text) - 1);
	send(&r, &size, 1);
}

/* ---- what a profile needs: processes and the files they run ---- */

/* Only a context that samples sends these: counting needs none. */
static Bool profiling(void)
{
	return emu.have_cfg && emu.ctx[0].used &&
	       emu.cfg.ctx.control.nrictrs > 0;
}

void emu_report_task(UInt why)
{
	struct pmu_emu_rec_task rec;
	const void *r = &rec;
	UInt size = sizeof(rec);
	const HChar *exe = VG_(args_the_exename), *base = exe;

	if (!profiling())
		return;
	VG_(memset)(&rec, 0, sizeof(rec));
	header(&rec.h, PMU_EMU_REC_TASK, sizeof(rec));
	rec.why = why;
	rec.ppid = VG_(getppid)();
	rec.icount = emu.kind[PMU_EMU_K_INSTR];
	for (const HChar *p = exe; p && *p; p++)
		if (*p == '/')
			base = p + 1;
	if (base)
		VG_(strncpy)(rec.comm, base, sizeof(rec.comm) - 1);
	send(&r, &size, 1);
}

static void report_segment(NSegment const *seg)
{
	union { struct pmu_emu_rec_mmap m; UChar b[PMU_EMU_REC_MAX]; } rec;
	const HChar *name = VG_(am_get_filename)(seg);
	const void *r = &rec;
	SizeT room = sizeof(rec) - sizeof(rec.m) - 1, n;
	UInt size;

	if (!name)
		return;
	n = VG_(strlen)(name);
	if (n > room)
		return;          /* no path is that long */
	VG_(memset)(&rec, 0, sizeof(rec.m) + n + 8);
	rec.m.addr = seg->start;
	rec.m.len = seg->end + 1 - seg->start;
	rec.m.pgoff = (ULong)seg->offset;
	rec.m.icount = emu.kind[PMU_EMU_K_INSTR];
	rec.m.prot = (seg->hasR ? 1 : 0) | (seg->hasW ? 2 : 0) |
		     (seg->hasX ? 4 : 0);
	VG_(memcpy)(rec.m.name, name, n + 1);
	size = (UInt)((sizeof(rec.m) + n + 1 + 7) & ~(SizeT)7);
	header(&rec.m.h, PMU_EMU_REC_MMAP, size);
	send(&r, &size, 1);
}

/* The executable file segments of [a, a + len): the samples taken
 * before are sent first, so that a profile reads them in order. */
void emu_report_map(Addr a, SizeT len)
{
	Addr end = a + len;

	if (!profiling() || !len)
		return;
	emu_report_samples();
	while (a < end) {
		NSegment const *seg = VG_(am_find_nsegment)(a);

		if (!seg)
			break;
		if (seg->kind == SkFileC && seg->hasX)
			report_segment(seg);
		a = seg->end + 1;
		if (!a)
			break;   /* the top of the address space */
	}
}
