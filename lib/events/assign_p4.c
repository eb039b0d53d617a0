/* SPDX-License-Identifier: MIT */
#include <string.h>
#include <strings.h>

#include "events/assign.h"

/*
 * ESCR MSR by (counter group, ESCR_SELECT) for the first counter pair of
 * each group; the second pair uses the next MSR (ESCR1).  0 = no ESCR.
 * Groups: 0 = counters 0-3, 1 = 4-7, 2 = 8-11, 3 = 12-17.
 */
static const uint16_t escr_base[4][8] = {
	{ 0x3B2, 0x3B4, 0x3AA, 0x3B6, 0x3AC, 0x3C8, 0x3A2, 0x3A0 },
	{ 0x3C0, 0x3C4, 0x3C2, 0, 0, 0, 0, 0 },
	{ 0x3A6, 0x3A4, 0x3AE, 0x3B0, 0, 0x3A8, 0, 0 },
	{ 0x3BA, 0x3CA, 0x3BC, 0x3BE, 0x3B8, 0x3CC, 0x3E0, 0 },
};

/* Counters of each group: first pair (ESCR0 side), then second pair. */
static const int8_t grp_ctrs[4][2][3] = {
	{ { 0, 1, -1 }, { 2, 3, -1 } },
	{ { 4, 5, -1 }, { 6, 7, -1 } },
	{ { 8, 9, -1 }, { 10, 11, -1 } },
	{ { 12, 13, 16 }, { 14, 15, 17 } },
};

/* The ESCR unit of each netburst event, as its group and which of the
 * unit's two ESCRs it may use (bit 0 = ESCR0 side, bit 1 = ESCR1 side). */
struct p4_unit {
	const char *event;
	uint8_t grp, sides;
};

static const struct p4_unit units[] = {
	{ "128bit_MMX_uop", 2, 3 },       { "64bit_MMX_uop", 2, 3 },
	{ "b2b_cycles", 0, 3 },           { "bnr", 0, 3 },
	{ "BPU_fetch_request", 0, 3 },    { "branch_retired", 3, 3 },
	{ "BSQ_active_entries", 0, 2 },   { "BSQ_allocation", 0, 1 },
	{ "BSQ_cache_reference", 0, 3 },  { "execution_event", 3, 3 },
	{ "front_end_event", 3, 3 },      { "FSB_data_activity", 0, 3 },
	{ "global_power_events", 0, 3 },  { "instr_completed", 3, 3 },
	{ "instr_retired", 3, 3 },        { "IOQ_active_entries", 0, 2 },
	{ "IOQ_allocation", 0, 3 },       { "ITLB_reference", 0, 3 },
	{ "load_port_replay", 2, 3 },     { "machine_clear", 3, 3 },
	{ "memory_cancel", 2, 3 },        { "memory_complete", 2, 3 },
	{ "mispred_branch_retired", 3, 3 }, { "MOB_load_replay", 0, 3 },
	{ "packed_DP_uop", 2, 3 },        { "packed_SP_uop", 2, 3 },
	{ "page_walk_type", 0, 3 },       { "replay_event", 3, 3 },
	{ "resource_stall", 3, 3 },       { "response", 0, 3 },
	{ "retired_branch_type", 1, 3 },  { "retired_mispred_branch_type", 1, 3 },
	{ "scalar_DP_uop", 2, 3 },        { "scalar_SP_uop", 2, 3 },
	{ "snoop", 0, 3 },                { "SSE_input_assist", 2, 3 },
	{ "store_port_replay", 2, 3 },    { "TC_deliver_mode", 1, 3 },
	{ "TC_misc", 1, 3 },              { "tc_ms_xfer", 1, 3 },
	{ "uop_queue_writes", 1, 3 },     { "uops_retired", 3, 3 },
	{ "uops_type", 3, 3 },            { "WC_Buffer", 2, 3 },
	{ "x87_assist", 3, 3 },           { "x87_FP_uop", 2, 3 },
	{ "x87_SIMD_moves_uop", 2, 3 },
};

static int ctr_group(int ctr, int *side)
{
	for (int g = 0; g < 4; g++)
		for (int s = 0; s < 2; s++)
			for (int k = 0; k < 3; k++)
				if (grp_ctrs[g][s][k] == ctr) {
					*side = s;
					return g;
				}
	return -1;
}

uint32_t pmu__p4_escr_msr(int ctr, unsigned sel)
{
	int side, g = ctr_group(ctr, &side);

	if (g < 0 || sel > 7 || !escr_base[g][sel])
		return 0;
	/* SSU has a single ESCR, reachable only from the first pairs. */
	if (g == 3 && sel == 3 && side == 1)
		return 0;
	return escr_base[g][sel] + (uint32_t)side;
}

int pmu__assign_p4_cands(const char *event, unsigned sel,
			 struct pmu__asg_req *req)
{
	const struct p4_unit *u = NULL;

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcasecmp(units[i].event, event))
			u = &units[i];
	req->ncand = 0;
	if (!u)
		return 0;
	for (int s = 0; s < 2; s++) {
		if (!(u->sides & (1u << s)))
			continue;
		for (int k = 0; k < 3 && grp_ctrs[u->grp][s][k] >= 0; k++) {
			int c = grp_ctrs[u->grp][s][k];
			uint32_t msr = pmu__p4_escr_msr(c, sel);
			if (!msr)
				continue;
			req->cand[req->ncand].ctr = (uint8_t)c;
			req->cand[req->ncand++].res = (uint16_t)msr;
		}
	}
	return req->ncand;
}
