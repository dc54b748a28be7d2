#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# run.sh BUILDDIR [N] - times scorer2 on a synthetic data set of N instances
# (default 1000000) under each scoring policy; see tests/bench/README.
#
# Environment:
#   BENCH_DIR        write the data set there and keep it (default: a temporary
#                    directory, removed at exit)
#   BENCH_SEED       the generator's seed (default 1)
#   BENCH_RUNS       timed runs per policy (default 3; the best wall time counts)
#   SCORER2          the scorer to time (default BUILDDIR/tools/scorer2)
#   BENCH_HYPERFINE  0: skip the hyperfine cross-check even if it is installed
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

gen=$build/tests/bench/gen-senseval
scorer=${SCORER2:-$build/tools/scorer2}
[ -x "$gen" ] || die "$gen: not found; build it first (ninja -C $build)"
[ -x "$scorer" ] || die "$scorer: not found; build it first (ninja -C $build)"

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
key=$data/key
answers=$data/answers
map=$data/sensemap

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
	method="bash clock (EPOCHREALTIME) and /proc VmHWM sampled every 10 ms during the"
	method="$method warm-up run (approximate; install GNU time: apt-get install time)"
	# a FIFO nobody writes to: "read -t" on it sleeps without a fork
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
		if [ "$out" = /dev/null ]; then
			# a timed run: the clock only
			now
			start=$now
			"$@" >"$out" 2>"$err" 9<&-
			m_rc=$?
			now
		else
			# the warm-up run: sample the peak RSS while it runs
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
				# gone, or a zombie (which has no VmHWM line): it is done
				[ -n "$hwm" ] || break
				[ "$hwm" -gt "$m_rss" ] && m_rss=$hwm
				read -r -t 0.01 -u 9 _
			done
			wait "$pid"
			m_rc=$?
			now
		fi
		m_wall=$(awk -v a="$start" -v b="$now" 'BEGIN { printf "%.3f", b - a }')
	}
fi

# ------------------------------------------------------------------- data
printf 'tageval benchmark: %s\n' "$scorer"
printf 'generating %s instances (seed %s) in %s\n' "$n" "$seed" "$data"
measure "$scratch/gen.out" "$scratch/gen.err" "$gen" --instances "$n" --seed "$seed" "$data"
if [ "$m_rc" != 0 ]; then
	cat "$scratch/gen.err" >&2
	die "gen-senseval failed (exit $m_rc)"
fi
gen_wall=$m_wall

lines() { wc -l <"$1" | tr -d ' '; }
bytes() { wc -c <"$1" | tr -d ' '; }
key_lines=$(lines "$key")
key_bytes=$(bytes "$key")
ans_lines=$(lines "$answers")
ans_bytes=$(bytes "$answers")
map_lines=$(lines "$map")
map_bytes=$(bytes "$map")
input_bytes=$((key_bytes + ans_bytes))

printf 'generated in %s s\n\n' "$gen_wall"
printf '  %-9s %10s %12s\n' file 'wc -l' 'wc -c'
printf '  %-9s %10s %12s\n' key "$key_lines" "$key_bytes"
printf '  %-9s %10s %12s\n' answers "$ans_lines" "$ans_bytes"
printf '  %-9s %10s %12s\n' sensemap "$map_lines" "$map_bytes"
printf '\ntiming: %s, best of %s run(s) after one untimed warm-up run\n\n' "$method" "$runs"

# --------------------------------------------------------------- policies
policies=("fine" "coarse" "mixed" "fine -m" "mixed -m" "fine --conjunctive")

policy_cmd() {
	case $1 in
	0) cmd=("$scorer" "$answers" "$key") ;;
	1) cmd=("$scorer" -g coarse "$answers" "$key" "$map") ;;
	2) cmd=("$scorer" -g mixed "$answers" "$key" "$map") ;;
	3) cmd=("$scorer" -m "$answers" "$key") ;;
	4) cmd=("$scorer" -g mixed -m "$answers" "$key" "$map") ;;
	5) cmd=("$scorer" --conjunctive "$answers" "$key") ;;
	esac
}

