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

here=$(cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=bench-lib.sh
. "$here/bench-lib.sh"

bench_args 1 '' "$@"
gen=$build/tests/bench/gen-senseval
scorer=${SCORER2:-$build/tools/scorer2}
bench_need "$gen"
bench_need "$scorer"

bench_dirs tageval-bench
key=$data/key
answers=$data/answers
map=$data/sensemap

bench_timer rss-warmup

# ------------------------------------------------------------------- data
printf 'tageval benchmark: %s\n' "$scorer"
bench_generate gen-senseval instances --instances
printf 'generated in %s s\n\n' "$gen_wall"
bench_files 9 key "$key" answers "$answers" sensemap "$map"
key_bytes=${file_bytes[key]}
ans_lines=${file_lines[answers]}
ans_bytes=${file_bytes[answers]}
map_bytes=${file_bytes[sensemap]}
input_bytes=$((key_bytes + ans_bytes))
bench_print_method ''

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
	bench_best "$out" "$scratch/err.$i" "${cmd[@]}"
	if [ -n "$b_failed" ]; then
		row "$policy" - - - - FAILED "$(bench_failure "$scratch/err.$i" 70 60)"
		status=1
		continue
	fi
	# targets: wall < 0.5 s, peak RSS < 2x input
	bench_figures "$b_wall" "$b_rss" "$ans_lines" "$input_bytes" 1 0.5 2
	row "$policy" "$b_wall" "$rate" "$mib" "$times" "$targets" "$(precision_recall "$out")"
done

printf '\ninput: key %s bytes + answers %s bytes = %s bytes (%.1f MiB); sensemap %s bytes\n' \
	"$key_bytes" "$ans_bytes" "$input_bytes" \
	"$(bench_mib "$input_bytes")" "$map_bytes"
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
