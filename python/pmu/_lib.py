# SPDX-License-Identifier: MIT
"""libpmu through ctypes: the library, its public structs and calls.

Every struct here mirrors one of <pmu/*.h> field for field; the tests
compare their layouts with the C compiler's.
"""
import ctypes
import ctypes.util
import os
from ctypes import (POINTER, Structure, c_bool, c_char, c_char_p, c_double,
                    c_int, c_int32, c_size_t, c_ssize_t, c_uint, c_uint8,
                    c_uint32, c_uint64, c_void_p)

c_pid_t = c_int32


def _load():
    """libpmu: $PMU_LIBPMU, else libpmu.so.0 on the loader's path."""
    path = os.environ.get("PMU_LIBPMU")
    if path:
        return ctypes.CDLL(path)
    try:
        return ctypes.CDLL("libpmu.so.0")
    except OSError:
        found = ctypes.util.find_library("pmu")
        if not found:
            raise ImportError(
                "libpmu.so.0 not found: install pmu (make install) or set "
                "PMU_LIBPMU to the library's path") from None
        return ctypes.CDLL(found)


lib = _load()


class Error(Structure):
    _fields_ = [("size", c_size_t), ("code", c_int), ("kind", c_int),
                ("offset", c_int), ("index", c_int),
                ("token", c_char * 64), ("message", c_char * 512)]


class Value(Structure):
    _fields_ = [("size", c_size_t), ("raw", c_uint64), ("enabled", c_uint64),
                ("running", c_uint64), ("scaled", c_uint64),
                ("status", c_int), ("err", c_int), ("scaled_err", c_uint64)]


class SessionOpts(Structure):
    _fields_ = [("sz", c_size_t), ("driver", c_char_p), ("model", c_char_p),
                ("emu", c_char_p)]


class OpenOpts(Structure):
    _fields_ = [("sz", c_size_t), ("target", c_int), ("pid", c_pid_t),
                ("cpus", c_char_p), ("inherit", c_bool),
                ("no_mmap_read", c_bool), ("pids", POINTER(c_pid_t)),
                ("npids", c_size_t), ("start_stopped", c_bool),
                ("skip_gone", c_bool)]


class StatOpts(Structure):
    _fields_ = [("sz", c_size_t), ("mode", c_int), ("cache_level", c_int),
                ("no_merge", c_bool)]


class Aggr(Structure):
    _fields_ = [("size", c_size_t), ("cpu", c_int), ("socket", c_int),
                ("die", c_int), ("core", c_int), ("node", c_int),
                ("cache_level", c_int), ("cache_id", c_int),
                ("tid", c_pid_t), ("comm", c_char * 16), ("nr", c_int)]


class CatalogInfo(Structure):
    _fields_ = [("size", c_size_t), ("name", c_char_p), ("desc", c_char_p),
                ("aliases", POINTER(c_char_p)), ("nevents", c_size_t),
                ("nmodifiers", c_size_t), ("ncounters", c_size_t),
                ("nfixed", c_size_t), ("is_host", c_bool),
                ("arch", c_char_p), ("pmu", c_char_p),
                ("patterns", c_char_p), ("hybrid", c_char_p),
                ("twin", c_char_p), ("nmetrics", c_size_t)]


class EventInfo(Structure):
    _fields_ = [("size", c_size_t), ("name", c_char_p), ("desc", c_char_p),
                ("code", c_uint64), ("code2", c_uint64), ("cntmsk", c_uint64),
                ("nattrs", c_size_t), ("numasks", c_size_t),
                ("precise", c_bool)]


class AttrInfo(Structure):
    _fields_ = [("size", c_size_t), ("name", c_char_p), ("desc", c_char_p),
                ("type", c_int), ("code", c_uint64), ("is_default", c_bool),
                ("exclusive", c_bool), ("group", c_int)]


class EncodeOpts(Structure):
    _fields_ = [("sz", c_size_t), ("model", c_char_p), ("dfl_plm", c_uint),
                ("events_dir", c_char_p), ("flags", c_uint)]