# "P 0.637  R 0.605" from scorer2's summary, else its last line
precision_recall() {
	awk '
	function number_after(i,  j) {
		for (j = i + 1; j <= nf; j++)
			if (f[j] ~ /^[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?%?$/)
				return f[j]
		return ""
	}
	{
		nf = split(tolower($0), f, /[ \t:=,;()]+/)
		for (i = 1; i <= nf; i++) {
			if (p == "" && f[i] ~ /^precision/) p = number_after(i)
			if (r == "" && f[i] ~ /^recall/) r = number_after(i)
		}
		if (NF) last = $0
	}
	END {
		if (p != "" || r != "")
			printf "P %s  R %s\n", (p == "" ? "?" : p), (r == "" ? "?" : r)
		else
			print substr(last, 1, 60)
	}' "$1"
}

row() {
	printf '%-19s %7s %12s %9s %8s  %-8s %s\n' "$@"
}
row policy 'best s' 'answers/s' 'peak MiB' 'x input' targets 'precision / recall'
row ------ ------ --------- -------- ------- ------- ------------------
status=0
for i in "${!policies[@]}"; do
	policy=${policies[$i]}
	policy_cmd "$i"
	out=$scratch/summary.$i
	# warm-up (page cache), keeping the summary for display
	measure "$out" "$scratch/err.$i" "${cmd[@]}"
	if [ "$m_rc" != 0 ]; then
		row "$policy" - - - - FAILED \
			"exit $m_rc: $(head -n 1 "$scratch/err.$i" | cut -c 1-70)"
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
		row "$policy" - - - - FAILED \
			"exit $m_rc in a timed run: $(head -n 1 "$scratch/err.$i" | cut -c 1-60)"
		status=1
		continue
	fi
	IFS=$'\t' read -r rate mib times targets <<<"$(awk -v wall="$best" -v rss="$rss" \
		-v lines="$ans_lines" -v input="$input_bytes" -v n="$n" '
	BEGIN {
		rate = wall > 0 ? sprintf("%.0f", lines / wall) : "-"
		times = input > 0 ? rss * 1024 / input : 0
		# the targets are set for N = 1000000 (fixed costs dominate small N)
		targets = (wall < 0.5 ? "" : "slow ") (times < 2 ? "" : "big")
		targets = n != 1000000 ? "-" : targets == "" ? "ok" : targets
		printf "%s\t%.1f\t%.2f\t%s\n", rate, rss / 1024, times, targets
	}')"
	row "$policy" "$best" "$rate" "$mib" "$times" "$targets" "$(precision_recall "$out")"
done

printf '\ninput: key %s bytes + answers %s bytes = %s bytes (%.1f MiB); sensemap %s bytes\n' \
	"$key_bytes" "$ans_bytes" "$input_bytes" \
	"$(awk -v b="$input_bytes" 'BEGIN { print b / 1048576 }')" "$map_bytes"
printf 'targets (checked only at N = 1000000): wall < 0.5 s and peak RSS < 2x input, per policy\n'

printf '\nsummaries (the last lines of the warm-up run'\''s stdout):\n'
for i in "${!policies[@]}"; do
	[ -s "$scratch/summary.$i" ] || continue
	printf -- '--- %s\n' "${policies[$i]}"
	tail -n 6 "$scratch/summary.$i"
done

if [ "${BENCH_HYPERFINE:-1}" != 0 ] && command -v hyperfine >/dev/null 2>&1; then
	printf '\nhyperfine cross-check:\n'
	hf=()
	for i in "${!policies[@]}"; do
		policy_cmd "$i"
		hf+=(-n "${policies[$i]}" "$(printf '%q ' "${cmd[@]}")")
	done
	hyperfine --style basic --warmup 1 --runs "$runs" "${hf[@]}" || status=1
fi

exit $status
