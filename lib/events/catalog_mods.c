/* SPDX-License-Identifier: MIT */
#include "events/catalog.h"

/*
 * The modifiers each encoder kind accepts, with the names users type:
 * catalog data that listings, the encoder and the seed models share.
 */

static const struct pmu__moddesc x86_mods[PMU__MOD_NR] = {
	[PMU__MOD_K] = { "k", "count at privilege level 0", false, 1 },
	[PMU__MOD_U] = { "u", "count at privilege level 3", false, 1 },
	[PMU__MOD_E] = { "e", "edge detect", false, 1 },
	[PMU__MOD_I] = { "i", "invert counter mask", false, 1 },
	[PMU__MOD_C] = { "c", "counter mask (threshold)", true, 255 },
	[PMU__MOD_H] = { "h", "count in host only", false, 1 },
	[PMU__MOD_G] = { "g", "count in guest only", false, 1 },
	[PMU__MOD_T] = { "t", "count on any thread of the core", false, 1 },
	[PMU__MOD_INTX] = { "intx", "count in transactions only", false, 1 },
	[PMU__MOD_INTXCP] = { "intxcp",
			      "count in checkpointed transactions", false, 1 },
	[PMU__MOD_LDLAT] = { "ldlat", "load latency threshold (cycles)",
			     true, 65535 },
	[PMU__MOD_FE_THRES] = { "fe_thres",
				"front-end stall threshold (cycles)", true,
				4095 },
};

static const struct pmu__moddesc netburst_mods[PMU__MOD_NR] = {
	[PMU__MOD_U] = { "u", "count at privilege levels 1-3", false, 1 },
	[PMU__MOD_K] = { "k", "count at privilege level 0", false, 1 },
	[PMU__MOD_CMPL] = { "cmpl", "complement the threshold comparison",
			    false, 1 },
	[PMU__MOD_E] = { "e", "edge detect", false, 1 },
	[PMU__MOD_THR] = { "thr", "threshold", true, 15 },
};

static const struct pmu__moddesc config_mods[PMU__MOD_NR] = {
	[PMU__MOD_K] = { "k", "count in kernel mode", false, 1 },
	[PMU__MOD_U] = { "u", "count in user mode", false, 1 },
};

const struct pmu__moddesc *pmu__mod_desc(enum pmu__enc_kind k,
					 enum pmu__mod m)
{
	const struct pmu__moddesc *d = NULL;

	if ((unsigned)m >= PMU__MOD_NR)
		return NULL;
	if (k == PMU__ENC_AMD64 || k == PMU__ENC_INTEL || k == PMU__ENC_SEED)
		d = &x86_mods[m];
	else if (k == PMU__ENC_NETBURST)
		d = &netburst_mods[m];
	else if (k == PMU__ENC_CONFIG)
		d = &config_mods[m];
	return d && d->name[0] ? d : NULL;
}
