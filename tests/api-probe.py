#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write a test that calls every public function of libpmu (every PMU_API
declaration of include/pmu/*.h) with valid arguments, then again with
each pointer argument NULL, each index at its largest, each enum out of
range and each int error code at its extremes.  Every call must return:
a crash, a sanitizer's report or a hang fails the test.  A function
added to the headers is probed without anyone writing its test.

usage: api-probe.py OUT.c HEADER...
"""
import re
import sys

# Valid values by type (const and spaces removed, pointers kept).
BY_TYPE = {
    'struct pmu_session*': 'mk_session()',
    'struct pmu_profile*': 'mk_profile()',
    'struct pmu_record*': 'mk_record()',
    'struct pmu_metric_expr*': 'mk_expr()',
    'struct pmu_metric_set*': 'mk_mset()',
    'struct pmu_stat*': 'mk_stat()',
    'struct pmu_region_report*': 'mk_region_report()',
    'struct pmu_region_recorder*': 'mk_recorder()',
    'struct pmu_hwmodel*': 'mk_hwmodel()',
    'struct pmu_control*': 'mk_control()',
    'struct pmu_sim*': 'mk_sim()',
    'struct pmu_simple*': 'mk_simple()',
    'struct pmu_error*': 'mk_err()',
    'FILE*': 'mk_file()',
}

# Valid strings and sizes where the type does not tell (function, name).
OVERRIDE = {
    ('pmu_control_parse', 'text'): 'PROBE_CONTROL',
    ('pmu_control_parse', 'len'): 'strlen(PROBE_CONTROL)',
    ('pmu_control_load', 'path'):
        'mk_file_with("control.json", PROBE_CONTROL)',
    ('pmu_profile_open', 'path'): 'mk_profile_path()',
    ('pmu_record_open', 'path'): 'mk_path("new.data")',
    ('pmu_record_open', 'opts'): 'mk_record_opts()',
    ('pmu_record_switch', 'done_path'): 'mk_path("done.data")',
    ('pmu_events_dir_check', 'dir'): 'probe_dir',
    ('pmu_stat_derive', 'cgroups'): 'mk_events()',
    ('pmu_perfmon_use', 'driver'): '"sim"',
    ('pmu_perfmon_use', 'model'): '"p6"',
    ('pmu_perfmon_feed', 'stream'): 'PROBE_STREAM',
    ('pmu_perfmon_feed', 'len'): 'strlen(PROBE_STREAM)',
    ('pmu_perfmon_scenario', 'text'): 'PROBE_SCENARIO',
    ('pmu_perfmon_scenario', 'len'): 'strlen(PROBE_SCENARIO)',
    ('pmu_perfmon_scenario', 'model'): '"p6"',
    ('pmu_perfmon_scenario', 'out'): 'probe_line',
    ('pmu_session_feed', 'stream'): 'PROBE_STREAM',
    ('pmu_session_feed', 'len'): 'strlen(PROBE_STREAM)',
    ('pmu_sim_run', 'stream'): 'PROBE_STREAM',
    ('pmu_sim_run', 'len'): 'strlen(PROBE_STREAM)',
    ('pmu_metric_expr_parse', 'text'): '"a + b * 2"',
    ('pmu_metric_set_new', 'list'): '"branch_misprediction_ratio"',
    ('pmu_metric_id_event', 'id'): '"instructions"',
    ('pmu_metric_literal', 'name'): '"#smt_on"',
    ('pmu_metric_unit', 'scale_unit'): '"1e-9s"',
    ('pmu_cpulist_parse', 'list'): '"0-1"',
    ('pmu_session_set_cgroup', 'cgroup'): '"/"',
    ('pmu_simple_open', 'device'): '"xscale1"',
    ('pmu_hwmodel_find', 'name'): '"p6"',
    ('pmu_hwmodel_closest', 'vendor'): '"GenuineIntel"',
    ('pmu_catalog_find', 'name'): '"zen4"',
    ('pmu_catalog_suggest', 'name'): '"zen"',
    ('pmu_catalog_event_find', 'name'): '"RETIRED_OPS"',
    ('pmu_catalog_uncore_find', 'name'): '"unc_cha_clockticks"',
    ('pmu_catalog_metric_find', 'name'): '"IPC"',
    ('pmu_event_encode', 'str'): '"cycles:u"',
    ('pmu_event_list_parse', 'list'): '"cycles,{task-clock,page-faults}"',
    ('pmu_assign', 'events'): 'mk_events()',
    ('pmu_assign', 'n'): '2',
    ('pmu_session_add', 'events'): '"cpu-clock"',
    ('pmu_report_write', 'base'): 'mk_profile()',
    ('pmu_record_poll', 'timeout_ms'): '0',
    ('pmu_session_sample_poll', 'timeout_ms'): '0',
}

# Functions that change what a session is, so they take one not yet
# open.
UNOPENED = {
    'pmu_session_add', 'pmu_session_open', 'pmu_session_add_set',
    'pmu_session_set_switch', 'pmu_session_set_cgroup',
    'pmu_metric_set_add', 'pmu_session_sample', 'pmu_session_command',
}

# Counts of work (n events to simulate): their largest value is not an
# edge but hours of simulation.
NO_MAX = {('pmu_simple_event', 'n'), ('pmu_simple_cycles', 'n')}

COUNT_NAMES = {'n', 'max', 'sz', 'len'}


def prototypes(paths):
    for path in paths:
        text = open(path).read()
        text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
        text = re.sub(r'//[^\n]*', ' ', text)
        for m in re.finditer(r'PMU_API\s+([^;{]*?)\)\s*;', text, re.S):
            decl = ' '.join(m.group(1).split())
            head, _, params = decl.partition('(')
            # the name is the last identifier before the parenthesis
            nm = re.search(r'(\w+)\s*$', head)
            ret = head[:nm.start()].strip()
            yield nm.group(1), ret, split_params(params)


def split_params(s):
    out, depth, cur = [], 0, ''
    for c in s:
        if c == ',' and depth == 0:
            out.append(cur.strip())
            cur = ''
            continue
        depth += c == '('
        depth -= c == ')'
        cur += c
    if cur.strip():
        out.append(cur.strip())
    if out == ['void']:
        return []
    return [p for p in out if p != '...']


def param(p):
    """(type, name, kind) of one parameter."""
    fp = re.match(r'(.*)\(\s*\*\s*(\w+)\s*\)\s*\((.*)\)$', p)
    if fp:
        return p, fp.group(2), 'fnptr'
    m = re.match(r'(.*?)(\w+)\s*(\[\s*\])?$', p)
    typ, name = m.group(1).strip(), m.group(2)
    if m.group(3):
        typ += '*'
    kind = 'ptr' if '*' in typ else 'val'
    return typ, name, kind


def norm(t):
    t = t.replace(' ', '')
    return re.sub(r'^const', '', t)


def sized_structs(paths):
    """Structures whose first member is their size."""
    out = set()
    for path in paths:
        text = open(path).read()
        for m in re.finditer(r'struct\s+(\w+)\s*\{\s*size_t\s+(size|sz)\s*;',
                             text):
            out.add(m.group(1))
    return out


def valid(fn, typ, name, kind, k, sized):
    if (fn, name) in OVERRIDE:
        return OVERRIDE[(fn, name)]
    if kind == 'fnptr':
        return 'probe_line'
    t = norm(typ)
    if t == 'structpmu_session*' and fn in UNOPENED:
        return 'mk_session_new()'
    if t.startswith('char*const') or t.startswith('char**const'):
        return 'mk_argv()'
    for key, expr in BY_TYPE.items():
        if t == key.replace(' ', ''):
            return expr
    if kind == 'ptr':
        if t == 'char*' and name in ('path', 'dir', 'text', 'list', 'str',
                                     'name', 'events', 'id', 'stream',
                                     'device', 'driver', 'model',
                                     'cgroup', 'vendor', 'scale_unit',
                                     'done_path'):
            return '"task-clock"'
        if t == 'char*':
            return '(char *)mk_buf(%d)' % k
        if t == 'char***':
            return '(char ***)mk_buf(%d)' % k
        st = re.match(r'struct(\w+)\*$', t)
        if st and st.group(1) in sized:
            return '(%s)mk_sized(%d, sizeof(struct %s))' % (
                typ, k, st.group(1))
        return '(%s)mk_buf(%d)' % (typ, k)
    if t == 'int' and name == 'fd':
        return 'mk_pfm_fd()'
    if t in ('size_t', 'ssize_t') and name in COUNT_NAMES:
        return '16'
    return '0'


def edges(fn, typ, name, kind):
    """Values beyond the valid one."""
    if kind != 'val' or (fn, name) in NO_MAX:
        return []
    t = norm(typ)
    if t.startswith('enum'):
        return ['(%s)999' % typ, '(%s)-1' % typ]
    if t == 'int' and name == 'timeout_ms':
        return []       # negative: wait forever, as poll(2)
    if t == 'int' and name != 'fd':
        return ['INT_MIN', 'INT_MAX', '-1']
    if t in ('size_t',) and name not in COUNT_NAMES:
        return ['SIZE_MAX']
    if t == 'ssize_t':
        return ['-1', 'SSIZE_MAX']
    if t in ('uint64_t',):
        return ['UINT64_MAX']
    if t == 'double':
        return ['NAN', '-1.0']
    return []


def main():
    out, headers = sys.argv[1], sys.argv[2:]
    sized = sized_structs(headers)
    body, tables, entries = [], [], []
    seen = set()
    for fn, ret, params in prototypes(headers):
        if fn in seen:
            continue
        seen.add(fn)
        ps = [param(p) for p in params]
        args = [valid(fn, t, n, kd, k, sized)
                for k, (t, n, kd) in enumerate(ps)]
        variants = [list(args)]
        for k, (t, n, kd) in enumerate(ps):
            if kd in ('ptr', 'fnptr'):
                v = list(args)
                v[k] = 'NULL'
                variants.append(v)
            for e in edges(fn, t, n, kd):
                v = list(args)
                v[k] = e
                variants.append(v)
        if len(ps) > 1 and any(kd != 'val' for _, _, kd in ps):
            variants.append([('NULL' if kd != 'val' else a)
                             for a, (_, _, kd) in zip(args, ps)])
        calls = []
        for j, v in enumerate(variants):
            cname = 'call_%s_%d' % (fn, j)
            text = '%s(%s)' % (fn, ', '.join(v))
            if '*' in ret:
                call = 'keep(%s)' % text
            else:
                call = '(void)%s' % text
            body.append('static void %s(void)\n{\n\t%s;\n}\n'
                        % (cname, call))
            calls.append('\t{ "%s", %s },' % (text.replace('"', '\\"'),
                                              cname))
        tables.append('static const struct probe_call calls_%s[] = {\n%s\n};\n'
                      % (fn, '\n'.join(calls)))
        entries.append('\t{ "%s", calls_%s, %d },' % (fn, fn, len(calls)))
    with open(out, 'w') as f:
        f.write('/* Generated by tests/api-probe.py from include/pmu. */\n')
        f.write('#include "api-probe.h"\n\n')
        f.write('#pragma GCC diagnostic ignored "-Wnonnull"\n')
        f.write('#pragma GCC diagnostic ignored "-Wuse-after-free"\n\n')
        f.write('\n'.join(body))
        f.write('\n'.join(tables))
        f.write('\nstatic const struct probe_fn fns[] = {\n%s\n};\n\n'
                % '\n'.join(entries))
        f.write('''int main(void)
{
	struct CMUnitTest t[sizeof(fns) / sizeof(fns[0])];

	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		t[i] = (struct CMUnitTest){ fns[i].name, probe_run, NULL,
					    NULL, (void *)&fns[i] };
	return _cmocka_run_group_tests("api-probe", t, sizeof(t) / sizeof(t[0]),
				       probe_setup, probe_teardown);
}
''')


if __name__ == '__main__':
    main()
