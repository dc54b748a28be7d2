#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The example programs of libtageval(3) (issue 19): each is compiled by
Meson with the project's warnings and run on the files of data/, and must
print what the page shows.

In the EXAMPLES section of man/libtageval.3.scd, a program is a code block
whose first line is an #include; the next code block shows how it is built
and run, as a shell session:

    $ cc -o NAME NAME.c $(pkg-config --cflags --libs tageval)
    $ ./NAME ARGS...
    OUTPUT...

Usage:
    man-examples.py names SCD NAME...        exit 1 unless the page's programs
                                             are exactly these
    man-examples.py extract SCD NAME OUT.c   write the program NAME
    man-examples.py check SCD NAME EXE SRCDIR
        run EXE with the ARGS of the page in a scratch directory holding a
        link data -> SRCDIR/data, and compare its standard output with
        OUTPUT (exit 1 and a diff when they differ)
"""
import difflib
import os
import re
import shlex
import subprocess
import sys
import tempfile


def unescape(text):
    """scdoc's escapes: a backslash takes the next character literally."""
    return re.sub(r"\\(.)", r"\1", text, flags=re.S)


def examples(scd):
    """{NAME: (program, args, output lines)} of the EXAMPLES section."""
    with open(scd, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^# EXAMPLES\n(.*?)(?=^# )", text, re.S | re.M)
    if m is None:
        sys.exit("%s: no EXAMPLES section" % scd)
    blocks = [unescape(b) for b in re.findall(r"^```\n(.*?)^```$", m.group(1), re.S | re.M)]
    found = {}
    for i, block in enumerate(blocks):
        if not block.startswith("#include") or i + 1 == len(blocks):
            continue
        # a line ending in a backslash goes on on the next one, as in the shell
        session = re.sub(r"\\\n\s*", " ", blocks[i + 1]).splitlines()
        # the build line, then the run line with its output
        if len(session) < 2:
            continue
        build = re.match(r"\$ cc -o (\S+) (\S+)\.c ", session[0])
        run = re.match(r"\$ \./(\S+)(.*)$", session[1])
        if not build or not run or build.group(1) != build.group(2) or \
                run.group(1) != build.group(1):
            sys.exit("%s: the program of block %d is not followed by "
                     "'$ cc -o NAME NAME.c ...' and '$ ./NAME ...'" % (scd, i + 1))
        name = build.group(1)
        if not session[2:]:
            sys.exit("%s: the run of %s shows no output" % (scd, name))
        if name in found:
            sys.exit("%s: two programs named %s" % (scd, name))
        found[name] = (block, shlex.split(run.group(2)), session[2:])
    if not found:
        sys.exit("%s: no example program" % scd)
    return found


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    mode, scd = argv[1], argv[2]
    ex = examples(scd)
    if mode == "names":
        if sorted(ex) != sorted(argv[3:]):
            print("the programs of %s are %s, the build tests %s"
                  % (scd, " ".join(sorted(ex)), " ".join(sorted(argv[3:]))))
            return 1
        print("%d example programs, all tested" % len(ex))
        return 0
    if len(argv) < 4 or argv[3] not in ex:
        sys.exit("%s: no example program %s" % (scd, argv[3] if len(argv) > 3 else ""))
    program, args, output = ex[argv[3]]
    if mode == "extract" and len(argv) == 5:
        with open(argv[4], "w", encoding="utf-8") as f:
            f.write(program)
        return 0
    if mode == "check" and len(argv) == 6:
        exe, srcdir = os.path.abspath(argv[4]), os.path.abspath(argv[5])
        with tempfile.TemporaryDirectory() as work:
            os.symlink(os.path.join(srcdir, "data"), os.path.join(work, "data"))
            p = subprocess.run([exe] + args, cwd=work, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, universal_newlines=True,
                               env=dict(os.environ, LC_ALL="C"))
        got = p.stdout.splitlines()
        if p.returncode != 0 or got != output:
            sys.stdout.write(p.stderr)
            print("%s: exit status %d" % (argv[3], p.returncode))
            sys.stdout.writelines(difflib.unified_diff(
                [l + "\n" for l in output], [l + "\n" for l in got],
                "libtageval.3.scd", "./" + argv[3]))
            return 1
        print("%s: %d lines as on the page" % (argv[3], len(got)))
        return 0
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
