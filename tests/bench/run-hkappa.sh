#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# run-hkappa.sh BUILDDIR [N] - times hkappa on a synthetic double annotation
# of N items (default 1000000) under several option sets.
#
# gen-annotations writes DIR/ann1 (N items over 200 lexelts), DIR/ann2 (about
# 98% of them, shuffled) and DIR/senses (50 leaf tags under 5 x 2 general
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

set -u
LC_ALL=C
export LC_ALL

prog=${0##*/}

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
case $n in '' | *[!0-9]* | 0) printf '%s: N must be a positive integer\n' "$prog" >&2; usage ;; esac
case $runs in '' | *[!0-9]* | 0) die "BENCH_RUNS must be a positive integer" ;; esac

gen=${GEN_ANNOTATIONS:-$build/tests/bench/gen-annotations}
hkappa=${HKAPPA:-$build/tools/hkappa}
[ -x "$gen" ] || die "$gen: not found; build it first (ninja -C $build) or set GEN_ANNOTATIONS"
[ -x "$hkappa" ] || die "$hkappa: not found; build it first (ninja -C $build) or set HKAPPA"

if [ -n "${BENCH_DIR:-}" ]; then
	data=$BENCH_DIR
	mkdir -p "$data" || die "cannot create $data"
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/tageval-bench.XXXXXX") || die "mktemp failed"
	trap 'rm -rf "$scratch"' EXIT
else
	data=$(mktemp -d "${TMPDIR:-/tmp}/tageval-bench.XXXXXX") || die "mktemp failed"
	scratch=$data
	trap 'rm -rf "$data"' EXIT
fi
trap 'exit 130' INT TERM
ann1=$data/ann1
ann2=$data/ann2
senses=$data/senses

# ----------------------------------------------------------------- timing
# measure OUT ERR CMD...: runs CMD (stdout to OUT, stderr to ERR) and sets
# m_rc, m_wall (seconds) and m_rss (peak resident set, KiB)

gnu_time=0
if [ "${BENCH_GNU_TIME:-1}" != 0 ] && [ -x /usr/bin/time ] &&
	/usr/bin/time -f '%e %M' -o /dev/null true 2>/dev/null; then
	gnu_time=1
fi

if [ $gnu_time = 1 ]; then
	method="GNU time (%e %M)"
	measure() {
		local out=$1 err=$2
		shift 2
		/usr/bin/time -f '%e %M' -o "$scratch/time" "$@" >"$out" 2>"$err"
		m_rc=$?
		# the last line: GNU time may first note a status or a signal
		read -r m_wall m_rss <<<"$(tail -n 1 "$scratch/time")"
		case ${m_wall:-x} in *[!0-9.]*) m_wall=0 m_rss=0 ;; esac
	}
else
	method="bash clock (EPOCHREALTIME) and /proc VmHWM sampled every 10 ms"
	method="$method (approximate; install GNU time: apt-get install time)"
	if ! mkfifo "$scratch/tick" || ! exec 9<>"$scratch/tick"; then
		die "cannot create a FIFO in $scratch"
	fi
	now() {
		if [ -n "${EPOCHREALTIME:-}" ]; then
			now=$EPOCHREALTIME
		else
			now=$(date +%s.%N)
		fi
	}
	measure() {
		local out=$1 err=$2 start pid hwm k v _
		shift 2
		m_rss=0
		now
		start=$now
		"$@" >"$out" 2>"$err" 9<&- &
		pid=$!
		while :; do
			hwm=
			{
				while read -r k v _; do
					[ "$k" = VmHWM: ] && { hwm=$v; break; }
				done
			} 2>/dev/null <"/proc/$pid/status" || break
			[ -n "$hwm" ] || break
			[ "$hwm" -gt "$m_rss" ] && m_rss=$hwm
			read -r -t 0.01 -u 9 _
		done
		wait "$pid"
		m_rc=$?
		now
		m_wall=$(awk -v a="$start" -v b="$now" 'BEGIN { printf "%.3f", b - a }')
	}
fi

# ------------------------------------------------------------------- data
printf 'tageval benchmark: %s\n' "$hkappa"
printf 'generating %s items (seed %s) in %s\n' "$n" "$seed" "$data"
measure "$scratch/gen.out" "$scratch/gen.err" "$gen" --items "$n" --seed "$seed" "$data"
if [ "$m_rc" != 0 ]; then
	cat "$scratch/gen.err" >&2
	die "gen-annotations failed (exit $m_rc)"
fi
gen_wall=$m_wall

lines() { wc -l <"$1" | tr -d ' '; }
bytes() { wc -c <"$1" | tr -d ' '; }
ann1_lines=$(lines "$ann1")
ann1_bytes=$(bytes "$ann1")
ann2_lines=$(lines "$ann2")
ann2_bytes=$(bytes "$ann2")
senses_lines=$(lines "$senses")
senses_bytes=$(bytes "$senses")
input_bytes=$((ann1_bytes + ann2_bytes + senses_bytes))

