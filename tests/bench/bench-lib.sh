# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=bash
#
# bench-lib.sh - what the benchmark scripts (run.sh, run-hkappa.sh,
# run-wsi.sh, run-supervised.sh) share.  Sourced by them, not run: each
# script keeps its own generator call, commands, result parsing and targets.
#
# Sourcing sets LC_ALL=C, set -u and prog (the script's name), and defines:
#   usage, die                      exit 2 with the usage line, exit 1 with a message
#   bench_args MIN WHY ARG...       BUILDDIR [N]: sets build, n, seed, runs
#   bench_need PATH [VAR]           dies unless PATH is executable
#   bench_dirs PREFIX [SUBDIR]      sets data and scratch, removed at exit
#   bench_gen_wsi                   sets gen to gen-wsi (compiled if need be)
#   bench_timer MODE                picks the timer; sets method
#   bench_measure OUT ERR CMD...    one run: m_rc, m_wall, m_rss
#   bench_best OUT ERR CMD...       warm-up + $runs timed runs: b_rc, b_failed,
#                                   b_wall, b_rss
#   bench_failure ERR CUT [TCUT]    the FAILED row's text
#   bench_figures WALL RSS COUNT INPUT HELD MAX_WALL [MAX_TIMES]
#                                   sets rate, mib, times, targets
#   bench_generate NAME WHAT OPTION runs $gen; sets gen_wall
#   bench_files WIDTH LABEL FILE... the wc -l / wc -c table: file_lines[LABEL],
#                                   file_bytes[LABEL]
#   bench_print_method NOTE         the "timing: ..." paragraph
#   bench_mib BYTES                 prints BYTES / 2^20
# shellcheck disable=SC2034 # the variables set here are the scripts' to read

set -u
LC_ALL=C
export LC_ALL

prog=${0##*/}
bench_lib_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)

usage() {
	printf 'usage: %s BUILDDIR [N]\n' "$prog" >&2
	exit 2
}

die() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 1
}

# bench_args MIN WHY BUILDDIR [N]: checks the arguments and BENCH_RUNS and
# sets build, n (default 1000000), seed (BENCH_SEED, default 1) and runs
# (BENCH_RUNS, default 3).  With MIN 1, N must be a positive integer; else
# N must be digits (or usage) and at least MIN, "N must be at least MIN (WHY)".
bench_args() {
	local min=$1 why=$2
	shift 2
	if [ $# -lt 1 ] || [ $# -gt 2 ]; then
		usage
	fi
	build=$1
	n=${2:-1000000}
	seed=${BENCH_SEED:-1}
	runs=${BENCH_RUNS:-3}
	if [ "$min" = 1 ]; then
		case $n in '' | *[!0-9]* | 0)
			printf '%s: N must be a positive integer\n' "$prog" >&2
			usage ;;
		esac
	else
		case $n in '' | *[!0-9]*) usage ;; esac
		if [ "$n" -lt "$min" ]; then
			printf '%s: N must be at least %s (%s)\n' "$prog" "$min" "$why" >&2
			usage
		fi
	fi
	case $runs in '' | *[!0-9]* | 0) die "BENCH_RUNS must be a positive integer" ;; esac
}

# bench_need PATH [VAR]: dies unless PATH is an executable, naming VAR as
# the variable that could point elsewhere
bench_need() {
	[ -x "$1" ] || die "$1: not found; build it first (ninja -C $build)${2:+ or set $2}"
}

# bench_dirs PREFIX [SUBDIR]: data = $BENCH_DIR (kept) or a new temporary
# directory TMPDIR/PREFIX.XXXXXX (removed at exit); scratch = a temporary
# directory for everything else: a new one beside a kept data set, else the
# data directory itself or its SUBDIR
bench_dirs() {
	local prefix=$1 sub=${2:-}
	if [ -n "${BENCH_DIR:-}" ]; then
		data=$BENCH_DIR
		mkdir -p "$data" || die "cannot create $data"
		scratch=$(mktemp -d "${TMPDIR:-/tmp}/$prefix.XXXXXX") || die "mktemp failed"
		trap 'rm -rf "$scratch"' EXIT
	else
		data=$(mktemp -d "${TMPDIR:-/tmp}/$prefix.XXXXXX") || die "mktemp failed"
		scratch=$data
		if [ -n "$sub" ]; then
			scratch=$data/$sub
			mkdir "$scratch" || die "cannot create $scratch"
		fi
		trap 'rm -rf "$data"' EXIT
	fi
	trap 'exit 130' INT TERM
}

# bench_gen_wsi: gen = $GEN_WSI, else BUILDDIR's gen-wsi, else one compiled
# here into $scratch with ${CC:-cc}
bench_gen_wsi() {
	gen=${GEN_WSI:-$build/tests/bench/gen-wsi}
	if [ ! -x "$gen" ]; then
		gen=$scratch/gen-wsi
		${CC:-cc} -std=c11 -O2 -o "$gen" "$bench_lib_dir/gen-wsi.c" "$bench_lib_dir/gen-common.c" ||
			die "cannot compile $bench_lib_dir/gen-wsi.c"
	fi
}

