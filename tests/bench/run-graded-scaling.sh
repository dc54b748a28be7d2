#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# run-graded-scaling.sh WSD_GRADED CASE [N] - wsd-graded on the adversarial
# input of gen-graded-scaling.sh CASE at N and at 4N (default N: 20000 for
# labels, 100000 for instances): the least user CPU time of BENCH_RUNS runs
# (default 3; /usr/bin/time %U, less disturbed by a shared machine than the
# wall time), the peak RSS, and the ratio 4N / N of the CPU times.  Linear
# or n log n work gives about 4 to 5; quadratic gives 16.
#
#   labels      wsd-graded --no-remapping: 5 instances whose gold and system
#               lines each carry N labels (repeated labels, long unions,
#               the sorts and tau's pairs)
#   instances   wsd-graded (remapping): one word of N instances with about
#               N/2 clusters and N/2 senses (the remapping matrix)
#
# Environment: BENCH_DIR (keep the data there), BENCH_RUNS.
# Exit status 0, 1 if a run fails, 2 on a usage error.
set -eu
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	echo "usage: run-graded-scaling.sh WSD_GRADED labels|instances [N]" >&2
	exit 2
fi
exe=$1 what=$2
case $what in
labels) n=${3:-20000} opt=--no-remapping ;;
instances) n=${3:-100000} opt=--format=json ;;
*) echo "run-graded-scaling.sh: unknown case $what" >&2; exit 2 ;;
esac
here=$(cd -- "$(dirname -- "$0")" && pwd)
runs=${BENCH_RUNS:-3}
dir=${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/tageval-graded-scaling.XXXXXX")}
[ -n "${BENCH_DIR:-}" ] || trap 'rm -rf "$dir"' EXIT
printf 'wsd-graded scaling: %s, case %s (%s), N = %s and 4N = %s, best of %s\n' \
	"$exe" "$what" "$opt" "$n" "$((4 * n))" "$runs"
printf '  %10s %12s %10s %10s\n' N 'input bytes' 'user s' 'peak MiB'
first=''
for size in "$n" "$((4 * n))"; do
	d=$dir/$size
	sh "$here/gen-graded-scaling.sh" "$what" "$size" "$d"
	bytes=$(cat "$d/gold" "$d/system" | wc -c | tr -d ' ')
	best='' rss=''
	i=0
	while [ $i -lt "$runs" ]; do
		if ! /usr/bin/time -f '%U %M' -o "$dir/time" "$exe" "$opt" "$d/system" "$d/gold" \
			>"$dir/out" 2>"$dir/err"; then
			echo "run-graded-scaling.sh: wsd-graded failed at N = $size:" >&2
			cat "$dir/err" >&2
			exit 1
		fi
		read -r u m <"$dir/time"
		if [ -z "$best" ] || awk -v a="$u" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$u rss=$m
		fi
		i=$((i + 1))
	done
	printf '  %10s %12s %10s %10s\n' "$size" "$bytes" "$best" \
		"$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')"
	[ -n "$first" ] || first=$best
	last=$best
done
awk -v a="$first" -v b="$last" 'BEGIN {
	if (a <= 0) { print "ratio 4N/N: - (the time at N is below the clock resolution)"; exit }
	printf "ratio 4N/N: %.2f\n", b / a
}'