class EncodingPerf(Structure):
    _fields_ = [("type", c_uint32), ("config", c_uint64),
                ("config1", c_uint64), ("config2", c_uint64),
                ("exclude_user", c_uint8), ("exclude_kernel", c_uint8),
                ("exclude_hv", c_uint8), ("exclude_host", c_uint8),
                ("exclude_guest", c_uint8), ("precise_ip", c_uint8)]


class Encoding(Structure):
    _fields_ = [("size", c_size_t), ("pmu", c_char * 32),
                ("event", c_char * 64), ("ncodes", c_int),
                ("codes", c_uint64 * 4), ("fstr", c_char * 512),
                ("perf_fstr", c_char * 512), ("has_perf", c_bool),
                ("perf", EncodingPerf), ("error", c_int),
                ("cntmsk", c_uint64), ("perf_pmu", c_char * 32),
                ("sample_period", c_uint64)]


class MetricSetOpts(Structure):
    _fields_ = [("sz", c_size_t), ("model", c_char_p), ("no_group", c_bool)]


class MetricValue(Structure):
    _fields_ = [("size", c_size_t), ("name", c_char_p), ("unit", c_char_p),
                ("value", c_double), ("leader", c_ssize_t),
                ("missing", c_char_p)]


class ProfileOpts(Structure):
    _fields_ = [("sz", c_size_t), ("no_lines", c_bool),
                ("no_inline", c_bool), ("max_stack", c_uint)]


class ProfileInfo(Structure):
    _fields_ = [("size", c_size_t), ("nevents", c_size_t),
                ("nsamples", c_uint64), ("lost", c_uint64),
                ("nlost_records", c_uint64), ("total_period", c_uint64),
                ("foreign_endian", c_bool), ("truncated", c_bool),
                ("corrupt", c_bool), ("unknown_records", c_uint64),
                ("unknown_features", c_uint), ("hostname", c_char_p),
                ("os_release", c_char_p), ("arch", c_char_p),
                ("cpu_desc", c_char_p), ("cmdline", c_char_p),
                ("version", c_char_p), ("first_time", c_uint64),
                ("last_time", c_uint64), ("callchains", c_bool)]


class Sample(Structure):
    _fields_ = [("size", c_size_t), ("event", c_size_t), ("pid", c_uint32),
                ("tid", c_uint32), ("cpu", c_uint32), ("time", c_uint64),
                ("period", c_uint64), ("ip", c_uint64), ("comm", c_char_p),
                ("kernel", c_bool), ("nframes", c_size_t)]


class Frame(Structure):
    _fields_ = [("size", c_size_t), ("ip", c_uint64), ("addr", c_uint64),
                ("sym", c_char_p), ("sym_off", c_uint64), ("dso", c_char_p),
                ("dso_short", c_char_p), ("srcfile", c_char_p),
                ("line", c_uint), ("kind", c_int)]


# the structs as the C header names them (the layout test's map)
STRUCTS = {
    "pmu_error": Error, "pmu_value": Value,
    "pmu_session_opts": SessionOpts, "pmu_open_opts": OpenOpts,
    "pmu_stat_opts": StatOpts, "pmu_aggr": Aggr,
    "pmu_catalog_info": CatalogInfo, "pmu_event_info": EventInfo,
    "pmu_attr_info": AttrInfo, "pmu_encode_opts": EncodeOpts,
    "pmu_encoding_perf": EncodingPerf, "pmu_encoding": Encoding,
    "pmu_metric_set_opts": MetricSetOpts,
    "pmu_metric_value": MetricValue, "pmu_profile_opts": ProfileOpts,
    "pmu_profile_info": ProfileInfo, "pmu_sample": Sample,
    "pmu_frame": Frame,
}

_E = POINTER(Error)
_S = c_void_p   # struct pmu_session *


def _proto(name, restype, *argtypes):
    fn = getattr(lib, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)


