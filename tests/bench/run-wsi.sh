#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# run-wsi.sh BUILDDIR [N] - times vmeasure and fscore on a synthetic word
# sense induction data set of N instances (default 1000000: 100 words, 10
# senses and 50 clusters per word), next to wc -l on the same files and, when
# scikit-learn is installed, its homogeneity_completeness_v_measure.
#
# Environment:
#   BENCH_DIR        write the data set there and keep it (default: a temporary
#                    directory, removed at exit)
#   BENCH_SEED       the generator's seed (default 1)
#   BENCH_RUNS       timed runs per command (default 3; the best wall time counts)
#   GEN_WSI          the generator (default BUILDDIR/tests/bench/gen-wsi; when
#                    that is missing, gen-wsi.c is compiled with ${CC:-cc})
#   BENCH_SKLEARN    0: skip the scikit-learn comparison
#   BENCH_PYTHON     the Python with scikit-learn (default python3; Debian's
#                    python3-sklearn is in /usr/bin/python3)
#   BENCH_GNU_TIME   0: do not use /usr/bin/time (wall time only, no peak RSS)
#
# Targets, at N = 1000000: under 0.5 s of wall time for all the metrics
# together (one run of vmeasure --format=json computes every metric) and a
# peak RSS under twice the input (gold + clusters bytes); the single-metric
# runs are held to the same.  "three programs" runs vmeasure, fscore and
# fscore --paired one after the other, reading the files three times: it is
# shown for comparison, without a target.
# Exit status: 0 (whether or not the targets are met), 1 if a tool fails,
# 2 on a usage error.

set -u
LC_ALL=C
export LC_ALL

prog=${0##*/}
here=$(cd -- "$(dirname -- "$0")" && pwd)

usage() {
	printf 'usage: %s BUILDDIR [N]\n' "$prog" >&2
	exit 2
}

die() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 1
}

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	usage
fi
build=$1
n=${2:-1000000}
seed=${BENCH_SEED:-1}
runs=${BENCH_RUNS:-3}
case $n in '' | *[!0-9]*) usage ;; esac
if [ "$n" -lt 100 ]; then
	printf '%s: N must be at least 100 (one instance per word)\n' "$prog" >&2
	usage
fi
case $runs in '' | *[!0-9]* | 0) die "BENCH_RUNS must be a positive integer" ;; esac

vmeasure=$build/tools/vmeasure
fscore=$build/tools/fscore
[ -x "$vmeasure" ] || die "$vmeasure: not found; build it first (ninja -C $build)"
[ -x "$fscore" ] || die "$fscore: not found; build it first (ninja -C $build)"

if [ -n "${BENCH_DIR:-}" ]; then
	data=$BENCH_DIR
	mkdir -p "$data" || die "cannot create $data"
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/tageval-bench-wsi.XXXXXX") || die "mktemp failed"
	trap 'rm -rf "$scratch"' EXIT
else
	data=$(mktemp -d "${TMPDIR:-/tmp}/tageval-bench-wsi.XXXXXX") || die "mktemp failed"
	scratch=$data/tmp
	mkdir "$scratch" || die "cannot create $scratch"
	trap 'rm -rf "$data"' EXIT
fi
trap 'exit 130' INT TERM
gold=$data/gold
clusters=$data/clusters

gen=${GEN_WSI:-$build/tests/bench/gen-wsi}
if [ ! -x "$gen" ]; then
	gen=$scratch/gen-wsi
	${CC:-cc} -std=c11 -O2 -o "$gen" "$here/gen-wsi.c" ||
		die "cannot compile $here/gen-wsi.c"
fi

# ----------------------------------------------------------------- timing
# measure CMD...: runs CMD with stdout to $scratch/out and stderr to
# $scratch/err; sets m_rc, m_wall (seconds) and m_rss (peak RSS, KiB, or -)

gnu_time=0
if [ "${BENCH_GNU_TIME:-1}" != 0 ] && [ -x /usr/bin/time ] &&
	/usr/bin/time -f '%e %M' -o /dev/null true 2>/dev/null; then
	gnu_time=1
fi

if [ $gnu_time = 1 ]; then
	method='GNU time (elapsed, maximum resident set size)'
	measure() {
		/usr/bin/time -f '%e %M' -o "$scratch/time" "$@" >"$scratch/out" 2>"$scratch/err"
		m_rc=$?
		read -r m_wall m_rss <<<"$(tail -n 1 "$scratch/time")"
		case ${m_wall:-x} in *[!0-9.]*) m_wall=0 m_rss=- ;; esac
	}
