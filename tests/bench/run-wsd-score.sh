#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# run-wsd-score.sh BUILDDIR [N] - times wsd-score (issue 18's benchmark):
#   1. N instances (default 1000000) of ALL-style gold key and one system's
#      answers (gen-wsd-framework), scored with the three lines and with
#      --format json, beside wc -l on the same files;
#   2. wsd-score --compare over 10 systems on 7,253 instances (the size of
#      the framework's ALL), 10,000 bootstrap and randomization samples.
#
# Environment:
#   BENCH_DIR           write the data sets there and keep them (default: a
#                       temporary directory, removed at exit)
#   BENCH_SEED          the generator's seed (default 1)
#   BENCH_RUNS          timed runs per command (default 3; the least CPU time counts)
#   GEN_WSD_FRAMEWORK   the generator (default BUILDDIR/tests/bench/gen-wsd-framework;
#                       when that is missing, gen-wsd-framework.c is compiled
#                       with ${CC:-cc})
#
# Figures: user CPU time (the machine is shared), wall time and peak RSS of
# GNU time (/usr/bin/time, required).  Targets: under 0.5 s and a peak RSS
# under twice the input (gold + system bytes) at N = 1000000; under 1 s for
# the comparison.  Exit status: 0 (whether or not the targets are met), 1 if
# a tool fails, 2 on a usage error.

here=$(cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=bench-lib.sh
. "$here/bench-lib.sh"

bench_args 1 '' "$@"
tool=$build/tools/wsd-score
bench_need "$tool"
[ -x /usr/bin/time ] || die "needs GNU time (/usr/bin/time)"

bench_dirs tageval-bench-wsd-score tmp
gen=${GEN_WSD_FRAMEWORK:-$build/tests/bench/gen-wsd-framework}
if [ ! -x "$gen" ]; then
	gen=$scratch/gen-wsd-framework
	${CC:-cc} -std=c11 -O2 -o "$gen" "$here/gen-wsd-framework.c" "$here/gen-common.c" ||
		die "cannot compile $here/gen-wsd-framework.c"
fi

printf 'tageval wsd-score benchmark: %s\n' "$tool"
printf 'generating %s instances and 1 system, 7253 instances and 10 systems (seed %s) in %s\n' \
	"$n" "$seed" "$data"
"$gen" --instances "$n" --systems 1 --seed "$seed" "$data/big" || die "gen-wsd-framework failed"
"$gen" --instances 7253 --systems 10 --seed "$seed" "$data/all" || die "gen-wsd-framework failed"
bench_files 12 gold "$data/big/gold" system "$data/big/system0"
input=$((file_bytes[gold] + file_bytes[system]))

# best CMD...: the run of least user time of $runs (after a warm-up): best_user,
# best_wall, best_rss (KiB)
best() {
	best_user=
	"$@" >"$scratch/out" 2>"$scratch/err" || return 1
	for _ in $(seq "$runs"); do
		/usr/bin/time -f '%U %e %M' -o "$scratch/time" "$@" >/dev/null 2>&1 || return 1
		read -r u w m <"$scratch/time"
		if [ -z "$best_user" ] || awk -v a="$u" -v b="$best_user" 'BEGIN { exit !(a < b) }'; then
			best_user=$u best_wall=$w best_rss=$m
		fi
	done
}

row() {
	printf '%-34s %7s %7s %9s %8s  %s\n' "$@"
}
printf '\nleast user CPU time of %s runs after a warm-up (GNU time)\n' "$runs"
row command 'user s' 'wall s' 'peak MiB' 'x input' result
row ------- ------ ------ -------- ------- ------
status=0
systems=()
for k in 0 1 2 3 4 5 6 7 8 9; do
	systems+=("s$k=$data/all/system$k")
done
for i in 0 1 2 3; do
	case $i in
	0) name="wc -l gold system"; cmd=(wc -l "$data/big/gold" "$data/big/system0") ;;
	1) name="wsd-score (three lines)"; cmd=("$tool" "$data/big/gold" "$data/big/system0") ;;
	2) name="wsd-score --format json"; cmd=("$tool" --format json "$data/big/gold" "$data/big/system0") ;;
	3) name="--compare, 10 systems, 7253 inst."; cmd=("$tool" --compare "$data/all/gold" "${systems[@]}") ;;
	esac
	if ! best "${cmd[@]}"; then
		row "$name" - - - - "FAILED: $(head -c 60 "$scratch/err")"
		status=1
		continue
	fi
	mib=$(awk -v m="$best_rss" 'BEGIN { printf "%.1f", m / 1024 }')
	times=$(awk -v m="$best_rss" -v b="$input" 'BEGIN { printf "%.2f", m * 1024 / b }')
	case $i in
	0) result="$(awk 'END { print $1 " lines" }' "$scratch/out")" ;;
	1) result="$(tr '\t\n' '  ' <"$scratch/out")" ;;
	2) result="$(head -c 60 "$scratch/out")" ;;
	3) result="$(tail -n 2 "$scratch/out" | head -n 1)"; times=- ;;
	esac
	row "$name" "$best_user" "$best_wall" "$mib" "$times" "$result"
done
printf '\ntargets: wsd-score at N = 1000000 under 0.5 s and 2x input; --compare under 1 s\n'
exit $status
