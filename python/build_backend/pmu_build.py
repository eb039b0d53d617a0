# SPDX-License-Identifier: MIT
"""The pmu package's own build backend (PEP 517): a pure-Python wheel
made with the standard library alone, so that ``pip install ./python``
needs nothing from the network (no setuptools to fetch into pip's
isolated build environment)."""
import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _project(key):
    """A string of pyproject.toml's [project] table."""
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read().split("[project]", 1)[1]
    m = re.search(r'^%s\s*=\s*"([^"]*)"' % key, text, re.M)
    if not m:
        raise RuntimeError("pyproject.toml: no %s in [project]" % key)
    return m.group(1)


NAME = _project("name")
VERSION = _project("version")
SUMMARY = _project("description")


def _files():
    """(path in the wheel, path on disk) of every module shipped."""
    out = [("pmu_regions.py", os.path.join(ROOT, "pmu_regions.py"))]
    pkg = os.path.join(ROOT, "pmu")
    for name in sorted(os.listdir(pkg)):
        if name.endswith(".py"):
            out.append(("pmu/" + name, os.path.join(pkg, name)))
    return out


def _metadata():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: %s\n"
            "License: MIT\nRequires-Python: >=3.9\n"
            "Classifier: Operating System :: POSIX :: Linux\n"
            "Description-Content-Type: text/markdown\n\n%s"
            % (NAME, VERSION, SUMMARY, readme))


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest())
    return "%s,sha256=%s,%d\n" % (path, digest.rstrip(b"=").decode(),
                                  len(data))


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None,
                metadata_directory=None):
    dist = "%s-%s.dist-info" % (NAME, VERSION)
    wheel = "%s-%s-py3-none-any.whl" % (NAME, VERSION)
    record = ""
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel), "w",
                         zipfile.ZIP_DEFLATED) as z:
        entries = []
        for arc, path in _files():
            with open(path, "rb") as f:
                entries.append((arc, f.read()))
        entries.append((dist + "/METADATA", _metadata().encode()))
        entries.append((dist + "/WHEEL",
                        b"Wheel-Version: 1.0\nGenerator: pmu_build\n"
                        b"Root-Is-Purelib: true\nTag: py3-none-any\n"))
        for arc, data in entries:
            z.writestr(arc, data)
            record += _record_line(arc, data)
        record += dist + "/RECORD,,\n"
        z.writestr(dist + "/RECORD", record)
    return wheel


def build_sdist(sdist_directory, config_settings=None):
    base = "%s-%s" % (NAME, VERSION)
    name = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as t:
        for rel in ["pyproject.toml", "README.md", "pmu_regions.py",
                    "build_backend/pmu_build.py"] + \
                   ["pmu/" + n for n in sorted(os.listdir(
                       os.path.join(ROOT, "pmu"))) if n.endswith(".py")]:
            t.add(os.path.join(ROOT, rel), arcname=base + "/" + rel)
        info = tarfile.TarInfo(base + "/PKG-INFO")
        data = _metadata().encode()
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    return name