else
	method='bash clock (no peak RSS: install GNU time for it)'
	measure() {
		local start=${EPOCHREALTIME:-$(date +%s.%N)}
		"$@" >"$scratch/out" 2>"$scratch/err"
		m_rc=$?
		local end=${EPOCHREALTIME:-$(date +%s.%N)}
		m_wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
		m_rss=-
	}
fi

# best CMD...: one untimed warm-up run (kept in $scratch/first.out), then
# $runs timed runs; sets b_rc, b_wall (the best) and b_rss (the largest)
best() {
	measure "$@"
	b_rc=$m_rc
	cp "$scratch/out" "$scratch/first.out"
	[ "$b_rc" = 0 ] || return
	b_wall=''
	b_rss=$m_rss
	local i
	for ((i = 0; i < runs; i++)); do
		measure "$@"
		b_rc=$m_rc
		[ "$b_rc" = 0 ] || return
		if [ -z "$b_wall" ] || awk -v a="$m_wall" -v b="$b_wall" 'BEGIN { exit !(a < b) }'; then
			b_wall=$m_wall
		fi
		if [ "$m_rss" != - ] && [ "$b_rss" != - ] && [ "$m_rss" -gt "$b_rss" ]; then
			b_rss=$m_rss
		fi
	done
}

# ------------------------------------------------------------------- data
printf 'tageval WSI benchmark: %s, %s\n' "$vmeasure" "$fscore"
printf 'generating %s instances (seed %s) in %s\n' "$n" "$seed" "$data"
measure "$gen" --instances "$n" --seed "$seed" "$data"
if [ "$m_rc" != 0 ]; then
	cat "$scratch/err" >&2
	die "gen-wsi failed (exit $m_rc)"
fi
printf 'generated in %s s\n\n' "$m_wall"

lines() { wc -l <"$1" | tr -d ' '; }
bytes() { wc -c <"$1" | tr -d ' '; }
gold_lines=$(lines "$gold")
gold_bytes=$(bytes "$gold")
cl_lines=$(lines "$clusters")
cl_bytes=$(bytes "$clusters")
input_bytes=$((gold_bytes + cl_bytes))
printf '  %-9s %10s %12s\n' file 'wc -l' 'wc -c'
printf '  %-9s %10s %12s\n' gold "$gold_lines" "$gold_bytes"
printf '  %-9s %10s %12s\n' clusters "$cl_lines" "$cl_bytes"
printf '  %-9s %10s %12s (%.1f MiB)\n' total "$((gold_lines + cl_lines))" "$input_bytes" \
	"$(awk -v b="$input_bytes" 'BEGIN { print b / 1048576 }')"
printf '\ntiming: %s, best of %s run(s) after one untimed warm-up run\n\n' "$method" "$runs"

# -------------------------------------------------------------- commands
names=("wc -l (reference)" "vmeasure" "fscore" "fscore --paired" "three programs"
	"all metrics (json)")
# which rows the targets apply to (the json row computes every metric in one run)
targeted=(0 1 1 1 0 1)

# shellcheck disable=SC2016 # row 4: the positional parameters of an inner sh
command_of() {
	case $1 in
	0) cmd=(wc -l "$gold" "$clusters") ;;
	1) cmd=("$vmeasure" "$clusters" "$gold") ;;
	2) cmd=("$fscore" "$clusters" "$gold") ;;
	3) cmd=("$fscore" --paired "$clusters" "$gold") ;;
	4) cmd=(sh -c '"$1" "$3" "$4" && "$2" "$3" "$4" && "$2" --paired "$3" "$4"' sh
		"$vmeasure" "$fscore" "$clusters" "$gold") ;;
	5) cmd=("$vmeasure" --format=json "$clusters" "$gold") ;;
	esac
}

# the figure a run printed: its first summary line, or the total V of the JSON
result_of() {
	case $1 in
	0) awk 'END { print $1 " lines" }' "$scratch/first.out" ;;
	5) sed -n 's/.*"total":{[^}]*"v_measure":\([0-9.e+-]*\).*/v_measure \1 (and every other metric)/p' \
		"$scratch/first.out" | cut -c 1-60 ;;
	*) grep -m 1 -E '^[A-Za-z -]+: ' "$scratch/first.out" ;;
	esac
}

