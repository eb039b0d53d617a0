/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "events/catalog.h"

ssize_t pmu__uncore_pos(const struct pmu__catmodel *m, const char *name,
			size_t n)
{
	uint32_t mask, p;

	if (!m || !m->uhash_size || !n)
		return -1;
	mask = m->uhash_size - 1;
	for (p = pmu__name_hash(name, n) & mask; m->uhash[p];
	     p = (p + 1) & mask) {
		uint32_t pos = m->uhash[p] - 1u;
		const char *s = m->ustrings + m->uev[m->ulist[pos]].name;

		if (!strncasecmp(s, name, n) && s[n] == '\0')
			return (ssize_t)pos;
	}
	return -1;
}

const struct pmu__uevent *pmu__uncore_find(const struct pmu__catmodel *m,
					   const char *name, size_t n)
{
	ssize_t pos = pmu__uncore_pos(m, name, n);

	return pos < 0 ? NULL : pmu__uncore_at(m, (size_t)pos);
}

int pmu__uncore_index(const struct pmu__catmodel *m, uint16_t *hash,
		      uint32_t size)
{
	uint32_t mask = size - 1;

	if (m->nuncore > 0xfffe || size <= m->nuncore || (size & mask))
		return -E2BIG;
	memset(hash, 0, size * sizeof(*hash));
	for (uint32_t i = 0; i < m->nuncore; i++) {
		const char *s = m->ustrings + m->uev[m->ulist[i]].name;
		uint32_t p = pmu__name_hash(s, strlen(s)) & mask;

		while (hash[p])
			p = (p + 1) & mask;
		hash[p] = (uint16_t)(i + 1);
	}
	return 0;
}

/* "_" and digits to the end, as perf reads an instance suffix: decimal
 * of any length, or hex of more than two digits (so that a name such as
 * s390's "cpum_cf" is not "cpum" and an instance "cf"). */
static bool instance_suffix(const char *s)
{
	size_t n = 0;
	bool hex = false;

	if (*s != '_' || !s[1])
		return false;
	for (s++; s[n]; n++) {
		if (!isxdigit((unsigned char)s[n]))
			return false;
		hex |= !isdigit((unsigned char)s[n]);
	}
	return !hex || n > 2;
}

bool pmu__uncore_pmu_match(const char *pmu, const char *inst)
{
	const char *comma = strchr(pmu, ','), *at;
	size_t n;

	if (!comma) {
		n = strlen(pmu);
		return !strncmp(pmu, inst, n) &&
		       (inst[n] == '\0' || instance_suffix(inst + n));
	}
	n = (size_t)(comma - pmu);
	if (strncmp(pmu, inst, n))
		return false;
	at = inst + n;
	for (const char *tok = comma + 1; *tok;) {
		const char *end = strchr(tok, ',');
		size_t tl = end ? (size_t)(end - tok) : strlen(tok);
		char part[64];

		if (!tl || tl >= sizeof(part))
			return false;
		memcpy(part, tok, tl);
		part[tl] = '\0';
		if (!(at = strstr(at, part)))
			return false;
		at += tl;
		tok += tl + (end ? 1 : 0);
	}
	return true;
}

/* Units whose perf PMU is not "uncore_" and the unit in lower case. */
static const struct {
	const char *unit, *pmu;
} unit_map[] = {
	{ "CBOX", "uncore_cbox" },       { "QPI LL", "uncore_qpi" },
	{ "SBO", "uncore_sbox" },        { "iMPH-U", "uncore_arb" },
	{ "CPU-M-SF", "cpum_sf" },       { "PAI-CRYPTO", "pai_crypto" },
	{ "PAI-EXT", "pai_ext" },        { "UPI LL", "uncore_upi" },
	{ "hisi_sicl,cpa", "hisi_sicl,cpa" },
	{ "hisi_sccl,ddrc", "hisi_sccl,ddrc" },
	{ "hisi_sccl,hha", "hisi_sccl,hha" },
	{ "hisi_sccl,l3c", "hisi_sccl,l3c" },
	{ "imx8_ddr", "imx8_ddr" },      { "imx9_ddr", "imx9_ddr" },
	{ "L3PMC", "amd_l3" },           { "DFPMC", "amd_df" },
	{ "UMCPMC", "amd_umc" },         { "ali_drw", "ali_drw" },
	{ "arm_cmn", "arm_cmn" },
};

const char *pmu__uncore_unit_pmu(const char *unit, char *buf, size_t sz)
{
	size_t i, n;

	if (!unit || !strcasecmp(unit, "cpu") || !strcasecmp(unit, "core") ||
	    !strcasecmp(unit, "cpu_core") || !strcasecmp(unit, "cpu_atom") ||
	    !strcasecmp(unit, "CPU-M-CF"))
		return NULL;
	for (i = 0; i < sizeof(unit_map) / sizeof(unit_map[0]); i++)
		if (!strcasecmp(unit, unit_map[i].unit)) {
			snprintf(buf, sz, "%s", unit_map[i].pmu);
			return buf;
		}
	n = (size_t)snprintf(buf, sz, "uncore_%s", unit);
	if (n >= sz)
		return NULL;
	for (i = 0; buf[i]; i++)
		buf[i] = (char)tolower((unsigned char)buf[i]);
	return buf;
}
