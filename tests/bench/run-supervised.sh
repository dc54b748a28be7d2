#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# run-supervised.sh BUILDDIR [N] - times wsi-supervised on a synthetic word
# sense induction data set of N instances (default 1000000: 100 words, 10
# senses and 50 clusters per word, from gen-wsi), next to wc -l on the same
# files.
#
# Rows: 5-fold cross-validation (the target row), the same as JSON, 10
# folds, 5 random 80/20 splits, one given 80/20 split read from two files
# (made here with awk: every fifth gold line is a test line), and 5 folds
# writing every split's mapped answers.
#
# Environment:
#   BENCH_DIR        write the data set there and keep it (default: a temporary
#                    directory, removed at exit)
#   BENCH_SEED       the generator's seed (default 1)
#   BENCH_RUNS       timed runs per command (default 3; the best wall time counts)
#   GEN_WSI          the generator (default BUILDDIR/tests/bench/gen-wsi; when
#                    that is missing, gen-wsi.c is compiled with ${CC:-cc})
#   WSI_SUPERVISED   the program to time (default BUILDDIR/tools/wsi-supervised)
#   BENCH_GNU_TIME   0: do not use /usr/bin/time (wall time only, no peak RSS)
#
# Target, at N = 1000000: wsi-supervised --folds 5 under 1 s of wall time in
# total (reading both files, building the five splits, mapping and scoring
# them).  Use a release build: the developer build's sanitizers make
# everything several times slower.
# Exit status: 0 (whether or not the target is met), 1 if a run fails, 2 on a
# usage error.

here=$(cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=bench-lib.sh
. "$here/bench-lib.sh"

bench_args 1000 '10 instances per word' "$@"
tool=${WSI_SUPERVISED:-$build/tools/wsi-supervised}
bench_need "$tool"

bench_dirs tageval-bench-sup tmp
gold=$data/gold
clusters=$data/clusters
mapping=$data/mapping.key
test_key=$data/test.key
mapped=$scratch/mapped
mkdir -p "$mapped" || die "cannot create $mapped"
bench_gen_wsi

# every run's stdout goes to a file, the warm-up run's to $scratch/first.out
bench_timer wall
bench_timed_out=$scratch/out

# ------------------------------------------------------------------- data
printf 'tageval supervised WSI benchmark: %s\n' "$tool"
bench_generate gen-wsi instances --instances
printf 'generated in %s s\n' "$gen_wall"
# a given 80/20 split: every fifth gold line is tested (comments and blank
# lines, if any, are copied to the mapping key, where they are skipped)
awk -v m="$mapping" -v t="$test_key" 'NF >= 3 && FNR % 5 == 0 { print > t; next } { print > m }' \
	"$gold" || die "cannot write the split files"
printf 'split files written\n\n'

bench_files 9 gold "$gold" clusters "$clusters" mapping "$mapping" test "$test_key"
gold_lines=${file_lines[gold]}
input_bytes=$((file_bytes[gold] + file_bytes[clusters]))
printf '  %-9s %10s %12s (%.1f MiB)\n' 'gold+cl.' "$((gold_lines + file_lines[clusters]))" \
	"$input_bytes" "$(bench_mib "$input_bytes")"
bench_print_method '"x input" is the peak RSS over the bytes of gold + clusters'

# -------------------------------------------------------------- commands
names=("wc -l (reference)" "--folds 5" "--folds 5 --format=json" "--folds 10"
	"--splits 5" "--split MAP:TEST" "--folds 5 --write-mapped")
# which rows the target applies to
targeted=(0 1 0 0 0 0 0)

command_of() {
	case $1 in
	0) cmd=(wc -l "$gold" "$clusters") ;;
	1) cmd=("$tool" --folds 5 "$clusters" "$gold") ;;
	2) cmd=("$tool" --folds 5 --format=json "$clusters" "$gold") ;;
	3) cmd=("$tool" --folds 10 "$clusters" "$gold") ;;
	4) cmd=("$tool" --splits 5 --test-fraction 0.2 "$clusters" "$gold") ;;
	5) cmd=("$tool" --split "$mapping:$test_key" "$clusters" "$gold") ;;
	6) cmd=("$tool" --folds 5 --write-mapped "$mapped" "$clusters" "$gold") ;;
	esac
}

# the figure a run printed: the mean recall (text or JSON)
result_of() {
	case $1 in
	0) awk 'END { print $1 " lines" }' "$scratch/first.out" ;;
	2) sed -n 's/.*"mean_recall":\([0-9.e+-]*\).*/mean_recall \1/p' "$scratch/first.out" ;;
	*) grep -m 1 '^mean recall: ' "$scratch/first.out" ;;
	esac
}

row() {
	printf '%-26s %7s %13s %9s %8s  %-8s %s\n' "$@"
}
row command 'best s' 'instances/s' 'peak MiB' 'x input' target result
row ------- ------ ----------- -------- ------- ------ ------
status=0
for i in "${!names[@]}"; do
	command_of "$i"
	bench_best "$scratch/first.out" "$scratch/err" "${cmd[@]}"
	if [ -n "$b_failed" ]; then
		row "${names[$i]}" - - - - FAILED "$(bench_failure "$scratch/err" 60)"
		status=1
		continue
	fi
	# the target: wall < 1 s (no memory target)
	bench_figures "$b_wall" "$b_rss" "$gold_lines" "$input_bytes" "${targeted[$i]}" 1
	row "${names[$i]}" "$b_wall" "$rate" "$mib" "$times" "${targets% }" "$(result_of "$i")"
done
printf '\ntarget (at N = 1000000 only): wsi-supervised --folds 5 under 1 s of wall time\n'
printf '\nthe --folds 5 table (warm-up run):\n'
command_of 1
"${cmd[@]}" 2>&1 | sed 's/^/  /' || status=1
exit $status
