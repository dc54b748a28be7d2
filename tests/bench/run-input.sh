#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# run-input.sh BUILDDIR [N...] - the input layer's table (issue 15): every
# main tool on N instances (default 1000000 10000000), each beside wc -l on
# the same files in the same run, with CPU time and peak memory.
#
#   scorer2      every policy (fine, coarse, mixed, fine -m, mixed -m,
#                fine --conjunctive) on gen-senseval's key and answers
#   vmeasure     --format=json (every WSI metric) on gen-wsi's gold and clusters
#   fscore       the same files
#   hkappa       gen-annotations' two annotators and their sense map
#   wsi-supervised --folds 5 on gen-wsi's files
#
# For each N: a table of wall time (bash's clock, ms), user time (GNU time), wall time over wc -l's on the
# same input files ("x wc"), peak RSS and peak RSS over the input bytes.  At
# N = 1000000 the targets of issue 15 are checked: each tool under 10x wc -l
# and 0.2 s (wsi-supervised --folds 5 under 0.35 s), peak memory under 1.5x
# the input (wsi-supervised under 2x).  With several N, a last table gives
# each command's time and memory per instance at every N over those at the
# smallest, which is 1.00 when the cost grows linearly.
#
# Environment:
#   BENCH_DIR   keep the data sets in BENCH_DIR/N (default: a temporary directory)
#   BENCH_SEED  the generators' seed (default 1)
#   BENCH_RUNS  timed runs per command (default 3; the best wall time counts)
# Needs GNU time (/usr/bin/time) for the CPU time and the peak RSS.
# Exit status: 0 (whether or not the targets are met), 1 if a tool fails,
# 2 on a usage error.

here=$(cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=bench-lib.sh
. "$here/bench-lib.sh"

[ $# -ge 1 ] || usage
build=$1
shift
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000000 10000000)
for s in "${sizes[@]}"; do
	case $s in '' | *[!0-9]* | 0) die "N must be a positive integer" ;; esac
done
seed=${BENCH_SEED:-1}
runs=${BENCH_RUNS:-3}
case $runs in '' | *[!0-9]* | 0) die "BENCH_RUNS must be a positive integer" ;; esac
[ -x /usr/bin/time ] || die "needs GNU time (/usr/bin/time): apt-get install time"
for p in tools/scorer2 tools/vmeasure tools/fscore tools/hkappa tools/wsi-supervised \
	tests/bench/gen-senseval tests/bench/gen-wsi tests/bench/gen-annotations; do
	bench_need "$build/$p"
done

if [ -n "${BENCH_DIR:-}" ]; then
	root=$BENCH_DIR
	mkdir -p "$root" || die "cannot create $root"
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/tageval-input.XXXXXX") || die "mktemp failed"
	trap 'rm -rf "$scratch"' EXIT
else
	root=$(mktemp -d "${TMPDIR:-/tmp}/tageval-input.XXXXXX") || die "mktemp failed"
	scratch=$root
	trap 'rm -rf "$root"' EXIT
fi
trap 'exit 130' INT TERM

# best CMD...: runs "$@" once untimed, then $runs times; sets best_wall,
# best_user (of the run with the best wall time) and best_rss (the largest)
best() {
	local i w u r
	"$@" >/dev/null 2>"$scratch/err" || { cat "$scratch/err" >&2; die "failed: $*"; }
	best_wall= best_user= best_rss=0
	for ((i = 0; i < runs; i++)); do
		local t0=$EPOCHREALTIME
		/usr/bin/time -f '%U %M' -o "$scratch/time" "$@" >/dev/null 2>"$scratch/err" ||
			{ cat "$scratch/err" >&2; die "failed: $*"; }
		local t1=$EPOCHREALTIME
		read -r u r <<<"$(tail -n 1 "$scratch/time")"
		w=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
		if [ -z "$best_wall" ] || awk -v a="$w" -v b="$best_wall" 'BEGIN { exit !(a < b) }'; then
			best_wall=$w best_user=$u
		fi
		[ "$r" -gt "$best_rss" ] && best_rss=$r
	done
}

bytes() {
	local t=0 f
	for f in "$@"; do t=$((t + $(wc -c <"$f"))); done
	echo "$t"
}

declare -A per_inst_time per_inst_rss
order=()

printf 'tageval input-layer benchmark: %s\n' "$build"
printf 'machine: %s CPUs, load %s\n' "$(nproc 2>/dev/null || echo '?')" \
	"$(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null || echo '?')"
printf 'timing: GNU time, best wall time of %s run(s) after one untimed run\n' "$runs"

