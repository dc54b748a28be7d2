#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# run-adversarial-hash.sh BUILDDIR [N] - times scorer2 on N instance ids
# (default 262144) made to collide under the interning hash tageval had
# before issue 17 (FNV-1a + fmix32), and on N random ids of the same length.
#
# tests/gen-fnv-multicollision.py writes both data sets (a key of N lines
# and answers for 15/16 of them; see its header): DIR/multicollision/ and
# DIR/random/.  The script prints their wc -l and wc -c, then for each data
# set times wc -l on the two files (the cost of reading them) and scorer2,
# each once untimed (page cache), then BENCH_RUNS times, and prints the best
# wall time, answers per second, the peak RSS and the precision and recall
# (the same for both: 0.800 and 0.750).  The target: scorer2 on the
# multicollision ids within 2x of the random ones (with FNV-1a, 262,144
# ids took 267 s against 0.11 s).  Use a release build.  Exit status 1 if a
# run fails or the target is missed, 2 on a usage error.
#
# Environment:
#   BENCH_DIR        write the data sets there and keep them (default: a
#                    temporary directory, removed at exit)
#   BENCH_SEED       the generator's seed (default 1)
#   BENCH_RUNS       timed runs per command (default 3; the best wall time
#                    counts)
#   SCORER2          the scorer to time (default BUILDDIR/tools/scorer2)
#   BENCH_PYTHON3    the Python 3 that runs the generator (default python3)
#   BENCH_GNU_TIME   0: do not use /usr/bin/time (use the bash + /proc fallback)

here=$(cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=bench-lib.sh
. "$here/bench-lib.sh"

bench_args 16 'the answers skip 1 id in 16' "$@"
n=${2:-262144}
gen=$here/../gen-fnv-multicollision.py
python3=${BENCH_PYTHON3:-python3}
scorer=${SCORER2:-$build/tools/scorer2}
bench_need "$scorer" SCORER2
command -v "$python3" >/dev/null 2>&1 || die "$python3: not found; set BENCH_PYTHON3"

bench_dirs tageval-bench
bench_timer rss-warmup

# ------------------------------------------------------------------- data
printf 'tageval benchmark: %s\n' "$scorer"
sets=(multicollision random)
for set in "${sets[@]}"; do
	mkdir -p "$data/$set" || die "cannot create $data/$set"
	flag=()
	[ "$set" = random ] && flag=(--random)
	printf 'generating %s %s ids (seed %s) in %s\n' "$n" "$set" "$seed" "$data/$set"
	bench_measure "$scratch/gen.out" "$scratch/gen.err" \
		"$python3" "$gen" "${flag[@]}" --seed "$seed" "$n" "$data/$set"
	if [ "$m_rc" != 0 ]; then
		cat "$scratch/gen.err" >&2
		die "gen-fnv-multicollision.py failed (exit $m_rc)"
	fi
	printf 'generated in %s s\n' "$m_wall"
done
printf '\n'
bench_files 22 multicollision/key "$data/multicollision/key" \
	multicollision/answers "$data/multicollision/answers" \
	random/key "$data/random/key" random/answers "$data/random/answers"
bench_print_method ''

# --------------------------------------------------------------- commands
# "P 0.800  R 0.750" from scorer2's summary, or wc's total
result_of() {
	awk '
	/ precision: / { p = $2 }
	/ recall: / { r = $2 }
	/ total$/ { t = $1 " lines" }
	END { print (p != "" ? "P " p "  R " r : t != "" ? t : "?") }' "$1"
}

row() {
	printf '%-30s %7s %11s %9s  %s\n' "$@"
}
row command 'best s' 'answers/s' 'peak MiB' result
row ------- ------ --------- -------- ------
status=0
declare -A best
for set in "${sets[@]}"; do
	key=$data/$set/key
	answers=$data/$set/answers
	lines=${file_lines[$set/answers]}
	for what in wc scorer2; do
		if [ "$what" = wc ]; then
			cmd=(wc -l "$answers" "$key")
		else
			cmd=("$scorer" "$answers" "$key")
		fi
		out=$scratch/out.$set.$what
		bench_best "$out" "$scratch/err" "${cmd[@]}"
		if [ -n "$b_failed" ]; then
			row "$what, $set" - - - "FAILED $(bench_failure "$scratch/err" 60 50)"
			status=1
			continue
		fi
		bench_figures "$b_wall" "$b_rss" "$lines" 1 0 1
		best[$set.$what]=$b_wall
		row "$what, $set" "$b_wall" "$rate" "$mib" "$(result_of "$out")"
	done
done

if [ -n "${best[multicollision.scorer2]:-}" ] && [ -n "${best[random.scorer2]:-}" ]; then
	verdict=$(awk -v a="${best[multicollision.scorer2]}" -v b="${best[random.scorer2]}" 'BEGIN {
		# GNU time has a resolution of 10 ms: compare no less than that
		if (b < 0.01) b = 0.01
		printf "%.2f %s", a / b, a / b <= 2 ? "ok" : "MISSED"
	}')
	printf '\nscorer2, multicollision over random: %sx (target: at most 2x) %s\n' \
		"${verdict% *}" "${verdict#* }"
	[ "${verdict#* }" = ok ] || status=1
fi
exit $status
