#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# run-wsi-report.sh BUILDDIR [N [SYSTEMS]] - issue 13's benchmark: wsi-report
# with its default columns (V-measure, paired F, supervised recall and
# variance over 5 folds, clusters; the three baselines) on SYSTEMS systems
# (default 20) of N instances (default 1000000) against one gold key.
# gen-wsi writes three data sets (seeds 1 to 3); the gold key is seed 1's,
# the systems the three clusters files in turn.  Prints the CPU (user) time,
# the wall time and the peak RSS of one run (/usr/bin/time), the input
# sizes and the targets: under 10 s, and a peak under twice the largest
# input plus the gold key.
#
# Environment: BENCH_DIR keeps the data there (default: a temporary
# directory, removed at exit).
set -eu
build=${1:?usage: run-wsi-report.sh BUILDDIR [N [SYSTEMS]]}
n=${2:-1000000}
systems=${3:-20}
tool=$build/tools/wsi-report
gen=$build/tests/bench/gen-wsi
for f in "$tool" "$gen"; do
	[ -x "$f" ] || { echo "run-wsi-report.sh: $f is missing (build it first)" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "run-wsi-report.sh: /usr/bin/time (GNU time) is needed" >&2; exit 2; }
if [ -n "${BENCH_DIR:-}" ]; then
	dir=$BENCH_DIR
	mkdir -p "$dir"
else
	dir=$(mktemp -d "${TMPDIR:-/tmp}/tageval-bench-wsi-report.XXXXXX")
	trap 'rm -rf "$dir"' EXIT
fi
for s in 1 2 3; do
	[ -s "$dir/d$s/clusters" ] || "$gen" --instances "$n" --seed "$s" "$dir/d$s" >/dev/null
done
args=()
for i in $(seq 1 "$systems"); do
	args+=("s$i=$dir/d$(( (i - 1) % 3 + 1 ))/clusters")
done
/usr/bin/time -o "$dir/time" -f '%U %e %M' "$tool" "$dir/d1/gold" "${args[@]}" >"$dir/out" 2>"$dir/err" ||
	{ echo "run-wsi-report.sh: wsi-report failed:" >&2; cat "$dir/err" >&2; exit 1; }
read -r user wall kib <"$dir/time"
gold=$(wc -c <"$dir/d1/gold")
largest=0
for s in 1 2 3; do
	c=$(wc -c <"$dir/d$s/clusters")
	[ "$c" -gt "$largest" ] && largest=$c
done
limit=$(( (2 * largest + gold) / 1024 ))
printf 'wsi-report, %s systems of %s instances, default columns\n' "$systems" "$n"
printf '  gold %s bytes, largest clusters file %s bytes\n' "$gold" "$largest"
printf '  CPU (user) %s s, wall %s s, peak RSS %s KiB\n' "$user" "$wall" "$kib"
printf '  targets: CPU < 10 s: %s; peak < 2 x largest + gold (%s KiB): %s\n' \
	"$(awk -v u="$user" 'BEGIN { print (u < 10 ? "met" : "not met") }')" "$limit" \
	"$([ "$kib" -lt "$limit" ] && echo met || echo 'not met')"
