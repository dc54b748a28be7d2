#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""run-python.py BUILDDIR [N] - the Python module's benchmark (issue 16).

1. tageval.metrics.v_measure on N labels (default 1000000: Python lists of
   strings, 50 classes and 200 clusters drawn at random) beside
   sklearn.metrics.v_measure_score on the same lists, in one run (target:
   at least 10x faster);
1b. the same on N int64 NumPy labels (when NumPy is importable): the
   buffer path, without a Python object per label, beside scikit-learn
   on the same arrays and tageval on the arrays' values as lists of ints;
2. tageval.wsi on the gen-wsi data set of N instances (100 words, 10 senses
   and 50 clusters per word) beside the vmeasure tool on the same files
   (target: within 1.2x).

Times are CPU (user + system) seconds, the best of BENCH_RUNS (default 3)
runs after a warm-up; the tool's are its own (RUSAGE_CHILDREN).  Run it with
the Python that has scikit-learn (Debian: /usr/bin/python3) and a release
build configured with that Python (-Dpython_installation=/usr/bin/python3);
the module is taken from BUILDDIR/python.  Exit status 0 whether or not the
targets are met, 2 on a usage error.
"""

import os
import random
import resource
import subprocess
import sys
import tempfile
import time

if len(sys.argv) not in (2, 3):
    sys.stderr.write("usage: run-python.py BUILDDIR [N]\n")
    sys.exit(2)
build = os.path.abspath(sys.argv[1])
n = int(sys.argv[2]) if len(sys.argv) == 3 else 1000000
runs = int(os.environ.get("BENCH_RUNS", "3"))
sys.path.insert(0, os.path.join(build, "python"))
import tageval  # noqa: E402
import tageval.metrics  # noqa: E402

try:
    import sklearn.metrics as skm
except ImportError:
    skm = None


def cpu(who=resource.RUSAGE_SELF):
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def best(f):
    """(the best CPU time, its wall time, the value) of runs after a warm-up."""
    value = f()
    times = []
    for _ in range(runs):
        c, w = cpu(), time.perf_counter()
        f()
        times.append((cpu() - c, time.perf_counter() - w))
    c, w = min(times)
    return c, w, value


def best_child(cmd):
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    times = []
    for _ in range(runs):
        c, w = cpu(resource.RUSAGE_CHILDREN), time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append((cpu(resource.RUSAGE_CHILDREN) - c, time.perf_counter() - w))
    return min(times)


print("tageval Python benchmark: module %s, libtageval %s, Python %s"
      % (tageval.__file__, tageval.__version__, sys.version.split()[0]))
print("CPU seconds (user + system), best of %d runs after a warm-up; wall beside\n" % runs)

rng = random.Random(1)
t = ["sense%d" % rng.randrange(50) for _ in range(n)]
p = ["cluster%d" % rng.randrange(200) for _ in range(n)]
print("1. V-measure of %d labels (lists of str; 50 classes, 200 clusters)" % n)
c1, w1, v1 = best(lambda: tageval.metrics.v_measure(t, p))
print("   tageval.metrics.v_measure        %8.3f s CPU %8.3f s wall  V = %.17g" % (c1, w1, v1))
if skm is not None:
    c2, w2, v2 = best(lambda: skm.v_measure_score(t, p))
    print("   sklearn.metrics.v_measure_score  %8.3f s CPU %8.3f s wall  V = %.17g" % (c2, w2, v2))
    print("   sklearn / tageval: %.1fx CPU (target >= 10x: %s); |difference| %.3g"
          % (c2 / c1, "met" if c2 >= 10 * c1 else "NOT met", abs(v1 - v2)))
else:
    print("   (no scikit-learn in this Python: comparison skipped)")
del t, p

try:
    import numpy
except ImportError:
    numpy = None
if numpy is not None:
    gen_np = numpy.random.default_rng(1)
    t = gen_np.integers(0, 50, n, dtype="int64")
    p = gen_np.integers(0, 200, n, dtype="int64")
    print("\n1b. V-measure of %d int64 NumPy labels (50 classes, 200 clusters)" % n)
    c1, w1, v1 = best(lambda: tageval.metrics.v_measure(t, p))
    print("   tageval.metrics.v_measure        %8.3f s CPU %8.3f s wall  V = %.17g" % (c1, w1, v1))
    tl, pl = t.tolist(), p.tolist()
    c3, w3, v3 = best(lambda: tageval.metrics.v_measure(tl, pl))
    print("   the same as lists of int         %8.3f s CPU %8.3f s wall  V = %.17g" % (c3, w3, v3))
    del tl, pl
    if skm is not None:
        c2, w2, v2 = best(lambda: skm.v_measure_score(t, p))
        print("   sklearn.metrics.v_measure_score  %8.3f s CPU %8.3f s wall  V = %.17g"
              % (c2, w2, v2))
        print("   sklearn / tageval: %.1fx CPU; |difference| %.3g" % (c2 / c1, abs(v1 - v2)))
    del t, p
else:
    print("\n1b. (no NumPy in this Python: the array case skipped)")

gen = os.path.join(build, "tests", "bench", "gen-wsi")
vmeasure = os.path.join(build, "tools", "vmeasure")
with tempfile.TemporaryDirectory(prefix="tageval-bench-python") as data:
    subprocess.run([gen, "--instances", str(n), data], check=True, stdout=subprocess.DEVNULL)
    gold, clusters = os.path.join(data, "gold"), os.path.join(data, "clusters")
    print("\n2. the gen-wsi data set: %d instances (%.1f MiB of gold + clusters)"
          % (n, (os.path.getsize(gold) + os.path.getsize(clusters)) / 2 ** 20))
    c1, w1, r = best(lambda: tageval.wsi(clusters, gold, per_word=True))
    c2, w2 = best_child([vmeasure, "--format=json", "--per-word", clusters, gold])
    print("   tageval.wsi(per_word=True)       %8.3f s CPU %8.3f s wall" % (c1, w1))
    print("   vmeasure --format=json --per-word %7.3f s CPU %8.3f s wall" % (c2, w2))
    print("   tageval.wsi / vmeasure: %.2fx CPU (target <= 1.2x: %s)"
          % (c1 / c2, "met" if c1 <= 1.2 * c2 else "NOT met"))
