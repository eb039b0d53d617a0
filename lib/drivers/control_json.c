/* SPDX-License-Identifier: MIT */
/*
 * The control file: perfctr's field names in JSON.  Numbers are JSON
 * integers or "0x..." strings; arrays hold at most 18 elements; absent
 * fields are zero.  Every rejection names the field and element.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/model.h>

#include "drivers/control_json.h"
#include "util/error.h"
#include "util/outstruct.h"
#include "util/file.h"

static int field_error(struct pmu_error *err, const struct pmu_json *v,
		       const char *field, int index, const char *why)
{
	char name[64];

	if (index >= 0)
		snprintf(name, sizeof(name), "%s[%d]", field, index);
	else
		snprintf(name, sizeof(name), "%s", field);
	pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, name, -1,
		   "field '%s' (line %d, column %d): %s", name,
		   v ? v->line : 0, v ? v->col : 0, why);
	pmu__error_index(err, index);
	return -EINVAL;
}

/* A 32-bit field; `lo` is the smallest accepted value (negative only
 * for ireset, whose values are then stored as their 32-bit pattern). */
static int get_u32(const struct pmu_json *v, const char *field, int index,
		   int64_t lo, uint32_t *out, struct pmu_error *err)
{
	int64_t s;
	int rc;

	if (v->type != PMU_JSON_INT && v->type != PMU_JSON_STRING)
		return field_error(err, v, field, index,
				   "expected an integer or a \"0x...\" string");
	rc = pmu__json_int64(v, &s);
	if (rc == -EINVAL)
		return field_error(err, v, field, index,
				   "not a number (use decimal or \"0x...\")");
	if (rc == -ERANGE || s < lo || s > (int64_t)UINT32_MAX)
		return field_error(err, v, field, index,
				   lo < 0 ? "value out of 32-bit range"
					  : "value out of 32-bit unsigned range");
	*out = (uint32_t)s;
	return 0;
}

static int get_array(const struct pmu_json *v, const char *field, int64_t lo,
		     uint32_t *out, struct pmu_error *err)
{
	int rc;

	if (v->type != PMU_JSON_ARRAY)
		return field_error(err, v, field, -1, "expected an array");
	if (v->n > PMU_MAX_CTRS)
		return field_error(err, v, field, -1,
				   "more than 18 elements");
	for (size_t i = 0; i < v->n; i++) {
		rc = get_u32(v->items[i], field, (int)i, lo, &out[i], err);
		if (rc)
			return rc;
	}
	return 0;
}

static int get_bool(const struct pmu_json *v, const char *field,
		    uint32_t *out, struct pmu_error *err)
{
	if (v->type == PMU_JSON_BOOL) {
		*out = v->b;
		return 0;
	}
	return get_u32(v, field, -1, 0, out, err);
}

static int unknown_key(struct pmu_error *err, const struct pmu_json *v,
		       const char *prefix, const char *key)
{
	char name[64];

	/* An empty key still has to be named in the message. */
	snprintf(name, sizeof(name), "%s%s", prefix, key[0] ? key : "\"\"");
	return field_error(err, v, name, -1, "unknown field");
}

static int from_p4(const struct pmu_json *o, struct pmu_control *c,
		   struct pmu_error *err)
{
	int rc = 0;

	if (o->type != PMU_JSON_OBJECT)
		return field_error(err, o, "p4", -1, "expected an object");
	for (size_t i = 0; i < o->n && !rc; i++) {
		const char *k = o->keys[i];
		const struct pmu_json *v = o->items[i];

		if (!strcmp(k, "escr"))
			rc = get_array(v, "p4.escr", 0, c->p4.escr, err);
		else if (!strcmp(k, "pebs_enable"))
			rc = get_u32(v, "p4.pebs_enable", -1, 0,
				     &c->p4.pebs_enable, err);
		else if (!strcmp(k, "pebs_matrix_vert"))
			rc = get_u32(v, "p4.pebs_matrix_vert", -1, 0,
				     &c->p4.pebs_matrix_vert, err);
		else
			rc = unknown_key(err, v, "p4.", k);
	}
	return rc;
}

static int from_ppc(const struct pmu_json *o, struct pmu_control *c,
		    struct pmu_error *err)
{
	int rc = 0;

	if (o->type != PMU_JSON_OBJECT)
		return field_error(err, o, "ppc", -1, "expected an object");
	for (size_t i = 0; i < o->n && !rc; i++) {
		const char *k = o->keys[i];
		const struct pmu_json *v = o->items[i];

		if (!strcmp(k, "mmcr0"))
			rc = get_u32(v, "ppc.mmcr0", -1, 0, &c->ppc.mmcr0, err);
		else if (!strcmp(k, "mmcr2"))
			rc = get_u32(v, "ppc.mmcr2", -1, 0, &c->ppc.mmcr2, err);
		else
			rc = unknown_key(err, v, "ppc.", k);
	}
	return rc;
}

