/* SPDX-License-Identifier: MIT */
/*
 * Pentium 4 PEBS: the microcode assist that stores a register record in
 * the DS save area's buffer, and perfmon2's sampling format around it.
 */
#include "sim/pebs.h"
#include "sim/sim_util.h"
#include "hwmodel/control.h"

/* Does [addr, addr + len) lie inside the memory? */
static bool pebs_inside(const struct pmu__pebs_buf *b, uint64_t addr,
		      uint64_t len)
{
	uint64_t off;

	if (!b->mem || addr < b->base)
		return false;
	off = addr - b->base;
	return off <= b->size && len <= b->size - off;
}

uint64_t pmu__pebs_load(const struct pmu__pebs_buf *b, uint64_t addr,
			unsigned bytes)
{
	const uint8_t *p;
	uint64_t v = 0;

	if (!pebs_inside(b, addr, bytes))
		return 0;
	p = b->mem + (addr - b->base);
	while (bytes--)
		v = (v << 8) | p[bytes];
	return v;
}

int pmu__pebs_store(const struct pmu__pebs_buf *b, uint64_t addr,
		    unsigned bytes, uint64_t val)
{
	uint8_t *p;

	if (!pebs_inside(b, addr, bytes))
		return -PMU_EINVAL;
	p = b->mem + (addr - b->base);
	for (unsigned i = 0; i < bytes; i++, val >>= 8)
		p[i] = (uint8_t)val;
	return 0;
}

static unsigned word(bool mode64)
{
	return mode64 ? 8u : 4u;
}

/* The counter reset is 8 bytes in both layouts. */
static unsigned ds_width(bool mode64, enum pmu_pebs_ds_field f)
{
	return f == PMU_DS_PEBS_CNT_RESET ? 8u : word(mode64);
}

static uint64_t ds_get(const struct pmu__pebs_buf *b, uint64_t ds,
		       enum pmu_pebs_ds_field f)
{
	return pmu__pebs_load(b, ds + pmu__ds_off(b->mode64, f),
			      ds_width(b->mode64, f));
}

static void ds_set(const struct pmu__pebs_buf *b, uint64_t ds,
		   enum pmu_pebs_ds_field f, uint64_t v)
{
	(void)pmu__pebs_store(b, ds + pmu__ds_off(b->mode64, f),
			      ds_width(b->mode64, f), v);
}

/* Decode the record at linear address `addr`. */
static void pebs_decode(const struct pmu__pebs_buf *b, uint64_t addr,
		      struct pmu__pebs_rec *rec)
{
	unsigned w = word(b->mode64);
	unsigned nregs = b->mode64 ? 16u : 8u;

	rec->flags = pmu__pebs_load(b, addr, w);
	rec->ip = pmu__pebs_load(b, addr + w, w);
	for (unsigned i = 0; i < PMU_PEBS_MAX_REGS - 2; i++)
		rec->regs[i] = i < nregs ?
			pmu__pebs_load(b, addr + (2 + i) * w, w) : 0;
}

/* Record layout: flags, ip, then the general registers in snapshot order;
 * 32-bit records keep the low halves of the first eight. */
static void write_record(const struct pmu__pebs_buf *b, uint64_t addr,
			 const struct pmu__sim_snapshot *sn)
{
	unsigned w = word(b->mode64);
	unsigned nregs = b->mode64 ? 16u : 8u;

	(void)pmu__pebs_store(b, addr, w, sn->flags);
	(void)pmu__pebs_store(b, addr + w, w, sn->ip);
	for (unsigned i = 0; i < nregs; i++)
		(void)pmu__pebs_store(b, addr + (2 + i) * w, w, sn->gpr[i]);
}

static bool pebs_enabled(const struct pmu__sim *s, const struct pmu__pebs *p)
{
	return (s->p4_pebs_enable & PMU_P4_PEBS_ENABLE_BIT) &&
	       !(s->p4_misc_enable & PMU_P4_MISC_PEBS_UNAVAIL) &&
	       !(s->quirks & PMU_QUIRK_HT) && p->ds_area != 0;
}

/* The overflow arms the assist instead of flagging the CCCR or raising
 * the counter's own interrupt. */
static bool pebs_on_overflow(struct pmu__sim *s, void *st, unsigned hw)
{
	struct pmu__pebs *p = st;

	if (hw != PMU_P4_PEBS_HW_CTR || !pebs_enabled(s, p))
		return false;
	s->armed |= 1u << hw;
	return true;
}

/* Store one record if it fits below abs_max and inside the memory;
 * returns whether the threshold interrupt is due. */
