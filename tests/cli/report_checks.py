#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks of wsd-report against other programs and formats.

report_checks.py senseval3 WSD_REPORT SCORER2 SHARED_DATA
    Runs wsd-report on the Senseval-3 English lexical sample (test key, sense
    map, training key, every answer file of systems_cs4740/) and checks that
    each system's row on the subset "all" equals what scorer2 gives for the
    same files at each granularity, with and without -m; and that the rows
    of the subsets "nouns" and "verbs" equal scorer2 --instances on the
    instances of the .n and .v lexelts.  Exit 77 when SHARED_DATA is absent.

report_checks.py svg WSD_REPORT DATA_DIR
    Writes the chart of the sample task (three systems, three baselines,
    three granularities) and checks that it is well-formed XML with, in each
    granularity's panel, exactly one bar per system and baseline.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=dict(os.environ, LC_ALL="C"))
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def fail(msg):
    print("FAIL", msg)
    sys.exit(1)


def senseval3(tool, scorer2, shared):
    base = os.path.join(shared, "senseval", "senseval3_englishls")
    if not os.path.isdir(base):
        print("SKIP:", base, "is absent")
        sys.exit(77)
    key = os.path.join(base, "EnglishLS.test.key")
    smap = os.path.join(base, "EnglishLS.sensemap")
    train = os.path.join(base, "EnglishLS.train.key")
    sysdir = os.path.join(base, "systems_cs4740")
    systems = sorted(os.listdir(sysdir))
    cmd = [tool, "--format=json", "-s", smap, "-t", train, key]
    cmd += ["%s=%s" % (s, os.path.join(sysdir, s)) for s in systems]
    start = time.monotonic()
    rc, out, err = run(cmd)
    elapsed = time.monotonic() - start
    if rc != 0:
        fail("wsd-report exit %d: %s" % (rc, err))
    report = json.loads(out)
    rows = {}
    for r in report["rows"]:
        if r["kind"] in ("system", "baseline"):
            rows[(r["subset"], r["system"], r["granularity"], r["minimal"])] = r

    with tempfile.TemporaryDirectory() as tmp:
        subsets = {"all": None}
        for name, suffix in (("nouns", ".n"), ("verbs", ".v")):
            path = os.path.join(tmp, name)
            with open(key) as k, open(path, "w") as f:
                for line in k:
                    fields = line.split()
                    if fields and fields[0].endswith(suffix):
                        f.write("%s %s\n" % (fields[0], fields[1]))
            subsets[name] = path
        checked = 0
        for s in systems:
            for g in ("fine", "mixed", "coarse"):
                for m in (False, True):
                    for sub, inst in subsets.items():
                        c = [scorer2, "--format=json", os.path.join(sysdir, s), key,
                             smap, "-g", g] + (["-m"] if m else [])
                        if inst:
                            c += ["--instances", inst]
                        rc, out, _ = run(c)
                        if rc != 0:
                            fail("scorer2 exit %d on %s" % (rc, c))
                        want = json.loads(out)
                        got = rows[(sub, s, g, m)]
                        for field, wfield in (("correct", "correct"),
                                              ("attempted", "attempted"),
                                              ("items", "total"),
                                              ("precision", "precision"),
                                              ("recall", "recall")):
                            a, b = got[field], want[wfield]
                            same = (a is None and b is None) or (
                                a is not None and b is not None and abs(a - b) <= 1e-9 * max(1.0, abs(b)))
                            if not same:
                                fail("%s %s %s minimal=%s %s: wsd-report %r, scorer2 %r"
                                     % (sub, s, g, m, field, a, b))
                        checked += 1
    print("%d rows equal scorer2's (%d systems); wsd-report took %.3f s"
          % (checked, len(systems), elapsed))


def svg(tool, data):
    with tempfile.TemporaryDirectory() as tmp:
        plot = os.path.join(tmp, "chart.svg")
        systems = ["S1", "S2", "S3"]
        cmd = [tool, "--plot", plot, "-s", os.path.join(data, "report.sensemap"),
               "-t", os.path.join(data, "report.train"), os.path.join(data, "report.key")]
        cmd += ["%s=%s" % (s, os.path.join(data, "report-%s.answers" % s.lower()))
                for s in systems]
        rc, _, err = run(cmd)
        if rc != 0:
            fail("wsd-report exit %d: %s" % (rc, err))
        root = ET.parse(plot).getroot()  # raises on malformed XML
        ns = "{http://www.w3.org/2000/svg}"
        if root.tag != ns + "svg":
            fail("root element %s" % root.tag)
        panels = [g for g in root.iter(ns + "g") if g.get("class") == "panel"]
        grans = [p.get("data-granularity") for p in panels]
        if grans != ["fine", "mixed", "coarse"]:
            fail("panels %r" % grans)
        want = sorted(systems + ["random", "random-main", "commonest"])
        for p in panels:
            bars = [r for r in p.iter(ns + "rect") if "bar" in (r.get("class") or "").split()]
            names = sorted(r.get("data-system") for r in bars)
            if names != want:
                fail("panel %s: bars %r, want one per system and baseline %r"
                     % (p.get("data-granularity"), names, want))
            for r in bars:
                w = float(r.get("width"))
                if not 0 <= w <= 460:
                    fail("bar width %r" % w)
        # S1's fine bar: precision 3/4 of the 460-pixel axis
        s1 = [r for r in panels[0].iter(ns + "rect") if r.get("data-system") == "S1"][0]
        if abs(float(s1.get("width")) - 345.0) > 0.05:
            fail("S1 fine bar %s wide, want 345.0" % s1.get("width"))
        all_bars = sum(1 for r in root.iter(ns + "rect")
                       if "bar" in (r.get("class") or "").split())
        print("well-formed SVG, %d panels, %d bars" % (len(panels), all_bars))


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "senseval3":
        senseval3(*sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "svg":
        svg(*sys.argv[2:])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(99)


if __name__ == "__main__":
    main()