row() {
	printf '%-24s %7s %13s %9s %8s  %-8s %s\n' "$@"
}
row command 'best s' 'instances/s' 'peak MiB' 'x input' targets result
row ------- ------ ----------- -------- ------- ------- ------
status=0
for i in "${!names[@]}"; do
	command_of "$i"
	best "${cmd[@]}"
	if [ "$b_rc" != 0 ]; then
		row "${names[$i]}" - - - - FAILED "exit $b_rc: $(head -n 1 "$scratch/err" | cut -c 1-60)"
		status=1
		continue
	fi
	IFS=$'\t' read -r rate mib times targets <<<"$(awk -v wall="$b_wall" -v rss="$b_rss" \
		-v lines="$gold_lines" -v input="$input_bytes" -v n="$n" -v t="${targeted[$i]}" '
	BEGIN {
		rate = wall > 0 ? sprintf("%.0f", lines / wall) : "-"
		if (rss == "-") {
			mib = "-"; times = "-"; big = ""
		} else {
			mib = sprintf("%.1f", rss / 1024)
			times = sprintf("%.2f", rss * 1024 / input)
			big = rss * 1024 / input < 2 ? "" : "big"
		}
		# the targets are set for N = 1000000 (fixed costs dominate small N)
		targets = (wall < 0.5 ? "" : "slow ") big
		targets = (n != 1000000 || !t) ? "-" : targets == "" ? "ok" : targets
		printf "%s\t%s\t%s\t%s\n", rate, mib, times, targets
	}')"
	row "${names[$i]}" "$b_wall" "$rate" "$mib" "$times" "$targets" "$(result_of "$i")"
done
printf '\ntargets (at N = 1000000 only): wall < 0.5 s and peak RSS < 2x input\n'

# -------------------------------------------------------- scikit-learn
if [ "${BENCH_SKLEARN:-1}" = 0 ]; then
	exit $status
fi
python=${BENCH_PYTHON:-python3}
if ! command -v "$python" >/dev/null 2>&1 || ! "$python" -c 'import sklearn' 2>/dev/null; then
	printf '\nscikit-learn: not installed (%s -c "import sklearn" fails); comparison skipped\n' "$python"
	exit $status
fi

# The same reading as vmeasure on these files: class = first gold label,
# cluster = first system label without its weight, the unanswered instances
# of a word in one extra cluster; V per word, weighted by instances.
cat >"$scratch/sk.py" <<'EOF'
import sys, time
from sklearn.metrics import homogeneity_completeness_v_measure
start = time.perf_counter()
gold_path, clusters_path = sys.argv[1], sys.argv[2]
words = {}
with open(gold_path) as f:
    for line in f:
        w, inst, label = line.split()[:3]
        words.setdefault(w, {})[inst] = [label.split('/')[0], None]
with open(clusters_path) as f:
    for line in f:
        fields = line.split()
        d = words.get(fields[0])
        if d is not None and fields[1] in d:
            d[fields[1]][1] = fields[2].split('/')[0]
read = time.perf_counter()
total = n = 0
for w, d in words.items():
    classes = [v[0] for v in d.values()]
    clusters = [v[1] if v[1] is not None else '\0unanswered' for v in d.values()]
    h, c, v = homogeneity_completeness_v_measure(classes, clusters)
    total += v * len(classes)
    n += len(classes)
end = time.perf_counter()
print('%.17g %.3f %.3f' % (total / n, read - start, end - read))
EOF
printf '\nscikit-learn %s: homogeneity_completeness_v_measure per word, same files\n' \
	"$("$python" -c 'import sklearn; print(sklearn.__version__)')"
measure "$python" "$scratch/sk.py" "$gold" "$clusters"
if [ "$m_rc" != 0 ]; then
	printf '  failed (exit %s): %s\n' "$m_rc" "$(tail -n 1 "$scratch/err")"
	exit $status
fi
read -r sk_v sk_read sk_metric <"$scratch/out"
"$vmeasure" --digits=17 "$clusters" "$gold" >"$scratch/vm.out" 2>/dev/null || status=1
vm_v=$(sed -n 's/^V-measure: //p' "$scratch/vm.out")
printf '  python3 + scikit-learn: %s s wall (reading %s s, metric %s s), peak %s\n' \
	"$m_wall" "$sk_read" "$sk_metric" \
	"$(awk -v r="$m_rss" 'BEGIN { print r == "-" ? "-" : sprintf("%.1f MiB", r / 1024) }')"
awk -v a="$vm_v" -v b="$sk_v" 'BEGIN {
	d = a - b; if (d < 0) d = -d
	printf "  total V: vmeasure %.12f, scikit-learn %.12f, |difference| %.3g (%s)\n",
		a, b, d, d < 1e-9 ? "agree" : "DIFFER"
}'
exit $status
