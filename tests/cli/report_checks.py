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

report_checks.py examples MAN_PAGE CASES_DIR
    Checks that every wsd-report command of the EXAMPLES of wsd-report(1)
    (its .scd source) is the command line of a case under CASES_DIR, and
    that the output the page shows is the start of that case's expected
    standard output.

report_checks.py svg WSD_REPORT DATA_DIR
    Writes the chart of the sample task (three systems, three baselines,
    three granularities) and checks that it is well-formed XML with, in each
    granularity's panel, exactly one bar per system and baseline; then the
    nouns chart of the man page's CSV example, with one system name too long
    for the name column (cut with an ellipsis, whole in a tooltip).
"""
import json
import os
import re
import shlex
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


def expected_marks(system):
    """The marks of a system of the JSON's significance: * randomization
    p >= 0.05 against the best, ~ p >= 0.05 against the baseline or a delta
    (the baseline's figure minus the system's) not below 0."""
    want = ""
    if "vs_best" in system and system["vs_best"]["randomization_p"] >= 0.05:
        want += "*"
    vb = system.get("vs_baseline")
    if vb and not (vb["delta"] < 0 and vb["randomization_p"] < 0.05):
        want += "~"
    return want


def score_svg(tool, data):
    """wsd-score --compare --format=svg (issue 18): well-formed SVG, one
    panel per group of the table (datasets, ALL, parts of speech), one bar
    per system as long as its F1 in the JSON, and the marks of the text:
    * randomization p >= 0.05 against the best, ~ against the baseline
    (p >= 0.05 or a delta not below 0)."""
    with tempfile.TemporaryDirectory() as tmp:
        gold = os.path.join(tmp, "gold.key")
        files = {"best": 8, "base": 2, "mid": 6}   # instances right of 8
        with open(gold, "w") as f:
            f.writelines("tiny.d0.s0.t%d k%%1:01:00::\n" % i for i in range(8))
        for name, right in files.items():
            with open(os.path.join(tmp, name), "w") as f:
                f.writelines("tiny.d0.s0.t%d k%%1:%s:00::\n" % (i, "01" if i < right else "02")
                             for i in range(8))
        runs = [[gold] + ["%s=%s" % (n, os.path.join(tmp, n)) for n in ("base", "mid", "best")],
                [os.path.join(data, "wsd-gold.key"),
                 "example=" + os.path.join(data, "wsd-system.key"),
                 "gold=" + os.path.join(data, "wsd-gold.key")]]
        ns = "{http://www.w3.org/2000/svg}"
        nmarked = 0
        for k, args in enumerate(runs):
            opts = ["--compare", "--samples=200", "--seed=5"] + (["--baseline=base"] if k == 0 else [])
            rc, out, err = run([tool] + opts + ["--format=json"] + args)
            if rc != 0:
                fail("wsd-score exit %d: %s" % (rc, err))
            js = json.loads(out)
            rc, out, err = run([tool] + opts + ["--format=svg"] + args)
            if rc != 0:
                fail("wsd-score exit %d: %s" % (rc, err))
            root = ET.fromstring(out)  # raises on malformed XML
            if root.tag != ns + "svg":
                fail("root element %s" % root.tag)
            panels = [g for g in root.iter(ns + "g") if g.get("class") == "panel"]
            sys0 = js["systems"][0]
            groups = list(sys0["per_dataset"]) + ["ALL"] + list(sys0["per_pos"])
            got = [p.get("data-group").split(" ")[0] for p in panels]
            if got != groups:
                fail("panels %r, want %r" % (got, groups))
            for p, grp in zip(panels, groups):
                bars = [r for r in p.iter(ns + "rect") if "bar" in r.get("class").split()]
                labels = [t for t in p.iter(ns + "text") if t.get("text-anchor") == "end"]
                if len(bars) != len(js["systems"]) or len(labels) != len(bars):
                    fail("panel %s: %d bars, %d labels" % (grp, len(bars), len(labels)))
                for s, bar, label in zip(js["systems"], bars, labels):
                    fig = s["total"] if grp == "ALL" else s["per_dataset"].get(grp) or \
                        s["per_pos"][grp]
                    f1 = fig["f1"] if fig["f1"] is not None else 0.0
                    if bar.get("data-system") != s["name"] or \
                            abs(float(bar.get("width")) - 460 * f1) > 0.051:
                        fail("panel %s: bar %s %s wide, want F1 %r" % (grp, bar.get("data-system"),
                             bar.get("width"), f1))
                    want = expected_marks(s)
                    nmarked += want != ""
                    text = "".join(label.itertext())
                    if text != (s["name"] + (" " + want if want else "")):
                        fail("panel %s: label %r, want %s marked %r" % (grp, text, s["name"], want))
        if nmarked == 0:
            fail("no mark at all")
        print("wsd-score --format=svg: well-formed, the panels, bars and %d marks of the JSON"
              % nmarked)


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

        # the chart of the man page's second example (the nouns, two systems),
        # one of them with a name too long for the name column
        long_name = "a-very-long-system-name-from-run-number-three-of-2004"
        plot = os.path.join(tmp, "nouns.svg")
        cmd = [tool, "--format=csv", "--plot", plot, "--plot-subset=nouns",
               "-s", os.path.join(data, "report.sensemap"),
               "-t", os.path.join(data, "report.train"), os.path.join(data, "report.key"),
               "S1=" + os.path.join(data, "report-s1.answers"),
               long_name + "=" + os.path.join(data, "report-s2.answers")]
        rc, _, err = run(cmd)
        if rc != 0:
            fail("wsd-report exit %d: %s" % (rc, err))
        root = ET.parse(plot).getroot()
        title = "".join(next(root.iter(ns + "text")).itertext())
        if '"nouns" (6 items)' not in title:
            fail("title %r does not name the subset" % title)
        want = sorted(["S1", long_name, "random", "random-main", "commonest"])
        for p in [g for g in root.iter(ns + "g") if g.get("class") == "panel"]:
            bars = [r for r in p.iter(ns + "rect") if "bar" in (r.get("class") or "").split()]
            names = sorted(r.get("data-system") for r in bars)
            if names != want:
                fail("nouns panel %s: bars %r, want %r"
                     % (p.get("data-granularity"), names, want))
            # the long name is cut with an ellipsis, whole in its tooltip
            labels = [t for t in p.iter(ns + "text") if t.find(ns + "title") is not None]
            if len(labels) != 1 or labels[0].find(ns + "title").text != long_name \
                    or not labels[0].find(ns + "title").tail.endswith("\u2026"):
                fail("nouns panel %s: long name not cut" % p.get("data-granularity"))
        # --no-baselines (issue 19): no baseline bar, and no "baseline" entry
        # in the legend; the chart with baselines has it once
        def legend_texts(root):
            return ["".join(t.itertext()) for t in root.iter(ns + "text")]
        with_base = legend_texts(ET.parse(os.path.join(tmp, "chart.svg")).getroot())
        if with_base.count("baseline: bar length = precision") != 1:
            fail("chart with baselines: legend %r" % with_base[:4])
        plot = os.path.join(tmp, "nobase.svg")
        cmd = [tool, "--no-baselines", "--plot", plot, os.path.join(data, "report.key"),
               "S1=" + os.path.join(data, "report-s1.answers")]
        rc, _, err = run(cmd)
        if rc != 0:
            fail("wsd-report exit %d: %s" % (rc, err))
        root = ET.parse(plot).getroot()
        texts = legend_texts(root)
        if any("baseline" in t for t in texts):
            fail("--no-baselines chart mentions a baseline: %r" % texts)
        kinds = [r.get("class") for r in root.iter(ns + "rect")
                 if "bar" in (r.get("class") or "").split()]
        if kinds != ["bar system"]:
            fail("--no-baselines chart bars %r, want S1's only" % kinds)
        # --significance (issue 18): each label carries the marks that the
        # JSON's p-values give: * randomization p >= 0.05 against the best,
        # ~ p >= 0.05 against the baseline or a delta not below 0
        plot = os.path.join(tmp, "sig.svg")
        cmd = [tool, "--significance", "--samples=300", "--baseline=S3", "--format=json",
               "--plot", plot, "-s", os.path.join(data, "report.sensemap"),
               "-t", os.path.join(data, "report.train"), os.path.join(data, "report.key")]
        cmd += ["%s=%s" % (s, os.path.join(data, "report-%s.answers" % s.lower()))
                for s in systems]
        rc, out, err = run(cmd)
        if rc != 0:
            fail("wsd-report exit %d: %s" % (rc, err))
        sig = json.loads(out)["significance"]
        root = ET.parse(plot).getroot()
        panels = [g for g in root.iter(ns + "g") if g.get("class") == "panel"]
        nmarked = 0
        for p, gran in zip(panels, sig["granularities"]):
            labels = {}
            for t in p.iter(ns + "text"):
                if t.get("text-anchor") == "end":
                    words = "".join(t.itertext()).replace(" (baseline)", "").split(" ")
                    labels[words[0]] = words[1] if len(words) > 1 else ""
            for sysd in gran["systems"]:
                want = expected_marks(sysd)
                nmarked += want != ""
                if labels.get(sysd["name"]) != want:
                    fail("%s panel: %s marked %r, want %r" % (gran["granularity"],
                         sysd["name"], labels.get(sysd["name"]), want))
        if nmarked == 0:
            fail("--significance chart: no mark at all")
        print("well-formed SVG, %d panels, %d bars; nouns chart with a long name; "
              "no baseline in the --no-baselines legend; %d significance marks as the JSON "
              "gives them" % (len(panels), all_bars, nmarked))


def examples(page, cases):
    text = open(page, encoding="utf-8").read()
    text = text[text.index("\n# EXAMPLES\n"):text.index("\n# SEE ALSO\n")]
    blocks = text.split("```\n")[1::2]
    want = {}
    for name in sorted(os.listdir(cases)):
        args = os.path.join(cases, name, "args")
        if os.path.isfile(args):
            want.setdefault(tuple(open(args).read().splitlines()), name)
    shell_vars = {}
    found = 0
    for block in blocks:
        lines = block.replace("\\\\", "\\").split("\n")
        i = 0
        while i < len(lines):
            line = lines[i]
            i += 1
            if not line.startswith("$ "):
                continue
            cmd = line[2:]
            while cmd.endswith("\\"):
                cmd = cmd[:-1] + lines[i]
                i += 1
            words = shlex.split(cmd)
            if len(words) == 1 and "=" in words[0]:
                k, v = words[0].split("=", 1)
                shell_vars[k] = v
                continue
            if words[0] != "wsd-report":
                fail("example command %r is not wsd-report" % cmd)
            if len(words) > 2 and words[-2] == ">":
                words = words[:-2]
            words = [re.sub(r"\$(\w+)", lambda m: shell_vars[m.group(1)], w)
                     for w in words[1:]]
            case = want.get(tuple(words))
            if case is None:
                fail("no case runs the example %r" % " ".join(words))
            shown = []
            while i < len(lines) and not lines[i].startswith("$ ") and lines[i] != "...":
                shown.append(lines[i])
                i += 1
            while shown and shown[-1] == "":
                shown.pop()
            expected = ""
            for f in ("expected-stdout", "expected-stdout-head"):
                path = os.path.join(cases, case, f)
                if os.path.isfile(path):
                    expected = open(path, encoding="utf-8").read()
            if shown and not expected.startswith("\n".join(shown) + "\n"):
                fail("the output the page shows for case %s is not the case's" % case)
            found += 1
    if found == 0:
        fail("no example found")
    print("%d examples of %s are CLI cases" % (found, os.path.basename(page)))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "score-svg":
        score_svg(*sys.argv[2:])
    elif len(sys.argv) == 5 and sys.argv[1] == "senseval3":
        senseval3(*sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "examples":
        examples(*sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "svg":
        svg(*sys.argv[2:])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(99)


if __name__ == "__main__":
    main()
