#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# run-scaling.sh BUILDDIR CASE [N] - the adversarial inputs that once cost
# time growing with the square of their size: times the tool on the input of
# gen-scaling.sh CASE at N and at 4N and prints both wall times, both peak
# RSS and the ratio of the times.  Linear work gives about 4x; the target is
# at most 5x.
#
#   ties        fscore CLUSTERS GOLD: N tied labels on one line
#               (default N 200000)
#   report      wsd-report -s MAP KEY SYS: N items, N + 1 senses
#               (default N 100000)
#   supervised  wsi-supervised CLUSTERS GOLD (5 folds): N instances of N
#               senses (default N 100000)
#   supervised-weights
#               wsi-supervised CLUSTERS GOLD (5 folds): the same, every
#               third instance also in a second cluster, with weights of
#               its own (default N 100000)
#   supervised-weights3
#               the same with a third cluster on those lines (not linear:
#               see the README)
#   alpha-sets  hkappa --flat --distance=masi A B: 2N distinct sets of tags
#               sharing one tag (default N 20000: both sizes beyond the
#               limit of 200,000,000 pairs, refused with exit 1, which
#               counts as done here; the status and message are printed)
#   alpha-ratio hkappa --flat --coefficients=alpha_ratio A B: 2N distinct
#               values (default N 20000: both beyond the limit of 20,000
#               distinct values, refused with exit 1 likewise)
#   many-labels hkappa --flat --coefficients=all A B: N items of 1.5N
#               distinct labels (default N 100000; the memory per label)
#
# Environment: BENCH_DIR, BENCH_RUNS (default 3), BENCH_GNU_TIME as in
# bench-lib.sh.  Exit status: 0 (whether or not the target is met), 1 if a
# tool fails, 2 on a usage error.

here=$(cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=bench-lib.sh
. "$here/bench-lib.sh"

usage() {
	printf 'usage: %s BUILDDIR ties|report|supervised|supervised-weights|supervised-weights3|alpha-sets|alpha-ratio|many-labels [N]\n' "$prog" >&2
	exit 2
}

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	usage
fi
what=$2
case $what in
ties) tool=fscore default=200000 ;;
report) tool=wsd-report default=100000 ;;
supervised | supervised-weights | supervised-weights3) tool=wsi-supervised default=100000 ;;
alpha-sets | alpha-ratio) tool=hkappa default=20000 bench_ok_status=1 ;;
many-labels) tool=hkappa default=100000 ;;
*) usage ;;
esac
bench_args 1 '' "$1" "${3:-$default}"
exe=$build/tools/$tool
bench_need "$exe"
bench_dirs tageval-bench-scaling
bench_timer rss

command_of() {
	local d=$1
	case $what in
	ties) cmd=("$exe" "$d/clusters" "$d/gold") ;;
	report) cmd=("$exe" -s "$d/map" "$d/key" "$d/sys") ;;
	supervised | supervised-weights | supervised-weights3) cmd=("$exe" "$d/clusters" "$d/gold") ;;
	alpha-sets) cmd=("$exe" --flat --distance=masi "$d/a" "$d/b") ;;
	alpha-ratio) cmd=("$exe" --flat --coefficients=alpha_ratio "$d/a" "$d/b") ;;
	many-labels) cmd=("$exe" --flat --coefficients=all "$d/a" "$d/b") ;;
	esac
}

printf 'tageval scaling benchmark: %s, case %s, N = %s and 4N = %s\n' "$exe" "$what" "$n" "$((4 * n))"
declare -A wall rss bytes
for size in "$n" "$((4 * n))"; do
	d=$data/$size
	sh "$here/gen-scaling.sh" "$what" "$size" "$d" || die "gen-scaling.sh failed"
	bytes[$size]=$(cat "$d"/* | wc -c | tr -d ' ')
	command_of "$d"
	if ! bench_best "$scratch/out.$size" "$scratch/err.$size" "${cmd[@]}"; then
		die "$tool at N = $size: $(bench_failure "$scratch/err.$size" 200)"
	fi
	wall[$size]=$b_wall
	rss[$size]=$b_rss
	if [ "$b_rc" != 0 ]; then
		printf 'N = %s: exit %s: %s\n' "$size" "$b_rc" "$(head -n 1 "$scratch/err.$size" | cut -c 1-160)"
	fi
done
bench_print_method "command: ${cmd[*]}"
printf '  %10s %12s %10s %10s\n' N 'input bytes' 'wall s' 'peak MiB'
for size in "$n" "$((4 * n))"; do
	mib=-
	[ "${rss[$size]}" = - ] || mib=$(awk -v k="${rss[$size]}" 'BEGIN { printf "%.1f", k / 1024 }')
	printf '  %10s %12s %10s %10s\n' "$size" "${bytes[$size]}" "${wall[$size]}" "$mib"
done
awk -v a="${wall[$n]}" -v b="${wall[$((4 * n))]}" 'BEGIN {
	if (a <= 0) { print "ratio 4N/N: - (the time at N is below the clock resolution)"; exit }
	r = b / a
	printf "ratio 4N/N: %.2f (%s)\n", r, r <= 5 ? "at most 5x: ok" : "above 5x: superlinear"
}'