printf 'generated in %s s\n\n' "$gen_wall"
printf '  %-7s %10s %12s\n' file 'wc -l' 'wc -c'
printf '  %-7s %10s %12s\n' ann1 "$ann1_lines" "$ann1_bytes"
printf '  %-7s %10s %12s\n' ann2 "$ann2_lines" "$ann2_bytes"
printf '  %-7s %10s %12s\n' senses "$senses_lines" "$senses_bytes"
printf '\ntiming: %s, best of %s run(s) after one untimed warm-up run\n\n' "$method" "$runs"

# ----------------------------------------------------------- option sets
# The first row times wc -l on the two annotation files, the cost of merely
# reading them.  The last two are not held to the targets: --downward reads
# ann1 a second time as its corpus (its input counts ann1 twice), and the
# bootstrap recomputes every figure once per replicate.
names=("wc -l ann1 ann2 (baseline)" "default" "--flat" "--per-lexelt"
	"--format=json --per-lexelt" "--downward=ann1" "--bootstrap=10")
targeted=(0 1 1 1 1 0 0)

options_cmd() {
	case $1 in
	0) cmd=(wc -l "$ann1" "$ann2") ;;
	1) cmd=("$hkappa" "$ann1" "$ann2" "$senses") ;;
	2) cmd=("$hkappa" --flat "$ann1" "$ann2") ;;
	3) cmd=("$hkappa" --per-lexelt "$ann1" "$ann2" "$senses") ;;
	4) cmd=("$hkappa" --format=json --per-lexelt "$ann1" "$ann2" "$senses") ;;
	5) cmd=("$hkappa" --downward="$ann1" "$ann1" "$ann2" "$senses") ;;
	6) cmd=("$hkappa" --bootstrap=10 "$ann1" "$ann2" "$senses") ;;
	esac
	input=$input_bytes
	[ "$1" = 0 ] || [ "$1" = 2 ] && input=$((ann1_bytes + ann2_bytes))
	[ "$1" = 5 ] && input=$((input_bytes + ann1_bytes))
	return 0
}

# "kappa 0.741310" from the text report, or the JSON member, or wc's total
kappa_of() {
	awk '
	/^kappa / { print "kappa " $2; found = 1; exit }
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
	measure "$out" "$scratch/err.$i" "${cmd[@]}"
	if [ "$m_rc" != 0 ]; then
		row "${names[$i]}" - - - - FAILED \
			"exit $m_rc: $(head -n 1 "$scratch/err.$i" | cut -c 1-60)"
		status=1
		continue
	fi
	best=
	rss=$m_rss
	for ((run = 0; run < runs; run++)); do
		measure /dev/null "$scratch/err.$i" "${cmd[@]}"
		[ "$m_rc" = 0 ] || break
		if [ -z "$best" ] || awk -v a="$m_wall" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$m_wall
		fi
		[ "$m_rss" -gt "$rss" ] && rss=$m_rss
	done
	if [ "$m_rc" != 0 ]; then
		row "${names[$i]}" - - - - FAILED \
			"exit $m_rc in a timed run: $(head -n 1 "$scratch/err.$i" | cut -c 1-50)"
		status=1
		continue
	fi
	IFS=$'\t' read -r rate mib times targets <<<"$(awk -v wall="$best" -v rss="$rss" \
		-v items="$ann1_lines" -v input="$input" -v n="$n" -v held="${targeted[$i]}" '
	BEGIN {
		rate = wall > 0 ? sprintf("%.0f", items / wall) : "-"
		times = input > 0 ? rss * 1024 / input : 0
		# the targets are set for N = 1000000 (fixed costs dominate small N)
		targets = (wall < 0.5 ? "" : "slow ") (times < 2 ? "" : "big")
		targets = n != 1000000 || !held ? "-" : targets == "" ? "ok" : targets
		printf "%s\t%.1f\t%.2f\t%s\n", rate, rss / 1024, times, targets
	}')"
	row "${names[$i]}" "$best" "$rate" "$mib" "$times" "$targets" "$(kappa_of "$out")"
done

printf '\ninput: ann1 %s + ann2 %s + senses %s = %s bytes (%.1f MiB)\n' \
	"$ann1_bytes" "$ann2_bytes" "$senses_bytes" "$input_bytes" \
	"$(awk -v b="$input_bytes" 'BEGIN { print b / 1048576 }')"
printf 'targets (checked only at N = 1000000, not for --downward and --bootstrap):\n'
printf '  wall < 0.5 s and peak RSS < 2x input, per option set\n'

printf '\nthe default report (warm-up run):\n'
cat "$scratch/report.1"

exit $status
