/* SPDX-License-Identifier: MIT */
/*
 * Pentium 4 ESCR selection: which ESCR a counter's CCCR.ESCR_SELECT
 * names.  Counters come in pairs sharing an ESCR pair; the second pair
 * of each group uses ESCR1 (MSR + 1).  Counters 16/17 behave like 13/14.
 */
#include "hwmodel/model.h"

/* ESCR0 MSR per (group, select); 0 = no such ESCR. */
static const uint16_t escr0[4][8] = {
	/* BPU counters 0-3 */
	{ 0x3B2, 0x3B4, 0x3AA, 0x3B6, 0x3AC, 0x3C8, 0x3A2, 0x3A0 },
	/* MS counters 4-7 */
	{ 0x3C0, 0x3C4, 0x3C2, 0, 0, 0, 0, 0 },
	/* FLAME counters 8-11 */
	{ 0x3A6, 0x3A4, 0x3AE, 0x3B0, 0, 0x3A8, 0, 0 },
	/* IQ counters 12-17 */
	{ 0x3BA, 0x3CA, 0x3BC, 0x3BE, 0x3B8, 0x3CC, 0x3E0, 0 },
};

/* Group and ESCR1-ness of each counter. */
static const uint8_t group_of[18] = {
	0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3,
};
static const uint8_t second_of[18] = {
	0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 1,
};

uint32_t pmu__p4_escr_addr(unsigned pmc, unsigned sel)
{
	uint32_t addr;

	if (pmc >= 18 || sel >= 8)
		return 0;
	addr = escr0[group_of[pmc]][sel];
	if (!addr)
		return 0;
	if (second_of[pmc]) {
		/* SSU has a single ESCR, usable only by the first IQ pairs */
		if (addr == 0x3BE)
			return 0;
		addr += 1;
	}
	return addr;
}
