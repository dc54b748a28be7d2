#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""wsi-report against the tools it stands for (issue 13's "done when").

    check_tools.py TOOLS_DIR CASE_DIR SHARED_DATA

Runs wsi-report with the arguments of the CLI case CASE_DIR (its args file,
run in a scratch directory where the case's setup made its links), in text
and in JSON, and checks every cell of every row against the tool that gives
that figure for the system on its own:

  clusters, V-measure   vmeasure --pos P --format json  (total)
  paired F-score        fscore --paired --pos P --format json
  B-cubed F             bcubed --pos P --format json
  NMI, AVG              nmi --pos P --format json; AVG = sqrt(FBC * NMI)
  supervised recall     wsi-supervised --pos P --split M:T ... --format json
  and variance          (the split files listed by hand here, not found by
                        wsi-report's --splits DIR), mean_recall and variance

the baselines through wsi-baseline (-m 1c1w, 1c1inst, random; --seed and
-k as wsi-report's defaults, 1 and 4) on the gold key with its lines in
bytewise order of the instance ids (wsi-report's random baseline draws in
that order, so that the gold key's line order changes nothing).  JSON figures must be equal as
numbers (the supervised variance, a fraction in both JSON outputs, to a
relative 1e-12); text cells must be the tools' own text figures (%.3f
fractions, %.2f percent, the variance in percent squared as wsi-supervised
prints it).
Exit 0 (all equal), 1 (a difference, listed), 77 (no shared data).

    check_tools.py --examples PAGE CASES SHARED_DATA

checks that every "$ wsi-report ..." command of the EXAMPLES of the man page
PAGE is the args of a case under CASES (its words, after the shell's glob
expansion in a directory prepared by the case's setup script) and that the
output the page shows (up to a line "...") begins the case's
expected-stdout.
"""
import glob
import json
import math
import os
import shlex
import shutil
import subprocess
import sys
import tempfile


def run(argv, cwd):
    p = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       check=False)
    if p.returncode != 0:
        raise SystemExit("%s: exit %d: %s" % (" ".join(argv), p.returncode,
                                              p.stderr.decode(errors="replace")))
    return p.stdout.decode()


def examples(page, cases, shared):
    text = open(page, encoding="utf-8").read()
    text = text[text.index("\n# EXAMPLES\n"):text.index("\n# SEE ALSO\n")]
    blocks = text.split("```\n")[1::2]
    cases = os.path.abspath(cases)
    names = sorted(n for n in os.listdir(cases)
                   if os.path.isfile(os.path.join(cases, n, "args")))
    found = bad = 0
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
            shown = []
            while i < len(lines) and not lines[i].startswith("$ ") and lines[i] != "...":
                shown.append(lines[i])
                i += 1
            while shown and shown[-1] == "":
                shown.pop()
            words = shlex.split(cmd)
            if words[0] != "wsi-report":
                print("example %r is not wsi-report" % cmd)
                bad += 1
                continue
            match = None
            for name in names:
                case = os.path.join(cases, name)
                if os.path.exists(os.path.join(case, "needs-shared")) and \
                        not os.path.isdir(shared):
                    continue
                with open(os.path.join(case, "args"), encoding="utf-8") as f:
                    args = f.read().split("\n")[:-1]
                if not any(c in w for w in words[1:] for c in "*?["):
                    # nothing to expand: the case's setup is not run (it may
                    # start a writer on a named pipe that nothing would read)
                    if words[1:] == args:
                        match = case
                        break
                    continue
                if any(w not in args for w in words[1:] if not any(c in w for c in "*?[")):
                    continue  # a word of the example the case lacks
                work = tempfile.mkdtemp(prefix="wsi-report-ex.")
                try:
                    if os.path.exists(os.path.join(case, "setup")):
                        env = dict(os.environ, TAGEVAL_CLI_SHARED=shared,
                                   TAGEVAL_CLI_CASE=case)
                        subprocess.run(["sh", os.path.join(case, "setup")], cwd=work,
                                       env=env, check=True)
                    expanded = []
                    for w in words[1:]:
                        if any(c in w for c in "*?["):
                            hits = sorted(os.path.relpath(h, work)
                                          for h in glob.glob(os.path.join(work, w)))
                            expanded += hits or [w]
                        else:
                            expanded.append(w)
                finally:
                    shutil.rmtree(work)
                if expanded == args:
                    match = case
                    break
            if match is None:
                if not os.path.isdir(shared):
                    print("SKIP: %s is absent" % shared)
                    return 77
                print("no case runs the example %r" % cmd)
                bad += 1
                continue
            with open(os.path.join(match, "expected-stdout"), encoding="utf-8") as f:
                expected = f.read()
            if not expected.startswith("\n".join(shown) + "\n"):
                print("the output the page shows for case %s is not the case's"
                      % os.path.basename(match))
                bad += 1
            found += 1
    print("%d examples of %s are CLI cases, %d problems" % (found, os.path.basename(page), bad))
    return 1 if bad or not found else 0


def main():
    if sys.argv[1] == "--examples":
        return examples(*sys.argv[2:5])
    tools, case, shared = sys.argv[1:4]
    if not os.path.isdir(shared):
        print("SKIP: %s is absent" % shared)
        return 77
    work = tempfile.mkdtemp(prefix="wsi-report-check.")
    try:
        return check(tools, case, shared, work)
    finally:
        shutil.rmtree(work)


def check(tools, case, shared, work):
    env = dict(os.environ, TAGEVAL_CLI_SHARED=shared, TAGEVAL_CLI_CASE=case)
    if os.path.exists(os.path.join(case, "setup")):
        subprocess.run(["sh", os.path.join(case, "setup")], cwd=work, env=env, check=True)
    with open(os.path.join(case, "args"), encoding="utf-8") as f:
        args = [a.replace("@SHARED@", shared) for a in f.read().split("\n")[:-1]]
    tool = lambda name: os.path.join(tools, name)
    text = run([tool("wsi-report")] + args, work)
    report = json.loads(run([tool("wsi-report")] + args + ["--format", "json"], work))

    # the options the case uses
    split_dirs, operands = [], []
    with_value = ("--splits", "--pos", "--metrics", "--sort", "--folds", "-k", "--seed", "-s",
                  "--random-clusters", "--test-fraction", "--digits", "--format")
    i = 0
    while i < len(args):
        a = args[i]
        if a in with_value:
            if a == "--splits":
                split_dirs.append(args[i + 1])
            i += 2
            continue
        if a.startswith("--splits="):
            split_dirs.append(a[len("--splits="):])
        elif not a.startswith("-"):
            operands.append(a)
        i += 1
    gold = operands[0]
    files = {}
    for a in operands[1:]:
        name, _, path = a.rpartition("=")
        files[name or os.path.basename(path)] = path
    # wsi-report draws the random baseline over the instances in bytewise
    # order of their ids: wsi-baseline does the same on a gold key so sorted
    with open(os.path.join(work, gold), "rb") as f:
        lines = [l for l in f.read().split(b"\n") if l.split()]
    sorted_gold = os.path.join(work, "gold-sorted-by-id")
    with open(sorted_gold, "wb") as f:
        f.write(b"".join(l + b"\n" for l in sorted(lines, key=lambda l: l.split()[1])))
    for name, method in (("1c1w", "1c1w"), ("1c1inst", "1c1inst"), ("random", "random")):
        path = os.path.join(work, "baseline-" + name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(run([tool("wsi-baseline"), "-m", method, "-s", "1", "-k", "4",
                         sorted_gold], work))
        files[name] = path

    folder = {"all": "all", "n": "nouns", "v": "verbs"}
    tag = {"all": "", "n": "nouns.", "v": "verbs."}
    bad = 0
    # the text table's cells by (system, pos): the tokens after the runs column
    cells = {}
    lines = text.split("\n")
    head = lines[0].split("  ")
    for line in lines[1:]:
        if not line.strip() or line.startswith("supervised recall in percent"):
            continue
        name = line[:line.index("  ")].strip()
        rest = line[len(name):].split()
        cells[(name.strip("()"), rest[0])] = rest[2:]
    cols = [c.strip() for c in head if c.strip()][3:]
    checked = 0
    for row in report["rows"]:
        sysname, pos = row["system"], row["pos"]
        path = files[sysname]
        posarg = ["--pos", pos]
        want_json, want_text = {}, {}
        vm = json.loads(run([tool("vmeasure"), "--format", "json"] + posarg + [path, gold], work))
        want_json["clusters"] = vm["total"]["clusters"]
        want_text["clusters"] = "%.2f" % vm["total"]["clusters"]
        if "v_measure" in row:
            want_json["v_measure"] = vm["total"]["v_measure"]
            want_text["V-measure"] = "%.3f" % vm["total"]["v_measure"]
        if "paired_fscore" in row:
            fs = json.loads(run([tool("fscore"), "--paired", "--format", "json"] + posarg +
                                [path, gold], work))
            want_json["paired_fscore"] = fs["total"]["paired_fscore"]
            want_text["paired F"] = "%.3f" % fs["total"]["paired_fscore"]
        if "bcubed_fscore" in row:
            bc = json.loads(run([tool("bcubed"), "--format", "json"] + posarg + [path, gold],
                                work))
            nm = json.loads(run([tool("nmi"), "--format", "json"] + posarg + [path, gold],
                                work))
            fbc, fnmi = bc["total"]["bcubed_fscore"], nm["total"]["nmi"]
            want_json["bcubed_fscore"], want_json["nmi"] = fbc, fnmi
            want_json["avg"] = math.sqrt(fbc * fnmi)
            want_text["B-cubed F"] = "%.3f" % fbc
            want_text["NMI"] = "%.3f" % fnmi
            want_text["AVG"] = "%.3f" % math.sqrt(fbc * fnmi)
        for d in split_dirs:
            label = os.path.basename(d.rstrip("/"))
            suffix = "_" + label if len(split_dirs) > 1 else ""
            tsuffix = " " + label if len(split_dirs) > 1 else ""
            sub = os.path.join(d, folder[pos])
            splits = []
            for k in range(1, 6):
                splits += ["--split", "%s/mapping.%s%d.key:%s/test.%s%d.key"
                           % (sub, tag[pos], k, sub, tag[pos], k)]
            sup = json.loads(run([tool("wsi-supervised"), "--format", "json"] + posarg +
                                 splits + [path, gold], work))
            want_json["supervised_recall" + suffix] = sup["mean_recall"]
            want_json["supervised_variance" + suffix] = sup["variance"]
            want_text["sup. recall" + tsuffix] = "%.2f" % (100.0 * sup["mean_recall"])
            want_text["variance" + tsuffix] = "%.2f" % (10000.0 * sup["variance"])
        for key, want in want_json.items():
            got = row.get(key)
            same = got == want if not key.startswith("supervised_variance") else \
                got is not None and abs(got - want) <= 1e-12 * abs(want)
            if not same:
                print("%s %s %s: wsi-report %r, the tool %r" % (sysname, pos, key, got, want))
                bad += 1
            checked += 1
        tcells = cells[(sysname, pos)]
        for key, want in want_text.items():
            got = tcells[(["clusters"] + cols[1:]).index(key)] if key != "clusters" \
                else tcells[0]
            if got != want:
                print("%s %s %s (text): wsi-report %r, the tool %r" % (sysname, pos, key, got,
                                                                        want))
                bad += 1
            checked += 1
    print("%d figures of %d rows checked, %d differ" % (checked, len(report["rows"]), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