# ----------------------------------------------------------------- timing

# bench_timer MODE: GNU time (/usr/bin/time) unless BENCH_GNU_TIME=0 or it
# is missing; otherwise bash's clock and, by MODE,
#   rss         the peak RSS sampled from /proc every 10 ms in every run
#   rss-warmup  the same, but only in runs whose stdout is not /dev/null
#               (the warm-up runs: the timed runs get the clock only)
#   wall        no peak RSS (m_rss is -)
# Sets method, the description printed by bench_print_method.
bench_timer() {
	bench_mode=$1
	bench_no_rss=0
	[ "$bench_mode" = wall ] && bench_no_rss=-
	bench_gnu_time=0
	if [ "${BENCH_GNU_TIME:-1}" != 0 ] && [ -x /usr/bin/time ] &&
		/usr/bin/time -f '%e %M' -o /dev/null true 2>/dev/null; then
		bench_gnu_time=1
	fi
	if [ $bench_gnu_time = 1 ]; then
		if [ "$bench_mode" = wall ]; then
			method='GNU time (elapsed, maximum resident set size)'
		else
			method="GNU time (%e %M)"
		fi
		return 0
	fi
	case $bench_mode in
	wall)
		method='bash clock (no peak RSS: install GNU time for it)'
		return 0 ;;
	rss-warmup)
		method="bash clock (EPOCHREALTIME) and /proc VmHWM sampled every 10 ms during the"
		method="$method warm-up run (approximate; install GNU time: apt-get install time)" ;;
	*)
		method="bash clock (EPOCHREALTIME) and /proc VmHWM sampled every 10 ms"
		method="$method (approximate; install GNU time: apt-get install time)" ;;
	esac
	# a FIFO nobody writes to: "read -t" on it sleeps without a fork
	if ! mkfifo "$scratch/tick" || ! exec 9<>"$scratch/tick"; then
		die "cannot create a FIFO in $scratch"
	fi
}

bench_now() {
	if [ -n "${EPOCHREALTIME:-}" ]; then
		now=$EPOCHREALTIME
	else
		now=$(date +%s.%N)
	fi
}

# bench_measure OUT ERR CMD...: runs CMD (stdout to OUT, stderr to ERR) and
# sets m_rc, m_wall (seconds) and m_rss (peak resident set, KiB; 0 or - when
# unknown, see bench_timer)
bench_measure() {
	local out=$1 err=$2 start pid hwm k v _
	shift 2
	if [ "$bench_gnu_time" = 1 ]; then
		/usr/bin/time -f '%e %M' -o "$scratch/time" "$@" >"$out" 2>"$err"
		m_rc=$?
		# the last line: GNU time may first note a status or a signal
		read -r m_wall m_rss <<<"$(tail -n 1 "$scratch/time")"
		case ${m_wall:-x} in *[!0-9.]*) m_wall=0 m_rss=$bench_no_rss ;; esac
		return 0
	fi
	m_rss=$bench_no_rss
	if [ "$bench_mode" = wall ] || { [ "$bench_mode" = rss-warmup ] && [ "$out" = /dev/null ]; }; then
		# the clock only
		bench_now
		start=$now
		"$@" >"$out" 2>"$err" 9<&-
		m_rc=$?
		bench_now
	else
		# sample the peak RSS while it runs
		bench_now
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
			# gone, or a zombie (which has no VmHWM line): it is done
			[ -n "$hwm" ] || break
			[ "$hwm" -gt "$m_rss" ] && m_rss=$hwm
			read -r -t 0.01 -u 9 _
		done
		wait "$pid"
		m_rc=$?
		bench_now
	fi
	m_wall=$(awk -v a="$start" -v b="$now" 'BEGIN { printf "%.3f", b - a }')
}

