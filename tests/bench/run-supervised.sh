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
if [ "$n" -lt 1000 ]; then
	printf '%s: N must be at least 1000 (10 instances per word)\n' "$prog" >&2
	usage
fi
case $runs in '' | *[!0-9]* | 0) die "BENCH_RUNS must be a positive integer" ;; esac

tool=${WSI_SUPERVISED:-$build/tools/wsi-supervised}
[ -x "$tool" ] || die "$tool: not found; build it first (ninja -C $build)"

if [ -n "${BENCH_DIR:-}" ]; then
	data=$BENCH_DIR
	mkdir -p "$data" || die "cannot create $data"
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/tageval-bench-sup.XXXXXX") || die "mktemp failed"
	trap 'rm -rf "$scratch"' EXIT
else
	data=$(mktemp -d "${TMPDIR:-/tmp}/tageval-bench-sup.XXXXXX") || die "mktemp failed"
	scratch=$data/tmp
	mkdir "$scratch" || die "cannot create $scratch"
	trap 'rm -rf "$data"' EXIT
fi
trap 'exit 130' INT TERM
gold=$data/gold
clusters=$data/clusters
mapping=$data/mapping.key
test_key=$data/test.key
mapped=$scratch/mapped
mkdir -p "$mapped" || die "cannot create $mapped"

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
printf 'tageval supervised WSI benchmark: %s\n' "$tool"
printf 'generating %s instances (seed %s) in %s\n' "$n" "$seed" "$data"
measure "$gen" --instances "$n" --seed "$seed" "$data"
if [ "$m_rc" != 0 ]; then
	cat "$scratch/err" >&2
	die "gen-wsi failed (exit $m_rc)"
fi
printf 'generated in %s s\n' "$m_wall"
# a given 80/20 split: every fifth gold line is tested (comments and blank
# lines, if any, are copied to the mapping key, where they are skipped)
awk -v m="$mapping" -v t="$test_key" 'NF >= 3 && FNR % 5 == 0 { print > t; next } { print > m }' \
	"$gold" || die "cannot write the split files"
printf 'split files written\n\n'

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
printf '  %-9s %10s %12s\n' mapping "$(lines "$mapping")" "$(bytes "$mapping")"
printf '  %-9s %10s %12s\n' test "$(lines "$test_key")" "$(bytes "$test_key")"
printf '  %-9s %10s %12s (%.1f MiB)\n' 'gold+cl.' "$((gold_lines + cl_lines))" "$input_bytes" \
	"$(awk -v b="$input_bytes" 'BEGIN { print b / 1048576 }')"
printf '\ntiming: %s, best of %s run(s) after one untimed warm-up run\n' "$method" "$runs"
printf '"x input" is the peak RSS over the bytes of gold + clusters\n\n'

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
	best "${cmd[@]}"
	if [ "$b_rc" != 0 ]; then
		row "${names[$i]}" - - - - FAILED "exit $b_rc: $(head -n 1 "$scratch/err" | cut -c 1-60)"
		status=1
		continue
	fi
	IFS=$'\t' read -r rate mib times target <<<"$(awk -v wall="$b_wall" -v rss="$b_rss" \
		-v lines="$gold_lines" -v input="$input_bytes" -v n="$n" -v t="${targeted[$i]}" '
	BEGIN {
		rate = wall > 0 ? sprintf("%.0f", lines / wall) : "-"
		if (rss == "-") {
			mib = "-"; times = "-"
		} else {
			mib = sprintf("%.1f", rss / 1024)
			times = sprintf("%.2f", rss * 1024 / input)
		}
		# the target is set for N = 1000000 (fixed costs dominate small N)
		target = (n != 1000000 || !t) ? "-" : wall < 1 ? "ok" : "slow"
		printf "%s\t%s\t%s\t%s\n", rate, mib, times, target
	}')"
	row "${names[$i]}" "$b_wall" "$rate" "$mib" "$times" "$target" "$(result_of "$i")"
done
printf '\ntarget (at N = 1000000 only): wsi-supervised --folds 5 under 1 s of wall time\n'
printf '\nthe --folds 5 table (warm-up run):\n'
command_of 1
"${cmd[@]}" 2>&1 | sed 's/^/  /' || status=1
exit $status
