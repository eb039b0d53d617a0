/* SPDX-License-Identifier: MIT */
/*
 * libpmu-markers.so: the marker calls of PAPI's high-level API and of
 * LIKWID's marker API, as pmu regions.  A program built against either
 * library runs unchanged under `pmu stat --regions`, which preloads this
 * library when the program calls them (or link it instead of
 * libpapi/liblikwid): each named region becomes a pmu region of the
 * calling thread, counted with pmu's events and reported by pmu.
 *
 * Only the markers: the calls that read results back inside the
 * program (PAPI_hl_read, likwid_markerGetRegion) report nothing.  The
 * C signatures are those of papi.h (PAPI 7) and likwid-marker.h (LIKWID
 * 5); the Fortran ones those of gfortran's calling convention (a hidden
 * length after the arguments) that LIKWID's Fortran module uses.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <pmu/region.h>

#define EXPORT __attribute__((visibility("default")))

/* PAPI's return codes. */
#define PAPI_OK 0
#define PAPI_EINVAL (-1)

EXPORT int PAPI_hl_region_begin(const char *region);
EXPORT int PAPI_hl_region_end(const char *region);
EXPORT int PAPI_hl_read(const char *region);
EXPORT int PAPI_hl_stop(void);

EXPORT int PAPI_hl_region_begin(const char *region)
{
	return pmu_region_begin(region) ? PAPI_EINVAL : PAPI_OK;
}

EXPORT int PAPI_hl_region_end(const char *region)
{
	return pmu_region_end(region) ? PAPI_EINVAL : PAPI_OK;
}

EXPORT int PAPI_hl_read(const char *region)
{
	return region && *region ? PAPI_OK : PAPI_EINVAL;
}

EXPORT int PAPI_hl_stop(void)
{
	return PAPI_OK;
}

/* ---- LIKWID, C ---- */

EXPORT void likwid_markerInit(void);
EXPORT void likwid_markerThreadInit(void);
EXPORT void likwid_markerNextGroup(void);
EXPORT void likwid_markerClose(void);
EXPORT int likwid_markerRegisterRegion(const char *regionTag);
EXPORT int likwid_markerStartRegion(const char *regionTag);
EXPORT int likwid_markerStopRegion(const char *regionTag);
EXPORT int likwid_markerResetRegion(const char *regionTag);
EXPORT void likwid_markerGetRegion(const char *regionTag, int *nr_events,
				   double *events, double *time, int *count);

EXPORT void likwid_markerInit(void)
{
}

EXPORT void likwid_markerThreadInit(void)
{
}

EXPORT void likwid_markerNextGroup(void)
{
}

EXPORT void likwid_markerClose(void)
{
}

EXPORT int likwid_markerRegisterRegion(const char *regionTag)
{
	return regionTag && *regionTag ? 0 : -22;
}

EXPORT int likwid_markerStartRegion(const char *regionTag)
{
	return pmu_region_begin(regionTag);
}

EXPORT int likwid_markerStopRegion(const char *regionTag)
{
	return pmu_region_end(regionTag);
}

EXPORT int likwid_markerResetRegion(const char *regionTag)
{
	return regionTag && *regionTag ? 0 : -22;
}

EXPORT void likwid_markerGetRegion(const char *regionTag, int *nr_events,
				   double *events, double *time, int *count)
{
	(void)regionTag;
	(void)events;
	if (nr_events)
		*nr_events = 0;
	if (time)
		*time = 0;
	if (count)
		*count = 0;
}

/* ---- LIKWID, Fortran ---- */

/* A Fortran string (blank-padded, len bytes) as a C one. */
static const char *ftag(const char *s, size_t len, char *buf, size_t size)
{
	while (len && s[len - 1] == ' ')
		len--;
	if (len >= size)
		len = size - 1;
	memcpy(buf, s, len);
	buf[len] = 0;
	return buf;
}

EXPORT void likwid_markerinit_(void);
EXPORT void likwid_markerthreadinit_(void);
EXPORT void likwid_markernextgroup_(void);
EXPORT void likwid_markerclose_(void);
EXPORT void likwid_markerregisterregion_(const char *tag, size_t len);
EXPORT void likwid_markerstartregion_(const char *tag, size_t len);
EXPORT void likwid_markerstopregion_(const char *tag, size_t len);
EXPORT void likwid_markerresetregion_(const char *tag, size_t len);
EXPORT void likwid_markergetregion_(const char *tag, int *nr_events,
				    double *events, double *time, int *count,
				    size_t len);

EXPORT void likwid_markerinit_(void)
{
}

EXPORT void likwid_markerthreadinit_(void)
{
}

EXPORT void likwid_markernextgroup_(void)
{
}

EXPORT void likwid_markerclose_(void)
{
}

EXPORT void likwid_markerregisterregion_(const char *tag, size_t len)
{
	(void)tag;
	(void)len;
}

EXPORT void likwid_markerstartregion_(const char *tag, size_t len)
{
	char buf[PMU_REGION_NAME_MAX];

	(void)pmu_region_begin(ftag(tag, len, buf, sizeof(buf)));
}

EXPORT void likwid_markerstopregion_(const char *tag, size_t len)
{
	char buf[PMU_REGION_NAME_MAX];

	(void)pmu_region_end(ftag(tag, len, buf, sizeof(buf)));
}

EXPORT void likwid_markerresetregion_(const char *tag, size_t len)
{
	(void)tag;
	(void)len;
}

EXPORT void likwid_markergetregion_(const char *tag, int *nr_events,
				    double *events, double *time, int *count,
				    size_t len)
{
	(void)len;
	likwid_markerGetRegion(tag, nr_events, events, time, count);
}