# bench_best OUT ERR CMD...: one untimed warm-up run of CMD (page cache;
# stdout to OUT, for display), then $runs timed runs with stdout to
# $bench_timed_out (default /dev/null); stderr to ERR.  Sets b_rc (0, or the
# exit status of the run that failed: no more runs follow), b_failed (empty,
# warm-up or timed), b_wall (the best wall time) and b_rss (the largest peak
# RSS, or - if unknown).  A run that exits with $bench_ok_status (default
# none; run-scaling.sh sets 1 for the inputs hkappa refuses) counts as done.
bench_timed_out=/dev/null
bench_ok_status=${bench_ok_status:-}
bench_best() {
	local out=$1 err=$2 i
	shift 2
	bench_measure "$out" "$err" "$@"
	b_rc=$m_rc
	b_failed=warm-up
	[ "$b_rc" = 0 ] || [ "$b_rc" = "$bench_ok_status" ] || return 1
	b_failed=timed
	b_wall=
	b_rss=$m_rss
	for ((i = 0; i < runs; i++)); do
		bench_measure "$bench_timed_out" "$err" "$@"
		b_rc=$m_rc
		[ "$b_rc" = 0 ] || [ "$b_rc" = "$bench_ok_status" ] || return 1
		if [ -z "$b_wall" ] || awk -v a="$m_wall" -v b="$b_wall" 'BEGIN { exit !(a < b) }'; then
			b_wall=$m_wall
		fi
		if [ "$m_rss" != - ] && [ "$b_rss" != - ] && [ "$m_rss" -gt "$b_rss" ]; then
			b_rss=$m_rss
		fi
	done
	b_failed=
}

# bench_failure ERR CUT [TIMED_CUT]: "exit N: " and the first line of ERR
# cut to CUT characters; after a failed timed run and with TIMED_CUT,
# "exit N in a timed run: " and that line cut to TIMED_CUT
bench_failure() {
	if [ "$b_failed" = timed ] && [ $# -gt 2 ]; then
		printf 'exit %s in a timed run: %s\n' "$b_rc" "$(head -n 1 "$1" | cut -c 1-"$3")"
	else
		printf 'exit %s: %s\n' "$b_rc" "$(head -n 1 "$1" | cut -c 1-"$2")"
	fi
}

# bench_figures WALL RSS COUNT INPUT HELD MAX_WALL [MAX_TIMES]: sets rate
# (COUNT per second of WALL), mib (RSS in MiB), times (RSS over the INPUT
# bytes) and targets: "-" unless N = 1000000 and HELD is 1, else "ok", or
# "slow" when WALL >= MAX_WALL and "big" when MAX_TIMES is given and RSS >=
# MAX_TIMES x INPUT.  An RSS of - gives - for mib and times.
bench_figures() {
	IFS=$'\t' read -r rate mib times targets <<<"$(awk -v wall="$1" -v rss="$2" \
		-v count="$3" -v input="$4" -v held="$5" -v max_wall="$6" -v max_times="${7:-}" \
		-v n="$n" '
	BEGIN {
		rate = wall > 0 ? sprintf("%.0f", count / wall) : "-"
		if (rss == "-") {
			mib = "-"; times = "-"; big = ""
		} else {
			mib = sprintf("%.1f", rss / 1024)
			x = input > 0 ? rss * 1024 / input : 0
			times = sprintf("%.2f", x)
			big = max_times == "" || x < max_times ? "" : "big"
		}
		# the targets are set for N = 1000000 (fixed costs dominate small N)
		targets = (wall < max_wall ? "" : "slow ") big
		targets = n != 1000000 || !held ? "-" : targets == "" ? "ok" : targets
		printf "%s\t%s\t%s\t%s\n", rate, mib, times, targets
	}')"
}

# ------------------------------------------------------------------- data

# bench_generate NAME WHAT OPTION: "generating N WHAT (seed S) in DATA",
# then $gen OPTION N --seed S DATA, timed; sets gen_wall or dies, showing
# its stderr, "NAME failed"
bench_generate() {
	printf 'generating %s %s (seed %s) in %s\n' "$n" "$2" "$seed" "$data"
	bench_measure "$scratch/gen.out" "$scratch/gen.err" "$gen" "$3" "$n" --seed "$seed" "$data"
	if [ "$m_rc" != 0 ]; then
		cat "$scratch/gen.err" >&2
		die "$1 failed (exit $m_rc)"
	fi
	gen_wall=$m_wall
}

# bench_files WIDTH LABEL FILE [LABEL FILE]...: the table of wc -l and
# wc -c, labels WIDTH wide; sets file_lines[LABEL] and file_bytes[LABEL]
declare -A file_lines file_bytes
bench_files() {
	local w=$1
	shift
	printf '  %-*s %10s %12s\n' "$w" file 'wc -l' 'wc -c'
	while [ $# -ge 2 ]; do
		file_lines[$1]=$(wc -l <"$2" | tr -d ' ')
		file_bytes[$1]=$(wc -c <"$2" | tr -d ' ')
		printf '  %-*s %10s %12s\n' "$w" "$1" "${file_lines[$1]}" "${file_bytes[$1]}"
		shift 2
	done
}

# bench_print_method NOTE: the timing method and the number of runs, NOTE
# (if not empty) on a line of its own, then a blank line
bench_print_method() {
	printf '\ntiming: %s, best of %s run(s) after one untimed warm-up run\n' "$method" "$runs"
	[ -z "$1" ] || printf '%s\n' "$1"
	printf '\n'
}

bench_mib() {
	awk -v b="$1" 'BEGIN { print b / 1048576 }'
}
