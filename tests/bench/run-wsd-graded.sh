#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# run-wsd-graded.sh BUILDDIR [N] - times wsd-graded on a synthetic graded
# data set in the shape of SemEval-2013 Task 13: N instances (default
# 1000000) in words of 100, written by gen-wsd-graded, next to wc -l on the
# same files.
#
# Environment:
#   BENCH_DIR        write the data set there and keep it (default: a temporary
#                    directory, removed at exit)
#   BENCH_SEED       the generator's seed (default 1)
#   BENCH_RUNS       timed runs per command (default 3; the best wall time counts)
#   GEN_WSD_GRADED   the generator (default BUILDDIR/tests/bench/gen-wsd-graded;
#                    when that is missing, gen-wsd-graded.c is compiled with ${CC:-cc})
#   BENCH_GNU_TIME   0: do not use /usr/bin/time (wall time only, no peak RSS)
#
# Each run of wsd-graded evaluates the gold key three times (all instances,
# the single-sense and the multi-sense ones), with the 5-fold remapping
# (induced senses) or without it (answers in the gold inventory).  Targets,
# at N = 1000000 (this benchmark's own, after issue 12's target for the
# other graded metrics): under 1 s of wall time and a peak RSS under twice
# the input (gold + system bytes).
# Exit status: 0 (whether or not the targets are met), 1 if a tool fails,
# 2 on a usage error.

here=$(cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=bench-lib.sh
. "$here/bench-lib.sh"

bench_args 1 '' "$@"
tool=$build/tools/wsd-graded
bench_need "$tool"

bench_dirs tageval-bench-wsd-graded tmp
gold=$data/gold
induced=$data/induced
wn=$data/wn
gen=${GEN_WSD_GRADED:-$build/tests/bench/gen-wsd-graded}
if [ ! -x "$gen" ]; then
	gen=$scratch/gen-wsd-graded
	${CC:-cc} -std=c11 -O2 -o "$gen" "$here/gen-wsd-graded.c" "$here/gen-common.c" ||
		die "cannot compile $here/gen-wsd-graded.c"
fi

bench_timer wall
bench_timed_out=$scratch/out

printf 'tageval graded WSD benchmark: %s\n' "$tool"
bench_generate gen-wsd-graded instances --instances
printf 'generated in %s s\n\n' "$gen_wall"

bench_files 9 gold "$gold" induced "$induced" wn "$wn"
gold_lines=${file_lines[gold]}
bench_print_method ''

names=("wc -l gold induced" "wsd-graded (remapping)" "wc -l gold wn" "wsd-graded -n (wn)")
targeted=(0 1 0 1)
command_of() {
	case $1 in
	0) cmd=(wc -l "$gold" "$induced"); input=$((file_bytes[gold] + file_bytes[induced])) ;;
	1) cmd=("$tool" --format=json "$induced" "$gold"); input=$((file_bytes[gold] + file_bytes[induced])) ;;
	2) cmd=(wc -l "$gold" "$wn"); input=$((file_bytes[gold] + file_bytes[wn])) ;;
	3) cmd=("$tool" --format=json --no-remapping "$wn" "$gold"); input=$((file_bytes[gold] + file_bytes[wn])) ;;
	esac
}

result_of() {
	case $1 in
	0 | 2) awk 'END { print $1 " lines" }' "$scratch/first.out" ;;
	*) sed -n 's/^{[^{]*"total":{[^}]*"jaccard":\([0-9.e+-]*\),"kendall_tau":\([0-9.e+-]*\),"wndcg":\([0-9.e+-]*\).*/JI \1 tau \2 WNDCG \3/p' \
		"$scratch/first.out" | awk '{ printf "JI %.4f tau %.4f WNDCG %.4f\n", $2, $4, $6 }' ;;
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
	bench_figures "$b_wall" "$b_rss" "$gold_lines" "$input" "${targeted[$i]}" 1 2
	row "${names[$i]}" "$b_wall" "$rate" "$mib" "$times" "$targets" "$(result_of "$i")"
done
printf '\ntargets (at N = 1000000 only): wall < 1 s and peak RSS < 2x input\n'
exit $status
