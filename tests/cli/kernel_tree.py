# Reading the kernel's pmu-events tree in the tests that compare pmu with
# it (imported by the Python of kernel-events.sh and kernel-uncore.sh).
import os

ARCHES = ("x86", "arm64", "powerpc", "s390", "riscv")


def core_models(tree):
    """(arch, CPU identifier pattern, directory) of every model that a
    mapfile's core rows name, each model once, in the mapfiles' order."""
    for arch in ARCHES:
        seen = set()
        for line in open(os.path.join(tree, arch, "mapfile.csv")):
            f = line.strip().split(",")
            if (len(f) < 4 or f[0].startswith("#") or f[3] != "core" or
                    f[0] == "Family-model" or f[2] in seen):
                continue
            seen.add(f[2])
            yield arch, f[0], f[2]
