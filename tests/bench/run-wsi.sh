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

here=$(cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=bench-lib.sh
. "$here/bench-lib.sh"

bench_args 100 'one instance per word' "$@"
vmeasure=$build/tools/vmeasure
fscore=$build/tools/fscore
bench_need "$vmeasure"
bench_need "$fscore"

bench_dirs tageval-bench-wsi tmp
gold=$data/gold
clusters=$data/clusters
bench_gen_wsi

# every run's stdout goes to a file, the warm-up run's to $scratch/first.out
bench_timer wall
bench_timed_out=$scratch/out

# ------------------------------------------------------------------- data
printf 'tageval WSI benchmark: %s, %s\n' "$vmeasure" "$fscore"
bench_generate gen-wsi instances --instances
printf 'generated in %s s\n\n' "$gen_wall"

bench_files 9 gold "$gold" clusters "$clusters"
gold_lines=${file_lines[gold]}
input_bytes=$((file_bytes[gold] + file_bytes[clusters]))
printf '  %-9s %10s %12s (%.1f MiB)\n' total "$((gold_lines + file_lines[clusters]))" \
	"$input_bytes" "$(bench_mib "$input_bytes")"
bench_print_method ''

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
	bench_best "$scratch/first.out" "$scratch/err" "${cmd[@]}"
	if [ -n "$b_failed" ]; then
		row "${names[$i]}" - - - - FAILED "$(bench_failure "$scratch/err" 60)"
		status=1
		continue
	fi
	# targets: wall < 0.5 s, peak RSS < 2x input
	bench_figures "$b_wall" "$b_rss" "$gold_lines" "$input_bytes" "${targeted[$i]}" 0.5 2
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
bench_measure "$scratch/out" "$scratch/err" "$python" "$scratch/sk.py" "$gold" "$clusters"
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
