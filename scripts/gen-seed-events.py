#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate lib/events/tables/seed_*.c: event tables of the historical
processors that only perfctr knew (P5, P6 family, WinChip, VIA C3,
PowerPC 60x/7xx/74xx, XScale).

The facts (event numbers, unit masks, counter restrictions) are kept here
in one place; the sources are listed in docs/assign.md.  Output is sorted
and stable:  scripts/gen-seed-events.py lib/events/tables
"""
import os
import sys

# ---- Pentium (P5) ---------------------------------------------------------
# (code, name, counters, duration).  Duration events count clocks while the
# condition holds, so their CESR half selects "count clocks" (bit 8).
P5_BASE = [
    (0x00, "DATA_READ", 3, 0),
    (0x01, "DATA_WRITE", 3, 0),
    (0x02, "DATA_TLB_MISS", 3, 0),
    (0x03, "DATA_READ_MISS", 3, 0),
    (0x04, "DATA_WRITE_MISS", 3, 0),
    (0x05, "WRITE_HIT_TO_M_OR_E_STATE_LINES", 3, 0),
    (0x06, "DATA_CACHE_LINES_WRITTEN_BACK", 3, 0),
    (0x07, "EXTERNAL_SNOOPS", 3, 0),
    (0x08, "EXTERNAL_DATA_CACHE_SNOOP_HITS", 3, 0),
    (0x09, "MEMORY_ACCESSES_IN_BOTH_PIPES", 3, 0),
    (0x0A, "BANK_CONFLICTS", 3, 0),
    (0x0B, "MISALIGNED_DATA_MEMORY_OR_IO_REFERENCES", 3, 0),
    (0x0C, "CODE_READ", 3, 0),
    (0x0D, "CODE_TLB_MISS", 3, 0),
    (0x0E, "CODE_CACHE_MISS", 3, 0),
    (0x0F, "ANY_SEGMENT_REGISTER_LOADED", 3, 0),
    (0x12, "BRANCHES", 3, 0),
    (0x13, "BTB_HITS", 3, 0),
    (0x14, "TAKEN_BRANCH_OR_BTB_HIT", 3, 0),
    (0x15, "PIPELINE_FLUSHES", 3, 0),
    (0x16, "INSTRUCTIONS_EXECUTED", 3, 0),
    (0x17, "INSTRUCTIONS_EXECUTED_V_PIPE", 3, 0),
    (0x18, "BUS_CYCLE_DURATION", 3, 1),
    (0x19, "WRITE_BUFFER_FULL_STALL_DURATION", 3, 1),
    (0x1A, "WAITING_FOR_DATA_MEMORY_READ_STALL_DURATION", 3, 1),
    (0x1B, "STALL_ON_WRITE_TO_AN_E_OR_M_STATE_LINE", 3, 1),
    (0x1C, "LOCKED_BUS_CYCLE", 3, 0),
    (0x1D, "IO_READ_OR_WRITE_CYCLE", 3, 0),
    (0x1E, "NONCACHEABLE_MEMORY_READS", 3, 0),
    (0x1F, "PIPELINE_AGI_STALLS", 3, 1),
    (0x22, "FLOPS", 3, 0),
    (0x23, "BREAKPOINT_MATCH_DR0_REGISTER", 3, 0),
    (0x24, "BREAKPOINT_MATCH_DR1_REGISTER", 3, 0),
    (0x25, "BREAKPOINT_MATCH_DR2_REGISTER", 3, 0),
    (0x26, "BREAKPOINT_MATCH_DR3_REGISTER", 3, 0),
    (0x27, "HARDWARE_INTERRUPTS", 3, 0),
    (0x28, "DATA_READ_OR_WRITE", 3, 0),
    (0x29, "DATA_READ_MISS_OR_WRITE_MISS", 3, 0),
]

# Pentium MMX: the same event number means different things on the two
# counters, so each name is bound to one counter.
P5MMX_EXTRA = [
    (0x2B, "MMX_INSTRUCTIONS_EXECUTED_U_PIPE", 1, 0),
    (0x2B, "MMX_INSTRUCTIONS_EXECUTED_V_PIPE", 2, 0),
    (0x2D, "EMMS_INSTRUCTIONS_EXECUTED", 1, 0),
    (0x2D, "TRANSITIONS_BETWEEN_MMX_AND_FP_INSTRUCTIONS", 2, 0),
    (0x30, "NUMBER_OF_CYCLES_NOT_IN_HALT_STATE", 1, 1),
    (0x30, "DATA_CACHE_TLB_MISS_STALL_DURATION", 2, 1),
    (0x32, "FLOATING_POINT_STALLS_DURATION", 1, 1),
    (0x32, "TAKEN_BRANCHES", 2, 0),
    (0x37, "MISPREDICTED_OR_UNPREDICTED_RETURNS", 1, 0),
    (0x37, "PREDICTED_RETURNS", 2, 0),
    (0x39, "RETURNS", 1, 0),
    (0x39, "RSB_OVERFLOWS", 2, 0),
]

WCC6 = [
    (0x00, "INTERNAL_CLOCKS", 3, 0),
    (0x01, "VALID_CYCLES_REACHING_WRITEBACK", 3, 0),
    (0x02, "X86_INSTRUCTIONS", 3, 0),
    (0x47, "DATA_READ_CACHE_MISSES", 3, 0),
    (0x4A, "DATA_WRITE_CACHE_MISSES", 3, 0),
    (0x63, "INSTRUCTION_FETCH_CACHE_MISSES", 3, 0),
]

# VIA C3: one programmable counter, perfctr's PMC1 (PMC0 aliases the TSC).
VC3 = [
    (0x79, "INTERNAL_CLOCKS", 2, 0),
    (0xC0, "INSTRUCTIONS_EXECUTED", 2, 0),
]

# ---- P6 family ------------------------------------------------------------
MESI = [("I", 0x01, "invalid", "D"), ("S", 0x02, "shared", "D"),
        ("E", 0x04, "exclusive", "D"), ("M", 0x08, "modified", "D")]
AGENT = [("SELF", 0x00, "this processor", "DX"),
         ("ANY", 0x20, "any bus agent", "X")]
SEGS = [("ES", 0x01, "ES", "D"), ("DS", 0x02, "DS", "D"),
        ("FS", 0x04, "FS", "D"), ("GS", 0x08, "GS", "D")]
KNI_PREF = [("NTA", 0x00, "prefetchnta", "DX"), ("T1", 0x01, "prefetcht0/t1", "X"),
            ("T2", 0x02, "prefetcht2", "X"), ("WEAK", 0x03, "weakly ordered stores", "X")]
KNI_RET = [("PACKED_AND_SCALAR", 0x00, "packed and scalar", "DX"),
           ("SCALAR", 0x01, "scalar only", "X")]

# (code, name, counters, umasks, description)
P6_BASE = [
    (0x03, "LD_BLOCKS", 3, None, "loads blocked by a store"),
    (0x04, "SB_DRAINS", 3, None, "store buffer drain cycles"),
    (0x05, "MISALIGN_MEM_REF", 3, None, "misaligned data references"),
    (0x06, "SEGMENT_REG_LOADS", 3, None, "segment register loads"),
    (0x10, "FP_COMP_OPS_EXE", 1, None, "floating-point operations executed"),
    (0x11, "FP_ASSIST", 2, None, "floating-point microcode assists"),
    (0x12, "MUL", 2, None, "multiplies"),
    (0x13, "DIV", 2, None, "divides"),
    (0x14, "CYCLES_DIV_BUSY", 1, None, "cycles the divider is busy"),
    (0x21, "L2_ADS", 3, None, "L2 address strobes"),
    (0x22, "L2_DBUS_BUSY", 3, None, "L2 data bus busy cycles"),
    (0x23, "L2_DBUS_BUSY_RD", 3, None, "L2 data bus busy transferring to the core"),
    (0x24, "L2_LINES_IN", 3, None, "lines allocated in L2"),
    (0x25, "L2_M_LINES_INM", 3, None, "modified lines allocated in L2"),
    (0x26, "L2_LINES_OUT", 3, None, "lines evicted from L2"),
    (0x27, "L2_M_LINES_OUTM", 3, None, "modified lines evicted from L2"),
    (0x28, "L2_IFETCH", 3, MESI, "L2 instruction fetches"),
    (0x29, "L2_LD", 3, MESI, "L2 data loads"),
    (0x2A, "L2_ST", 3, MESI, "L2 data stores"),
    (0x2E, "L2_RQSTS", 3, MESI, "L2 requests"),
    (0x43, "DATA_MEM_REFS", 3, None, "memory references (loads and stores)"),
    (0x45, "DCU_LINES_IN", 3, None, "lines allocated in the data cache"),
    (0x46, "DCU_M_LINES_IN", 3, None, "modified lines allocated in the data cache"),
    (0x47, "DCU_M_LINES_OUT", 3, None, "modified lines evicted from the data cache"),
    (0x48, "DCU_MISS_OUTSTANDING", 3, None, "weighted cycles of outstanding data cache misses"),
    (0x60, "BUS_REQ_OUTSTANDING", 3, None, "outstanding bus requests per cycle"),
    (0x61, "BUS_BNR_DRV", 3, None, "cycles this processor drives BNR"),
    (0x62, "BUS_DRDY_CLOCKS", 3, AGENT, "cycles DRDY is asserted"),
    (0x63, "BUS_LOCK_CLOCKS", 3, AGENT, "cycles LOCK is asserted"),
    (0x64, "BUS_DATA_RCV", 3, None, "bus cycles receiving data"),
    (0x65, "BUS_TRAN_BRD", 3, AGENT, "burst read transactions"),
    (0x66, "BUS_TRAN_RFO", 3, AGENT, "read-for-ownership transactions"),
    (0x67, "BUS_TRANS_WB", 3, AGENT, "write-back transactions"),
    (0x68, "BUS_TRAN_IFETCH", 3, AGENT, "instruction fetch transactions"),
    (0x69, "BUS_TRAN_INVAL", 3, AGENT, "invalidate transactions"),
    (0x6A, "BUS_TRAN_PWR", 3, AGENT, "partial write transactions"),
    (0x6B, "BUS_TRANS_P", 3, AGENT, "partial transactions"),
    (0x6C, "BUS_TRANS_IO", 3, AGENT, "I/O transactions"),
    (0x6D, "BUS_TRAN_DEF", 3, AGENT, "deferred transactions"),
    (0x6E, "BUS_TRAN_BURST", 3, AGENT, "burst transactions"),
    (0x6F, "BUS_TRAN_MEM", 3, AGENT, "memory transactions"),
    (0x70, "BUS_TRAN_ANY", 3, AGENT, "all bus transactions"),
    (0x79, "CPU_CLK_UNHALTED", 3, None, "cycles not halted"),
    (0x7A, "BUS_HIT_DRV", 3, None, "cycles this processor drives HIT"),
    (0x7B, "BUS_HITM_DRV", 3, None, "cycles this processor drives HITM"),
    (0x7E, "BUS_SNOOP_STALL", 3, None, "cycles the bus is snoop-stalled"),
    (0x80, "IFU_IFETCH", 3, None, "instruction fetches"),
    (0x81, "IFU_IFETCH_MISS", 3, None, "instruction fetch misses"),
    (0x85, "ITLB_MISS", 3, None, "instruction TLB misses"),
    (0x86, "IFU_MEM_STALL", 3, None, "cycles the fetch unit is stalled"),
    (0x87, "ILD_STALL", 3, None, "instruction length decoder stalls"),
    (0xA2, "RESOURCE_STALLS", 3, None, "cycles with a resource-related stall"),
    (0xC0, "INST_RETIRED", 3, None, "instructions retired"),
    (0xC1, "FLOPS", 1, None, "floating-point operations retired"),
    (0xC2, "UOPS_RETIRED", 3, None, "micro-operations retired"),
    (0xC4, "BR_INST_RETIRED", 3, None, "branches retired"),
    (0xC5, "BR_MISS_PRED_RETIRED", 3, None, "mispredicted branches retired"),
    (0xC6, "CYCLES_INT_MASKED", 3, None, "cycles with interrupts disabled"),
    (0xC7, "CYCLES_INT_PENDING_AND_MASKED", 3, None, "cycles with an interrupt pending while disabled"),
    (0xC8, "HW_INT_RX", 3, None, "hardware interrupts received"),
    (0xC9, "BR_TAKEN_RETIRED", 3, None, "taken branches retired"),
    (0xCA, "BR_MISS_PRED_TAKEN_RET", 3, None, "mispredicted taken branches retired"),
    (0xD0, "INST_DECODED", 3, None, "instructions decoded"),
    (0xD2, "PARTIAL_RAT_STALLS", 3, None, "cycles stalled on partial register writes"),
    (0xE0, "BR_INST_DECODED", 3, None, "branches decoded"),
    (0xE2, "BTB_MISSES", 3, None, "branches that missed the BTB"),
    (0xE4, "BR_BOGUS", 3, None, "bogus branches"),
    (0xE6, "BACLEARS", 3, None, "static branch prediction overrides"),
]

PII_EXTRA = [
    (0xB0, "MMX_INSTR_EXEC", 3, None, "MMX instructions executed"),
    (0xB1, "MMX_SAT_INSTR_EXEC", 3, None, "saturating MMX instructions executed"),
    (0xB2, "MMX_UOPS_EXEC", 3, [("ALL", 0x0F, "every MMX unit", "D")], "MMX micro-operations executed"),
    (0xB3, "MMX_INSTR_TYPE_EXEC", 3,
     [("MUL", 0x01, "packed multiply", "D"), ("SHIFT", 0x02, "packed shift", "D"),
      ("PACK", 0x04, "pack", "D"), ("UNPACK", 0x08, "unpack", "D"),
      ("LOGICAL", 0x10, "packed logical", "D"), ("ARITH", 0x20, "packed arithmetic", "D")],
     "MMX instructions executed by type"),
    (0xCC, "FP_MMX_TRANS", 3,
     [("TO_FP", 0x00, "from MMX to floating point", "DX"),
      ("FROM_FP", 0x01, "from floating point to MMX", "X")],
     "transitions between MMX and floating-point code"),
    (0xCD, "MMX_ASSIST", 3, None, "MMX microcode assists"),
    (0xCE, "MMX_INSTR_RET", 3, None, "MMX instructions retired"),
    (0xD4, "SEG_RENAME_STALLS", 3, SEGS, "stalls on segment register renaming"),
    (0xD5, "SEG_REG_RENAMES", 3, SEGS, "segment register renames"),
    (0xD6, "RET_SEG_RENAMES", 3, None, "segment register renames retired"),
]

PIII_EXTRA = [
    (0x07, "EMON_KNI_PREF_DISPATCHED", 3, KNI_PREF, "SSE prefetch or weakly ordered instructions dispatched"),
    (0x4B, "EMON_KNI_PREF_MISS", 3, KNI_PREF, "SSE prefetches that missed all caches"),
    (0xD8, "EMON_KNI_INST_RETIRED", 3, KNI_RET, "SSE instructions retired"),
    (0xD9, "EMON_KNI_COMP_INST_RET", 3, KNI_RET, "SSE computational instructions retired"),
]

PENTM_EXTRA = [
    (0x58, "EMON_EST_TRANS", 3,
     [("ALL", 0x00, "all transitions", "DX"), ("FREQ", 0x02, "frequency transitions", "X")],
     "Enhanced SpeedStep transitions"),
    (0x88, "BR_INST_EXEC", 3, None, "branches executed"),
    (0x89, "BR_MISSP_EXEC", 3, None, "mispredicted branches executed"),
    (0x8A, "BR_BAC_MISSP_EXEC", 3, None, "branches mispredicted at decode"),
    (0x8B, "BR_CND_EXEC", 3, None, "conditional branches executed"),
    (0x8C, "BR_CND_MISSP_EXEC", 3, None, "mispredicted conditional branches executed"),
    (0x8D, "BR_IND_EXEC", 3, None, "indirect branches executed"),
    (0x8E, "BR_IND_MISSP_EXEC", 3, None, "mispredicted indirect branches executed"),
    (0x8F, "BR_RET_EXEC", 3, None, "returns executed"),
    (0x90, "BR_RET_MISSP_EXEC", 3, None, "mispredicted returns executed"),
    (0x91, "BR_RET_BAC_MISSP_EXEC", 3, None, "returns mispredicted at decode"),
    (0x92, "BR_CALL_EXEC", 3, None, "calls executed"),
    (0x93, "BR_CALL_MISSP_EXEC", 3, None, "mispredicted calls executed"),
    (0x94, "BR_IND_CALL_EXEC", 3, None, "indirect calls executed"),
    (0xD3, "EMON_SYNCH_UOPS", 3, None, "sync micro-operations"),
    (0xD7, "EMON_ESP_UOPS", 3, None, "stack-pointer micro-operations"),
    (0xDA, "EMON_FUSED_UOPS_RET", 3,
     [("ALL", 0x00, "all fused micro-operations", "DX"), ("LD_OP", 0x01, "load+op", "X"),
      ("STD_STA", 0x02, "store address+data", "X")],
     "fused micro-operations retired"),
    (0xDB, "EMON_UNFUSION", 3, None, "fused micro-operations split again"),
]

# ---- PowerPC: events every PMC of these processors counts ---------------
def ppc_common(nctr):
    m = (1 << nctr) - 1
    return [
        (0x01, "CYCLES", m, None, "processor cycles"),
        (0x02, "INSTR_COMPLETED", m, None, "instructions completed"),
        (0x03, "TBL_BIT_TRANSITIONS", m, None, "transitions of the selected timebase bit"),
        (0x04, "INSTR_DISPATCHED", m, None, "instructions dispatched"),
        # Any other event by number (PMCnSEL value); which counters take it
        # follows from the per-counter selector widths.
        (0x00, "RAW", m, "RAW", "event number given as a raw unit mask (0xNN)"),
    ]

XSC_CORE = [
    (0x00, "ICACHE_MISS", "instruction fetches that missed the I-cache"),
    (0x01, "ICACHE_NO_DELIVER", "cycles the I-cache delivered no instruction"),
    (0x02, "DATA_STALL", "cycles stalled on a data dependency"),
    (0x03, "ITLB_MISS", "instruction TLB misses"),
    (0x04, "DTLB_MISS", "data TLB misses"),
    (0x05, "BRANCH", "branch instructions executed"),
    (0x06, "BRANCH_MISS", "mispredicted B/BL branches"),
    (0x07, "INSTRUCTION", "instructions executed"),
    (0x08, "DCACHE_FULL_STALL", "cycles stalled on full data cache buffers"),
    (0x09, "DCACHE_FULL_STALL_CONTIG", "contiguous stalls on full data cache buffers"),
    (0x0A, "DCACHE_ACCESS", "data cache accesses"),
    (0x0B, "DCACHE_MISS", "data cache misses"),
    (0x0C, "DCACHE_WRITE_BACK", "data cache write-backs (per half line)"),
    (0x0D, "PC_CHANGED", "software writes to the PC without a mode change"),
]
XSC_BCU = [
    (0x10, "BCU_REQUEST", "bus unit requests from the core (80200)"),
    (0x11, "BCU_FULL", "bus unit request queue full (80200)"),
    (0x12, "BCU_DRAIN", "bus unit queues drained (80200)"),
    (0x14, "BCU_ECC_NO_ELOG", "ECC error without a free log register (80200)"),
    (0x15, "BCU_1_BIT_ERR", "1-bit bus errors (80200)"),
    (0x16, "RMW", "read-modify-write cycles for narrow ECC writes (80200)"),
]


def p5_rows(lst):
    return [(c | (0x100 if d else 0), n, m, None,
             "duration: clocks while the condition holds" if d else None)
            for (c, n, m, d) in lst]


def xsc_rows(lst, nctr):
    return [(c, n, (1 << nctr) - 1, None, d) for (c, n, d) in lst]


MODELS = [
    ("seed_x86", [
        ("p5", p5_rows(P5_BASE)),
        ("p5mmx", p5_rows(P5_BASE + P5MMX_EXTRA)),
        ("mii", p5_rows(P5_BASE)),
        ("wcc6", p5_rows(WCC6)),
        ("vc3", p5_rows(VC3)),
        ("p6", P6_BASE),
        ("pii", P6_BASE + PII_EXTRA),
        ("piii", P6_BASE + PII_EXTRA + PIII_EXTRA),
        ("pentm", P6_BASE + PII_EXTRA + PIII_EXTRA + PENTM_EXTRA),
    ]),
    ("seed_ppc", [
        ("ppc604", ppc_common(2)),
        ("ppc604e", ppc_common(4)),
        ("ppc750", ppc_common(4)),
        ("ppc7400", ppc_common(4)),
        ("ppc7450", ppc_common(6)),
    ]),
    ("seed_xscale", [
        ("xscale1", xsc_rows(XSC_CORE + XSC_BCU, 2)),
        ("xscale2", xsc_rows(XSC_CORE, 4)),
    ]),
]


def cstr(s):
    return "NULL" if s is None else '"%s"' % s.replace('"', '\\"')


P5_MODS = "PMU__MODBIT(PMU__MOD_U) | PMU__MODBIT(PMU__MOD_K)"
P6_MODS = P5_MODS + (" |\n\t           PMU__MODBIT(PMU__MOD_E) | PMU__MODBIT(PMU__MOD_I) |"
                     " PMU__MODBIT(PMU__MOD_C)")
MODMSK = {"p5": P5_MODS, "p5mmx": P5_MODS, "mii": P5_MODS,
          "p6": P6_MODS, "pii": P6_MODS, "piii": P6_MODS, "pentm": P6_MODS}


class Pool:
    """One string pool per generated file, shared by its models: names and
    descriptions as offsets, so the tables hold no pointers (no relocations
    in a position-independent binary) and a name several models know is
    stored once.  Offset 0 is the empty string, meaning "none"."""

    def __init__(self):
        self.strings, self.offs, self.size = [], {}, 1

    def add(self, s):
        if s is None:
            return 0
        if s not in self.offs:
            self.offs[s] = self.size
            self.strings.append(s)
            self.size += len(s) + 1
        return self.offs[s]


def model_rows(pool, name, rows):
    """Events and umasks of one model, with their pool offsets."""
    rows = sorted(rows, key=lambda r: r[1])
    names = [r[1] for r in rows]
    assert len(set(names)) == len(names), name
    ums, evs = [], []
    for code, ename, cnt, umasks, desc in rows:
        first, n, ngrp, flags = len(ums), 0, 0, 0
        en, ed = pool.add(ename), pool.add(desc)
        if umasks == "RAW":
            flags = "PMU__EV_UMASK_REQ"
        elif umasks:
            ngrp = 1
            for (un, uc, ud, uf) in umasks:
                f = ["PMU__UM_DFL"] if "D" in uf else []
                if "X" in uf:
                    f.append("PMU__UM_EXCL")
                ums.append((un, pool.add(un), pool.add(ud), uc,
                            "|".join(f) or "0"))
                n += 1
        evs.append((ename, en, ed, code, cnt, flags, first, n, ngrp))
    return evs, ums


def emit_header(out, name, noff, evs, ums):
    modmsk = MODMSK.get(name, "0").replace("\t", "\t\t")
    out.append("\t.t_%s = {" % name)
    out.append("\t\t.name = %d," % noff)
    out.append("\t\t.kind = PMU__ENC_SEED,")
    out.append("\t\t.modmsk = %s," % modmsk)
    out.append("\t\t.nevents = %d," % len(evs))
    out.append("\t\t.numasks = %d," % len(ums))
    for f, arr in (("events", "ev"), ("umasks", "um"), ("strings", None)):
        field = "%s_%s" % (arr, name) if arr else f
        out.append("\t\t.%s = offsetof(struct tab, %s) -" % (f, field))
        out.append("\t\t\toffsetof(struct tab, t_%s)," % name)
    out.append("\t},")


def emit_arrays(out, name, evs, ums):
    modmsk = MODMSK.get(name, "0").replace("\t", "\t\t")
    out.append("\t.ev_%s = {" % name)
    for (ename, en, ed, code, cnt, flags, first, n, ngrp) in evs:
        out.append("\t\t{ .name = %d, .desc = %d, .code = 0x%x, .cntmsk = 0x%x,"
                   % (en, ed, code, cnt))
        out.append("\t\t  .modmsk = %s," % modmsk)
        out.append("\t\t  .flags = %s, .umask0 = %d, .numasks = %d, .ngrp = %d,"
                   % (flags or "0", first, n, ngrp))
        out.append("\t\t  .name_len = %d }, /* %s */" % (len(ename), ename))
    out.append("\t},")
    out.append("\t.um_%s = {" % name)
    for (un, uo, ud, uc, f) in ums:
        out.append("\t\t{ .name = %d, .desc = %d, .code = 0x%x, .flags = %s }, /* %s */"
                   % (uo, ud, uc, f, un))
    out.append("\t\t{ .name = 0 },")
    out.append("\t},")


def emit_file(out, models):
    """All models of a file in one struct: their headers first (so that the
    offsets from each header stay positive), then each model's events and
    umasks, then the one pool they share."""
    pool = Pool()
    noffs = [pool.add(name) for name, _ in models]
    tabs = [model_rows(pool, name, rows) for name, rows in models]
    out.append("struct tab {")
    for name, _ in models:
        out.append("\tstruct pmu__table t_%s;" % name)
    for (name, _), (evs, ums) in zip(models, tabs):
        out.append("\tstruct pmu__event ev_%s[%d];" % (name, len(evs)))
        out.append("\tstruct pmu__umask um_%s[%d];" % (name, len(ums) + 1))
    out.append("\tchar strings[%d];" % pool.size)
    out.append("};\n")
    out.append("static const struct tab tab = {")
    for (name, _), noff, (evs, ums) in zip(models, noffs, tabs):
        emit_header(out, name, noff, evs, ums)
    for (name, _), (evs, ums) in zip(models, tabs):
        emit_arrays(out, name, evs, ums)
    out.append("\t.strings =")
    out.append('\t\t"\\0"')
    for st in pool.strings:
        out.append("\t\t%s" % cstr(st + "\\0"))
    out[-1] += ","
    out.append("};\n")
    for name, _ in models:
        out.append("const struct pmu__table *pmu__seed_table_%s(void)" % name)
        out.append("{")
        out.append("\treturn &tab.t_%s;" % name)
        out.append("}\n")


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else "lib/events/tables"
    for fname, models in MODELS:
        out = ["/* SPDX-License-Identifier: MIT */",
               "/* Generated by scripts/gen-seed-events.py; do not edit. */",
               '#include "events/catalog_seed.h"', ""]
        emit_file(out, models)
        with open(os.path.join(outdir, fname + ".c"), "w") as f:
            f.write("\n".join(out).rstrip() + "\n")


if __name__ == "__main__":
    main()