static bool assist_store(struct pmu__sim *s, struct pmu__pebs *p)
{
	const struct pmu__pebs_buf *b = &p->buf;
	uint64_t rs = pmu__pebs_rec_size(b->mode64);
	uint64_t idx = ds_get(b, p->ds_area, PMU_DS_PEBS_INDEX);
	uint64_t max = ds_get(b, p->ds_area, PMU_DS_PEBS_ABS_MAX);

	if (idx >= max || max - idx < rs || !pebs_inside(b, idx, rs)) {
		p->dropped++;
		return false;
	}
	write_record(b, idx, &s->snap);
	idx += rs;
	ds_set(b, p->ds_area, PMU_DS_PEBS_INDEX, idx);
	p->written++;
	return idx >= ds_get(b, p->ds_area, PMU_DS_PEBS_INTR_THRES);
}

/* The qualifying event after the overflow: record, reload, interrupt. */
static void pebs_on_armed(struct pmu__sim *s, void *st, unsigned hw)
{
	struct pmu__pebs *p = st;
	bool irq = false;

	s->armed &= ~(1u << hw);
	if (!pebs_enabled(s, p))
		return;
	irq = assist_store(s, p);
	pmu__sim_set_ctr(s, hw, ds_get(&p->buf, p->ds_area,
				       PMU_DS_PEBS_CNT_RESET));
	if (irq) {
		p->irqs++;
		pmu__sim_raise(s, PMU_SIM_IRQ_PEBS);
	}
}

static int pebs_reg_write(struct pmu__sim *s, void *st,
			  enum pmu_sim_reg_kind kind, uint32_t addr,
			  uint64_t v)
{
	struct pmu__pebs *p = st;

	if (kind != PMU_SIM_REG_MSR || addr != PMU_MSR_DS_AREA)
		return 0;
	p->ds_area = p->buf.mode64 ? v : (v & 0xFFFFFFFFu);
	s->stats.ctl_writes++;
	return 1;
}

static int pebs_reg_read(struct pmu__sim *s, void *st,
			 enum pmu_sim_reg_kind kind, uint32_t addr,
			 uint64_t *v)
{
	const struct pmu__pebs *p = st;

	(void)s;
	if (kind != PMU_SIM_REG_MSR || addr != PMU_MSR_DS_AREA)
		return 0;
	*v = p->ds_area;
	return 1;
}

static const struct pmu__sim_ext_ops pebs_ops = {
	.reg_write = pebs_reg_write,
	.reg_read = pebs_reg_read,
	.on_overflow = pebs_on_overflow,
	.on_armed = pebs_on_armed,
};

int pmu__sim_pebs_attach(struct pmu__sim *s, struct pmu__pebs *p,
			 const struct pmu__pebs_buf *buf)
{
	if (!s || !p || !buf || !s->model ||
	    s->model->check.family != PMU_CHECK_P4 ||
	    s->nr_hw <= PMU_P4_PEBS_HW_CTR)
		return -PMU_EINVAL;
	pmu__sim_zero(p, sizeof(*p));
	p->buf.mem = buf->mem;
	p->buf.size = buf->mem ? buf->size : 0;
	p->buf.base = buf->base;
	p->buf.mode64 = buf->mode64;
	return pmu__sim_attach(s, PMU_SIM_EXT_PEBS, &pebs_ops, p);
}

/* ---- perfmon2 "pebs32_p4" / "pebs64_p4" sampling format ---- */

unsigned pmu__pebs_hdr_size(bool mode64)
{
	return mode64 ? 144u : 104u;
}

unsigned pmu__pebs_hdr_ds_off(bool mode64)
{
	return mode64 ? 72u : 64u;
}

static unsigned pebs_hdr_off(bool mode64, enum pmu_pebs_hdr_field f)
{
	static const uint8_t off32[] = { 0, 8, 12, 16 };
	static const uint8_t off64[] = { 0, 8, 16, 24 };

	return mode64 ? off64[f] : off32[f];
}

static unsigned hdr_width(bool mode64, enum pmu_pebs_hdr_field f)
{
	if (f == PMU_PEBS_HDR_OVERFLOWS)
		return 8;
	if (f == PMU_PEBS_HDR_VERSION)
		return 4;
	return word(mode64);
}

uint64_t pmu__pebs_fmt_hdr(const struct pmu__pebs_buf *b,
			   enum pmu_pebs_hdr_field f)
{
	return pmu__pebs_load(b, b->base + pebs_hdr_off(b->mode64, f),
			      hdr_width(b->mode64, f));
}

static void hdr_set(const struct pmu__pebs_buf *b, enum pmu_pebs_hdr_field f,
		    uint64_t v)
{
	(void)pmu__pebs_store(b, b->base + pebs_hdr_off(b->mode64, f),
			      hdr_width(b->mode64, f), v);
}

uint64_t pmu__pebs_fmt_ds_addr(const struct pmu__pebs_buf *b)
{
	return b->base + pmu__pebs_hdr_ds_off(b->mode64);
}

