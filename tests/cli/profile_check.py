#!/usr/bin/env python3
# Helpers of the profiling tests, written from the perf.data format
# description (perf's perf.data-file-format.txt) and the output formats
# themselves, independently of pmu's code:
#
#   profile_check.py rows FILE             "pct sym" per report row (perf's or
#                                          pmu's --stdio text)
#   profile_check.py compare A B MIN TOL   rows >= MIN% of A and B name the same
#                                          symbols with percentages within TOL
#                                          (LOW:HIGH: B's at most LOW below
#                                          and HIGH above A's)
#   profile_check.py swap IN OUT           IN rewritten in the other byte order
#   profile_check.py inject IN OUT         IN with a record of an unknown type
#                                          and an unknown header feature added
#   profile_check.py svg FILE              flame graph structure (see below)
#   profile_check.py firefox FILE          Firefox Profiler tables consistent
import json
import re
import struct
import sys
import xml.etree.ElementTree as ET

ROW = re.compile(r'^\s+(\d+\.\d+)%\s+(?:\d+\.\d+%\s+)?(\S.*?)\s*$')


def rows(path):
    out = []
    for line in open(path, errors='replace'):
        if line.startswith('#'):
            continue
        m = ROW.match(line)
        # every report row: "[.] sym" rows, and rows of sorts without a
        # symbol (dso, comm), which name no "[.]"
        if m:
            out.append((float(m.group(1)), m.group(2).strip()))
    return out


def compare(a, b, minpct, tol):
    """tol: B's share within tol points of A's, or "LOW:HIGH": B's at most
    LOW points below A's and HIGH above."""
    low, _, high = str(tol).partition(':')
    low = float(low)
    high = float(high) if high else low
    ra, rb = rows(a), rows(b)
    da = {s: p for p, s in ra}
    db = {s: p for p, s in rb}
    bad = 0
    n = 0
    for p, s in ra:
        if p < minpct:
            continue
        n += 1
        if s not in db:
            print('# %s (%.2f%%) missing from %s' % (s, p, b))
            bad += 1
        elif db[s] - p > high or p - db[s] > low:
            print('# %s: %.2f%% vs %.2f%%' % (s, p, db[s]))
            bad += 1
    for p, s in rb:
        if p >= minpct and s not in da:
            print('# %s (%.2f%%) missing from %s' % (s, p, a))
            bad += 1
    if n == 0:
        print('# no row of %s reaches %.2f%%' % (a, minpct))
        bad += 1
    return bad


# ---- byte order ----

ATTR_FIELDS = [(0, 4), (4, 4), (8, 8), (16, 8), (24, 8), (32, 8), (48, 4),
               (52, 4), (56, 8), (64, 8), (72, 8), (80, 8), (88, 4), (92, 4),
               (96, 8), (104, 4), (108, 2), (110, 2), (112, 4), (116, 4),
               (120, 8), (128, 8)]
FMT = {2: 'H', 4: 'I', 8: 'Q'}


def revbits(b):
    return int('{:08b}'.format(b)[::-1], 2)


def swap_attr(raw):
    out = bytearray(raw)
    for off, w in ATTR_FIELDS:
        if off + w > len(raw):
            break
        v = struct.unpack_from('<' + FMT[w], raw, off)[0]
        struct.pack_into('>' + FMT[w], out, off, v)
    # bit fields: a big-endian compiler fills each byte from the top
    for o in range(40, 48):
        out[o] = revbits(raw[o])
    return bytes(out)


def sid_fields(st):
    # sample_id trailer: TID TIME ID STREAM_ID CPU IDENTIFIER
    f = []
    for bit, kind in ((1 << 1, 'pair'), (1 << 2, 'q'), (1 << 6, 'q'),
                      (1 << 9, 'q'), (1 << 7, 'pair'), (1 << 16, 'q')):
        if st & bit:
            f.append(kind)
    return f


def swap_u64s(raw, kinds):
    out = b''
    for i, k in enumerate(kinds):
        chunk = raw[8 * i:8 * i + 8]
        if k == 'pair':
            a, b = struct.unpack('<II', chunk)
            out += struct.pack('>II', a, b)
        else:
            out += struct.pack('>Q', struct.unpack('<Q', chunk)[0])
    return out


def sample_kinds(st, body_len):
    kinds = []
    order = [(1 << 16, 'q'), (1 << 0, 'q'), (1 << 1, 'pair'), (1 << 2, 'q'),
             (1 << 3, 'q'), (1 << 6, 'q'), (1 << 9, 'q'), (1 << 7, 'pair'),
             (1 << 8, 'q')]
    for bit, k in order:
        if st & bit:
            kinds.append(k)
    # the rest (call chain, ...) is all u64
    while len(kinds) * 8 < body_len:
        kinds.append('q')
    return kinds