for n in "${sizes[@]}"; do
	d=$root/$n
	mkdir -p "$d/senseval" "$d/wsi" "$d/ann" || die "cannot create $d"
	if [ ! -s "$d/senseval/answers" ]; then
		"$build/tests/bench/gen-senseval" --instances "$n" --seed "$seed" "$d/senseval" >/dev/null ||
			die "gen-senseval failed"
	fi
	if [ ! -s "$d/wsi/clusters" ]; then
		"$build/tests/bench/gen-wsi" --instances "$n" --seed "$seed" "$d/wsi" >/dev/null ||
			die "gen-wsi failed"
	fi
	if [ ! -s "$d/ann/ann2" ]; then
		"$build/tests/bench/gen-annotations" --items "$n" --seed "$seed" "$d/ann" >/dev/null ||
			die "gen-annotations failed"
	fi
	key=$d/senseval/key ans=$d/senseval/answers map=$d/senseval/sensemap
	gold=$d/wsi/gold cl=$d/wsi/clusters
	a1=$d/ann/ann1 a2=$d/ann/ann2 senses=$d/ann/senses

	printf '\nN = %s instances\n' "$n"
	printf '  %-28s %7s %7s %7s %7s %9s %6s  %s\n' command wall user 'wc -l' 'x wc' 'peak MiB' 'x in' targets
	row() { # LABEL MAXWALL MAXTIMES FILES... -- CMD...
		local label=$1 maxwall=$2 maxtimes=$3 files=() in wc x mib times t
		shift 3
		while [ "$1" != -- ]; do files+=("$1"); shift; done
		shift
		in=$(bytes "${files[@]}")
		best wc -l "${files[@]}"
		wc=$best_wall
		best "$@"
		read -r x mib times <<<"$(awk -v w="$best_wall" -v c="$wc" -v r="$best_rss" -v i="$in" \
			'BEGIN { printf "%s %.1f %.2f\n", (c > 0 ? sprintf("%.0f", w / c) : "-"), r / 1024, r * 1024 / i }')"
		t=-
		if [ "$n" = 1000000 ]; then
			t=$(awk -v w="$best_wall" -v c="$wc" -v mw="$maxwall" -v mt="$maxtimes" -v tm="$times" '
				BEGIN {
					s = ""
					if (w >= mw) s = s "slow(>=" mw "s) "
					if (mw == 0.2 && c > 0 && w >= 10 * c) s = s ">=10x-wc "
					if (tm >= mt) s = s "big(>=" mt "x) "
					print s == "" ? "ok" : s
				}')
		fi
		printf '  %-28s %7s %7s %7s %7s %9s %6s  %s\n' "$label" "$best_wall" "$best_user" "$wc" \
			"$x" "$mib" "$times" "$t"
		per_inst_time[$label,$n]=$(awk -v u="$best_user" -v n="$n" 'BEGIN { print u / n }')
		per_inst_rss[$label,$n]=$(awk -v r="$best_rss" -v n="$n" 'BEGIN { print r / n }')
		[ "$n" = "${sizes[0]}" ] && order+=("$label")
	}
	row 'scorer2 fine' 0.2 1.5 "$ans" "$key" -- "$build/tools/scorer2" "$ans" "$key"
	row 'scorer2 coarse' 0.2 1.5 "$ans" "$key" "$map" -- "$build/tools/scorer2" -g coarse "$ans" "$key" "$map"
	row 'scorer2 mixed' 0.2 1.5 "$ans" "$key" "$map" -- "$build/tools/scorer2" -g mixed "$ans" "$key" "$map"
	row 'scorer2 fine -m' 0.2 1.5 "$ans" "$key" -- "$build/tools/scorer2" -m "$ans" "$key"
	row 'scorer2 mixed -m' 0.2 1.5 "$ans" "$key" "$map" -- "$build/tools/scorer2" -g mixed -m "$ans" "$key" "$map"
	row 'scorer2 fine --conjunctive' 0.2 1.5 "$ans" "$key" -- "$build/tools/scorer2" --conjunctive "$ans" "$key"
	row 'vmeasure --format=json' 0.2 1.5 "$cl" "$gold" -- "$build/tools/vmeasure" --format=json "$cl" "$gold"
	row 'fscore' 0.2 1.5 "$cl" "$gold" -- "$build/tools/fscore" "$cl" "$gold"
	row 'hkappa' 0.2 1.5 "$a1" "$a2" "$senses" -- "$build/tools/hkappa" "$a1" "$a2" "$senses"
	row 'wsi-supervised --folds 5' 0.35 2 "$cl" "$gold" -- "$build/tools/wsi-supervised" --folds 5 "$cl" "$gold"
done

if [ ${#sizes[@]} -gt 1 ]; then
	n0=${sizes[0]}
	printf '\ngrowth: user time and peak RSS per instance at N over those at N = %s (1.00: linear)\n' "$n0"
	printf '  %-28s' command
	for n in "${sizes[@]:1}"; do printf ' %10s %10s' "time@$n" "mem@$n"; done
	printf '\n'
	for label in "${order[@]}"; do
		printf '  %-28s' "$label"
		for n in "${sizes[@]:1}"; do
			printf ' %10s %10s' \
				"$(awk -v a="${per_inst_time[$label,$n]}" -v b="${per_inst_time[$label,$n0]}" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')" \
				"$(awk -v a="${per_inst_rss[$label,$n]}" -v b="${per_inst_rss[$label,$n0]}" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
		done
		printf '\n'
	done
fi
printf '\ntargets (N = 1000000): under 10x wc -l and 0.2 s, peak under 1.5x the input;\n'
printf 'wsi-supervised --folds 5 under 0.35 s and 2x the input\n'