_proto("pmu_version", c_char_p)
_proto("pmu_strerror", c_char_p, c_int)
# what the library allocates for the caller (pmu_session_command's list)
free = ctypes.CDLL(None).free
free.restype = None
free.argtypes = [c_void_p]
_proto("pmu_error_kind_name", c_char_p, c_int)
# sessions
_proto("pmu_session_new_opts", _S, POINTER(SessionOpts), _E)
_proto("pmu_session_free", None, _S)
_proto("pmu_session_add", c_int, _S, c_char_p, _E)
_proto("pmu_session_nevents", c_size_t, _S)
_proto("pmu_session_event_name", c_char_p, _S, c_size_t)
_proto("pmu_session_event_unit", c_char_p, _S, c_size_t, POINTER(c_double))
_proto("pmu_session_event_status", c_int, _S, c_size_t, POINTER(c_int))
_proto("pmu_session_event_reason", c_char_p, _S, c_size_t)
_proto("pmu_session_set_cgroup", c_int, _S, c_size_t, c_char_p, _E)
_proto("pmu_session_open", c_int, _S, POINTER(OpenOpts), _E)
_proto("pmu_session_start", c_int, _S)
_proto("pmu_session_stop", c_int, _S)
_proto("pmu_session_reset", c_int, _S)
_proto("pmu_session_read", c_ssize_t, _S, POINTER(Value), c_size_t)
_proto("pmu_session_feed", c_int, _S, c_char_p, c_size_t, _E)
_proto("pmu_session_command", c_int, _S, POINTER(c_char_p),
       POINTER(POINTER(c_char_p)), _E)
_proto("pmu_session_driver", c_char_p, _S)
_proto("pmu_session_model", c_char_p, _S)
# the counting engine
_proto("pmu_stat_new", c_void_p, _S, POINTER(StatOpts), _E)
_proto("pmu_stat_free", None, c_void_p)
_proto("pmu_stat_naggr", c_size_t, c_void_p)
_proto("pmu_stat_aggr", c_int, c_void_p, c_size_t, POINTER(Aggr))
_proto("pmu_stat_read", c_ssize_t, c_void_p, POINTER(Value), c_size_t)
_proto("pmu_stat_folded", c_bool, c_void_p, c_size_t)
# metrics
_proto("pmu_metric_set_new", c_void_p, c_char_p, POINTER(MetricSetOpts), _E)
_proto("pmu_metric_set_free", None, c_void_p)
_proto("pmu_metric_set_add", c_int, c_void_p, _S, _E)
_proto("pmu_metric_set_count", c_size_t, c_void_p)
_proto("pmu_metric_set_value", c_int, c_void_p, c_size_t, POINTER(c_double),
       c_size_t, c_double, POINTER(MetricValue), _E)
# the catalog and encoding
_proto("pmu_catalog_count", c_size_t)
_proto("pmu_catalog_find", c_ssize_t, c_char_p)
_proto("pmu_catalog_suggest", c_char_p, c_char_p)
_proto("pmu_catalog_info", c_int, c_size_t, POINTER(CatalogInfo))
_proto("pmu_catalog_event_info", c_int, c_size_t, c_size_t,
       POINTER(EventInfo))
_proto("pmu_catalog_attr_info", c_int, c_size_t, c_size_t, c_size_t,
       POINTER(AttrInfo))
_proto("pmu_event_host_model", c_char_p)
_proto("pmu_event_encode", c_int, c_char_p, POINTER(EncodeOpts),
       POINTER(Encoding), _E)
# regions
for _n in ("pmu_region_begin", "pmu_region_end"):
    _proto(_n, c_int, c_char_p)
_proto("pmu_region_flush", c_int)
_proto("pmu_region_active", c_bool)
# perf.data
_proto("pmu_profile_open", c_void_p, c_char_p, POINTER(ProfileOpts), _E)
_proto("pmu_profile_close", None, c_void_p)
_proto("pmu_profile_info", c_int, c_void_p, POINTER(ProfileInfo))
_proto("pmu_profile_event_name", c_char_p, c_void_p, c_size_t)
_proto("pmu_profile_next", c_int, c_void_p, POINTER(Sample))
_proto("pmu_profile_frame", c_int, c_void_p, c_size_t, POINTER(Frame))
_proto("pmu_profile_rewind", c_int, c_void_p)