def swap_record(rec, st, sid_all):
    typ, misc, size = struct.unpack_from('<IHH', rec)
    head = struct.pack('>IHH', typ, misc, size)
    body = rec[8:]
    if typ == 9:  # SAMPLE
        return head + swap_u64s(body, sample_kinds(st, len(body)))
    sid = sid_fields(st) if sid_all and typ < 64 else []
    tail_len = 8 * len(sid)
    fixed = b''
    if typ in (1, 10):  # MMAP, MMAP2: pid tid start len pgoff ...
        fixed = struct.pack('>II', *struct.unpack_from('<II', body))
        fixed += struct.pack('>QQQ', *struct.unpack_from('<QQQ', body, 8))
        at = 32
        if typ == 10:
            fixed += struct.pack('>II', *struct.unpack_from('<II', body, 32))
            fixed += struct.pack('>QQ', *struct.unpack_from('<QQ', body, 40))
            fixed += struct.pack('>II', *struct.unpack_from('<II', body, 56))
            at = 64
        rest = body[at:len(body) - tail_len]
    elif typ == 3:  # COMM
        fixed = struct.pack('>II', *struct.unpack_from('<II', body))
        rest = body[8:len(body) - tail_len]
    elif typ in (4, 7):  # EXIT, FORK
        fixed = struct.pack('>IIII', *struct.unpack_from('<IIII', body))
        fixed += struct.pack('>Q', *struct.unpack_from('<Q', body, 16))
        rest = body[24:len(body) - tail_len]
    elif typ == 2:  # LOST
        fixed = struct.pack('>QQ', *struct.unpack_from('<QQ', body))
        rest = body[16:len(body) - tail_len]
    else:
        rest = body[:len(body) - tail_len]
    tail = swap_u64s(body[len(body) - tail_len:], sid) if tail_len else b''
    return head + fixed + rest + tail


def read_header(d):
    magic, hsize, attr_size = struct.unpack_from('<8sQQ', d)
    assert magic == b'PERFILE2', 'not a little-endian perf.data file'
    attrs = struct.unpack_from('<QQ', d, 24)
    data = struct.unpack_from('<QQ', d, 40)
    feats = struct.unpack_from('<4Q', d, 72)
    return hsize, attr_size, attrs, data, feats