static int from_member(const char *k, const struct pmu_json *v,
		       struct pmu_control *c, struct pmu_error *err)
{
	if (!strcmp(k, "tsc_on"))
		return get_u32(v, k, -1, 0, &c->tsc_on, err);
	if (!strcmp(k, "nractrs"))
		return get_u32(v, k, -1, 0, &c->nractrs, err);
	if (!strcmp(k, "nrictrs"))
		return get_u32(v, k, -1, 0, &c->nrictrs, err);
	if (!strcmp(k, "pmc_map"))
		return get_array(v, k, 0, c->pmc_map, err);
	if (!strcmp(k, "evntsel"))
		return get_array(v, k, 0, c->evntsel, err);
	if (!strcmp(k, "ireset"))
		return get_array(v, k, INT32_MIN, (uint32_t *)c->ireset, err);
	if (!strcmp(k, "p4"))
		return from_p4(v, c, err);
	if (!strcmp(k, "ppc"))
		return from_ppc(v, c, err);
	if (!strcmp(k, "is_global"))
		return get_bool(v, k, &c->is_global, err);
	return unknown_key(err, v, "", k);
}

int pmu__control_from_json(const struct pmu_json *root, struct pmu_control *c,
			   struct pmu_error *err)
{
	int rc = 0;

	memset(c, 0, sizeof(*c));
	if (!root || root->type != PMU_JSON_OBJECT)
		return field_error(err, root, "(top level)", -1,
				   "a control is a JSON object");
	for (size_t i = 0; i < root->n && !rc; i++)
		rc = from_member(root->keys[i], root->items[i], c, err);
	return rc;
}

int pmu__control_parse(const char *text, size_t len, struct pmu_control *c,
		       struct pmu_error *err)
{
	struct pmu_json *root = pmu__json_parse(text, len, err);
	int rc;

	if (!root)
		return -errno;
	rc = pmu__control_from_json(root, c, err);
	pmu__json_free(root);
	return rc;
}

/* ---- public API ---- */

PMU_API struct pmu_control *pmu_control_parse(const char *text, size_t len,
					      struct pmu_error *err)
{
	struct pmu_control *c;
	int rc;

	if (!text && len) {
		errno = -pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				    "pmu_control_parse: no text");
		return NULL;
	}
	c = malloc(sizeof(*c));
	if (!c) {
		errno = ENOMEM;
		return NULL;
	}
	rc = pmu__control_parse(text, len, c, err);
	if (rc) {
		free(c);
		errno = -rc;
		return NULL;
	}
	return c;
}

#define CONTROL_FILE_MAX (1u << 20)

PMU_API struct pmu_control *pmu_control_load(const char *path,
					     struct pmu_error *err)
{
	struct pmu_control *c;
	size_t len;
	char *text;

	if (!path) {
		errno = -pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				    "pmu_control_load: no path");
		return NULL;
	}
	text = pmu__read_file(path, CONTROL_FILE_MAX, &len);
	if (!text) {
		int e = errno;

		pmu__error(err, -e, PMU_ERR_SYSTEM, path, -1, "%s: %s", path,
			   e == EFBIG ? "file too large" : strerror(e));
		errno = e;
		return NULL;
	}
	c = pmu_control_parse(text, len, err);
	free(text);
	return c;
}

PMU_API void pmu_control_free(struct pmu_control *c)
{
	free(c);
}

static void copy_str(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src ? src : "");
}

PMU_API int pmu_control_check(const struct pmu_hwmodel *m,
			      const struct pmu_control *c,
			      struct pmu_check_result *res)
{
	struct pmu_check_result o = { .size = sizeof(o) };
	struct pmu_control_result r;
	int rc;

	if (!m || !c || !pmu__out_ok(res, res ? res->size : 0))
		return -EINVAL;
	rc = pmu__control_check(m, c, c->is_global != 0, &r);
	o.ok = rc == 0;
	o.code = rc;
	copy_str(o.rule, sizeof(o.rule), r.rule);
	o.counter = r.counter;
	copy_str(o.field, sizeof(o.field), r.field);
	o.value = r.value;
	copy_str(o.message, sizeof(o.message), r.message);
	o.cstatus = r.cstatus;
	PMU__OUT(res, &o);
	return rc;
}
