#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# run-hkappa.sh BUILDDIR [N] - times hkappa on a synthetic double annotation
# of N items (default 1000000) under several option sets.
#
# gen-annotations writes DIR/ann1 (N items over 200 lexelts), DIR/ann2 and
# DIR/ann3 (about 98% of them, each shuffled) and DIR/senses (50 leaf tags under 5 x 2 general
# tags, parent form).  The script prints their wc -l and wc -c, then, for wc -l
# (the cost of reading the files) and for each option set, runs the command
# once untimed (page cache), then BENCH_RUNS times, and prints the best wall
# time, items per second, the peak RSS, the peak RSS as a multiple of the
# input bytes, whether the targets are met and the pooled kappa.  Targets, at
# N = 1000000: under 0.5 s and a peak RSS under twice the input.  Use a
# release build (the developer build has sanitizers).  Exit status 1 if an
# hkappa run fails, 2 on a usage error.
#
# Environment:
#   BENCH_DIR        write the data set there and keep it (default: a temporary
#                    directory, removed at exit)
#   BENCH_SEED       the generator's seed (default 1)
#   BENCH_RUNS       timed runs per option set (default 3; the best wall time
#                    counts)
#   HKAPPA           the program to time (default BUILDDIR/tools/hkappa)
#   GEN_ANNOTATIONS  the generator (default BUILDDIR/tests/bench/gen-annotations)
#   BENCH_GNU_TIME   0: do not use /usr/bin/time (use the bash + /proc fallback)

here=$(cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=bench-lib.sh
. "$here/bench-lib.sh"

bench_args 1 '' "$@"
gen=${GEN_ANNOTATIONS:-$build/tests/bench/gen-annotations}
hkappa=${HKAPPA:-$build/tools/hkappa}
bench_need "$gen" GEN_ANNOTATIONS
bench_need "$hkappa" HKAPPA

bench_dirs tageval-bench
ann1=$data/ann1
ann2=$data/ann2
ann3=$data/ann3
senses=$data/senses

bench_timer rss

# ------------------------------------------------------------------- data
printf 'tageval benchmark: %s\n' "$hkappa"
bench_generate gen-annotations items --items
printf 'generated in %s s\n\n' "$gen_wall"
bench_files 7 ann1 "$ann1" ann2 "$ann2" ann3 "$ann3" senses "$senses"
ann1_lines=${file_lines[ann1]}
ann1_bytes=${file_bytes[ann1]}
ann2_bytes=${file_bytes[ann2]}
ann3_bytes=${file_bytes[ann3]}
senses_bytes=${file_bytes[senses]}
input_bytes=$((ann1_bytes + ann2_bytes + senses_bytes))
bench_print_method ''

# ----------------------------------------------------------- option sets
# The first row times wc -l on the two annotation files, the cost of merely
# reading them.  The last two are not held to the targets: --downward reads
# ann1 a second time as its corpus (its input counts ann1 twice), and the
# bootstrap recomputes every figure once per replicate.  The last adds every
# coefficient of --coefficients (the generated tags are not numbers, so the
# numeric ones stop early: see tests/bench/README for numeric ratings); the
# very last, the same with a third annotator (issue 14's benchmark: 1,000,000
# items x 3 annotators, every coefficient).
names=("wc -l ann1 ann2 (baseline)" "default" "--flat" "--per-lexelt"
	"--format=json --per-lexelt" "--downward=ann1" "--bootstrap=10"
	"--flat --coefficients=all" "... all, ann1 ann2 ann3")
targeted=(0 1 1 1 1 0 0 1 1)

options_cmd() {
	case $1 in
	0) cmd=(wc -l "$ann1" "$ann2") ;;
	1) cmd=("$hkappa" "$ann1" "$ann2" "$senses") ;;
	2) cmd=("$hkappa" --flat "$ann1" "$ann2") ;;
	3) cmd=("$hkappa" --per-lexelt "$ann1" "$ann2" "$senses") ;;
	4) cmd=("$hkappa" --format=json --per-lexelt "$ann1" "$ann2" "$senses") ;;
	5) cmd=("$hkappa" --downward="$ann1" "$ann1" "$ann2" "$senses") ;;
	6) cmd=("$hkappa" --bootstrap=10 "$ann1" "$ann2" "$senses") ;;
	7) cmd=("$hkappa" --flat --coefficients=all "$ann1" "$ann2") ;;
	8) cmd=("$hkappa" --flat --coefficients=all "$ann1" "$ann2" "$ann3") ;;
	esac
	input=$input_bytes
	[ "$1" = 0 ] || [ "$1" = 2 ] || [ "$1" = 7 ] && input=$((ann1_bytes + ann2_bytes))
	[ "$1" = 8 ] && input=$((ann1_bytes + ann2_bytes + ann3_bytes))
	[ "$1" = 5 ] && input=$((input_bytes + ann1_bytes))
	return 0
}

# "kappa 0.741310" from the text report, or the JSON member, or wc's total
kappa_of() {
	awk '
	/^kappa / { print "kappa " $2; found = 1; exit }
	/^pooled kappa / { print "kappa " $NF; found = 1; exit }
	/ total$/ { print $1 " lines"; found = 1; exit }
	/^\{/ { if (match($0, /"kappa":[-0-9.e]+/)) {
		print "kappa " substr($0, RSTART + 8, RLENGTH - 8); found = 1; exit } }
	END { if (!found) print "?" }' "$1"
}

row() {
	printf '%-27s %7s %11s %9s %8s  %-8s %s\n' "$@"
}
row options 'best s' 'items/s' 'peak MiB' 'x input' targets result
row ------- ------ ------- -------- ------- ------- ------
status=0
for i in "${!names[@]}"; do
	options_cmd "$i"
	out=$scratch/report.$i
	# warm-up (page cache), keeping the report for display
	bench_best "$out" "$scratch/err.$i" "${cmd[@]}"
	if [ -n "$b_failed" ]; then
		row "${names[$i]}" - - - - FAILED "$(bench_failure "$scratch/err.$i" 60 50)"
		status=1
		continue
	fi
	# targets: wall < 0.5 s, peak RSS < 2x input
	bench_figures "$b_wall" "$b_rss" "$ann1_lines" "$input" "${targeted[$i]}" 0.5 2
	row "${names[$i]}" "$b_wall" "$rate" "$mib" "$times" "$targets" "$(kappa_of "$out")"
done

printf '\ninput: ann1 %s + ann2 %s + senses %s = %s bytes (%.1f MiB)\n' \
	"$ann1_bytes" "$ann2_bytes" "$senses_bytes" "$input_bytes" \
	"$(bench_mib "$input_bytes")"
printf '(--flat rows: the annotation files only; the last row: ann1 + ann2 + ann3 %s bytes)\n' \
	"$((ann1_bytes + ann2_bytes + ann3_bytes))"
printf 'targets (checked only at N = 1000000, not for --downward and --bootstrap):\n'
printf '  wall < 0.5 s and peak RSS < 2x input, per option set\n'

printf '\nthe default report (warm-up run):\n'
cat "$scratch/report.1"

exit $status