def attrs_of(d, attr_size, attrs):
    out = []
    for i in range(attrs[1] // attr_size):
        o = attrs[0] + i * attr_size
        raw = d[o:o + attr_size - 16]
        ids = struct.unpack_from('<QQ', d, o + attr_size - 16)
        out.append((raw, ids))
    return out


def records(d, data):
    at, end = data[0], data[0] + data[1]
    while at + 8 <= end:
        size = struct.unpack_from('<H', d, at + 6)[0]
        if size < 8:
            break
        yield d[at:at + size]
        at += size


def swap(src, dst):
    d = open(src, 'rb').read()
    hsize, attr_size, attrs, data, feats = read_header(d)
    al = attrs_of(d, attr_size, attrs)
    st = struct.unpack_from('<Q', al[0][0], 24)[0]
    sid_all = (struct.unpack_from('<Q', al[0][0], 40)[0] >> 18) & 1
    # layout: header, attrs, ids, data; no header features
    out = bytearray(104)
    attr_off = 104
    ids_off = attr_off + len(al) * attr_size
    idblob = b''
    entries = b''
    for raw, (ioff, isz) in al:
        ids = d[ioff:ioff + isz]
        entries += swap_attr(raw) + struct.pack('>QQ', ids_off + len(idblob),
                                                isz)
        idblob += b''.join(struct.pack('>Q', v) for v in
                           struct.unpack('<%dQ' % (isz // 8), ids))
    data_off = ids_off + len(idblob)
    body = b''.join(swap_record(r, st, sid_all) for r in records(d, data))
    struct.pack_into('>8sQQQQQQQQ4Q', out, 0, b'2ELIFREP', 104, attr_size,
                     attr_off, len(entries), data_off, len(body), 0, 0,
                     0, 0, 0, 0)
    open(dst, 'wb').write(bytes(out) + entries + idblob + body)


def inject(src, dst):
    d = open(src, 'rb').read()
    hsize, attr_size, attrs, data, feats = read_header(d)
    # a record of a type no perf knows (200), 16 bytes, first
    unknown = struct.pack('<IHHQ', 200, 0, 16, 0xdeadbeef)
    new_data = d[data[0]:data[0] + data[1]]
    body = d[:data[0]] + unknown + new_data
    secs = []
    at = data[0] + data[1]
    for bit in range(256):
        if feats[bit // 64] >> (bit % 64) & 1:
            secs.append((bit, struct.unpack_from('<QQ', d, at)))
            at += 16
    secs.append((200, None))  # a feature bit no perf defines
    table_at = len(body)
    contents = b''
    table = b''
    first = table_at + 16 * len(secs)
    for bit, sec in secs:
        blob = d[sec[0]:sec[0] + sec[1]] if sec else b'\x01\x02\x03\x04'
        table += struct.pack('<QQ', first + len(contents), len(blob))
        contents += blob
    f = list(feats)
    f[200 // 64] |= 1 << (200 % 64)
    hdr = bytearray(body[:104])
    struct.pack_into('<QQ', hdr, 40, data[0], data[1] + 16)
    struct.pack_into('<4Q', hdr, 72, *f)
    open(dst, 'wb').write(bytes(hdr) + body[104:] + table + contents)


# ---- flame graph ----

def svg(path):
    ns = '{http://www.w3.org/2000/svg}'
    root = ET.parse(path).getroot()
    frames = root.find(ns + 'g[@id="frames"]')
    assert frames is not None, 'no frames group'
    by_id = {}
    kids = {}
    for g in frames.findall(ns + 'g'):
        i = int(g.get('data-id'))
        p = int(g.get('data-p'))
        rect = g.find(ns + 'rect')
        title = g.find(ns + 'title').text
        v = int(g.get('data-v'))
        by_id[i] = (v, float(rect.get('width')), title, p)
        kids.setdefault(p, []).append(i)
        # a title carries the count and the share
        m = re.search(r'\((\d+), (\d+\.\d+)%', title)
        assert m and int(m.group(1)) == v, 'title without count: %r' % title
    bad = 0
    for p, cs in kids.items():
        if p < 0:
            continue
        pv, pw = by_id[p][0], by_id[p][1]
        sv = sum(by_id[c][0] for c in cs)
        sw = sum(by_id[c][1] for c in cs)
        if sv > pv:
            print('# children of %s add to %d > %d' % (by_id[p][2], sv, pv))
            bad += 1
        if sw > pw + 0.05 * len(cs):
            print('# children of %s are wider (%.2f) than it (%.2f)' %
                  (by_id[p][2], sw, pw))
            bad += 1
    if not kids.get(-1):
        print('# no root frame')
        bad += 1
    else:
        print('root %d' % by_id[kids[-1][0]][0])
    return bad


def firefox(path):
    prof = json.load(open(path))
    bad = 0
    for t in prof['threads']:
        st, fr, fn = t['stackTable'], t['frameTable'], t['funcTable']
        for k, tab in (('stackTable', st), ('frameTable', fr),
                       ('funcTable', fn)):
            for col, v in tab.items():
                if isinstance(v, list) and len(v) != tab['length']:
                    print('# %s.%s has %d entries, length %d' %
                          (k, col, len(v), tab['length']))
                    bad += 1
        for i, (p, f) in enumerate(zip(st['prefix'], st['frame'])):
            if p is not None and p >= i or f >= fr['length']:
                print('# stack %d: prefix %s frame %d' % (i, p, f))
                bad += 1
        for s in t['samples']['stack']:
            if s is not None and s >= st['length']:
                bad += 1
        for f in fn['name']:
            if f >= len(t['stringArray']):
                bad += 1
        times = t['samples']['time']
        if times != sorted(times):
            print('# samples out of time order')
            bad += 1
    print('threads %d samples %d' % (len(prof['threads']),
                                     sum(t['samples']['length']
                                         for t in prof['threads'])))
    return bad


def main():
    cmd = sys.argv[1]
    if cmd == 'rows':
        for p, s in rows(sys.argv[2]):
            print('%.2f %s' % (p, s))
        return 0
    if cmd == 'compare':
        return 1 if compare(sys.argv[2], sys.argv[3], float(sys.argv[4]),
                            sys.argv[5]) else 0
    if cmd == 'swap':
        swap(sys.argv[2], sys.argv[3])
        return 0
    if cmd == 'inject':
        inject(sys.argv[2], sys.argv[3])
        return 0
    if cmd == 'svg':
        return 1 if svg(sys.argv[2]) else 0
    if cmd == 'firefox':
        return 1 if firefox(sys.argv[2]) else 0
    return 2


if __name__ == '__main__':
    sys.exit(main())