uint64_t pmu__pebs_fmt_ds(const struct pmu__pebs_buf *b,
			  enum pmu_pebs_ds_field f)
{
	return ds_get(b, pmu__pebs_fmt_ds_addr(b), f);
}

void pmu__pebs_fmt_set_ds(const struct pmu__pebs_buf *b,
			  enum pmu_pebs_ds_field f, uint64_t v)
{
	ds_set(b, pmu__pebs_fmt_ds_addr(b), f, v);
}

static int fmt_check(const struct pmu__pebs_buf *b,
		     const struct pmu__pebs_fmt_arg *arg)
{
	uint64_t hs = pmu__pebs_hdr_size(b->mode64);
	uint64_t lim = b->mode64 ? UINT64_MAX : 0xFFFFFFFFull;

	if (!arg || arg->buf_size < hs + pmu__pebs_rec_size(b->mode64) + 256)
		return -PMU_EINVAL;
	if (!pebs_inside(b, b->base, hs))
		return -PMU_EINVAL;
	/* Every DS address must be representable in the layout's longs. */
	if (b->base > lim - hs - PMU_PEBS_FMT_ALIGN ||
	    arg->buf_size > lim - b->base - hs - PMU_PEBS_FMT_ALIGN - 1 ||
	    arg->intr_thres > (lim - b->base) / pmu__pebs_rec_size(b->mode64))
		return -PMU_EINVAL;
	return 0;
}

/*
 * The kernel's arithmetic, on purpose: the record area starts at the end
 * of the header rounded up to 256 bytes and abs_max = base + buf_size + 1,
 * which may lie past the memory; the simulated hardware never writes
 * outside the memory, so such a tail just stays unused.
 */
int pmu__pebs_fmt_init(const struct pmu__pebs_buf *b,
		       const struct pmu__pebs_fmt_arg *arg)
{
	uint64_t hs = pmu__pebs_hdr_size(b->mode64);
	uint64_t end, pbase;
	int err = fmt_check(b, arg);

	if (err)
		return err;
	pmu__sim_zero(b->mem, hs);
	end = b->base + hs;
	pbase = (end + PMU_PEBS_FMT_ALIGN - 1) & ~(uint64_t)(PMU_PEBS_FMT_ALIGN - 1);
	hdr_set(b, PMU_PEBS_HDR_BUF_SIZE, arg->buf_size);
	hdr_set(b, PMU_PEBS_HDR_START_OFFS, pbase - end);
	hdr_set(b, PMU_PEBS_HDR_VERSION, PMU_PEBS_FMT_VERSION);
	pmu__pebs_fmt_set_ds(b, PMU_DS_PEBS_BUF_BASE, pbase);
	pmu__pebs_fmt_set_ds(b, PMU_DS_PEBS_INDEX, pbase);
	pmu__pebs_fmt_set_ds(b, PMU_DS_PEBS_ABS_MAX, pbase + arg->buf_size + 1);
	pmu__pebs_fmt_set_ds(b, PMU_DS_PEBS_INTR_THRES,
			     pbase + arg->intr_thres *
				     pmu__pebs_rec_size(b->mode64));
	pmu__pebs_fmt_set_ds(b, PMU_DS_PEBS_CNT_RESET, arg->cnt_reset);
	return 0;
}

uint64_t pmu__pebs_fmt_count(const struct pmu__pebs_buf *b)
{
	uint64_t base = pmu__pebs_fmt_ds(b, PMU_DS_PEBS_BUF_BASE);
	uint64_t idx = pmu__pebs_fmt_ds(b, PMU_DS_PEBS_INDEX);

	if (idx <= base)
		return 0;
	return (idx - base) / pmu__pebs_rec_size(b->mode64);
}

bool pmu__pebs_fmt_full(const struct pmu__pebs_buf *b)
{
	return pmu__pebs_fmt_ds(b, PMU_DS_PEBS_INDEX) >=
	       pmu__pebs_fmt_ds(b, PMU_DS_PEBS_INTR_THRES);
}

void pmu__pebs_fmt_overflow(const struct pmu__pebs_buf *b)
{
	hdr_set(b, PMU_PEBS_HDR_OVERFLOWS,
		pmu__pebs_fmt_hdr(b, PMU_PEBS_HDR_OVERFLOWS) + 1);
}

void pmu__pebs_fmt_restart(const struct pmu__pebs_buf *b)
{
	pmu__pebs_fmt_set_ds(b, PMU_DS_PEBS_INDEX,
			     pmu__pebs_fmt_ds(b, PMU_DS_PEBS_BUF_BASE));
}

void pmu__pebs_fmt_record(const struct pmu__pebs_buf *b, uint64_t i,
			  struct pmu__pebs_rec *rec)
{
	uint64_t base = pmu__pebs_fmt_ds(b, PMU_DS_PEBS_BUF_BASE);

	pebs_decode(b, base + i * pmu__pebs_rec_size(b->mode64), rec);
}
