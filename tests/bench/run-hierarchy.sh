#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# run-hierarchy.sh BUILDDIR [CASE [N]] - the adversarial shapes of sense map
# and annotation line that once cost the square of their size, each timed at
# N and 4N: the script prints, per case and size, the best wall time and the
# peak RSS, then the ratios 4N / N.  Linear growth gives about 4; the target
# is at most 5 (quadratic gives 16).  Use a release build.
#
# Cases (gen-hierarchy.sh writes them; default N in brackets):
#   parents   hkappa, a tag with N parents in a parent-form map   [40000]
#   longline  hkappa --flat, one line of N distinct tags           [100000]
#   comb      hkappa, a comb of N teeth (chain + a leaf per link)  [25000]
#   chain     scorer2 -g mixed, N answers across a chain of N tags [20000]
#   hchain    hkappa, N items tagged with the two ends of a chain of N [20000]
# Without CASE, every case at its default N.  Exit status 1 if a run fails
# (or a ratio is above 5), 2 on a usage error.
#
# Environment:
#   BENCH_RUNS      timed runs per size (default 3; the best wall time counts)
#   BENCH_DIR       write the data sets there and keep them
#   HKAPPA, SCORER2 the programs to time (default BUILDDIR/tools/...)
#   BENCH_GNU_TIME  0: do not use /usr/bin/time (bash + /proc fallback)

here=$(cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=bench-lib.sh
. "$here/bench-lib.sh"

usage() {
	printf 'usage: %s BUILDDIR [CASE [N]]\n' "$prog" >&2
	exit 2
}
[ $# -ge 1 ] && [ $# -le 3 ] || usage
build=$1
only=${2:-}
only_n=${3:-}
runs=${BENCH_RUNS:-3}
n=0 # for bench_figures, unused here
case $runs in '' | *[!0-9]* | 0) die "BENCH_RUNS must be a positive integer" ;; esac
case $only in '' | parents | longline | comb | chain | hchain) ;; *) usage ;; esac
case $only_n in '') ;; *[!0-9]* | 0) usage ;; esac
hkappa=${HKAPPA:-$build/tools/hkappa}
scorer2=${SCORER2:-$build/tools/scorer2}
bench_need "$hkappa" HKAPPA
bench_need "$scorer2" SCORER2
bench_dirs tageval-bench-hierarchy
bench_timer rss

default_n() {
	case $1 in
	parents) echo 40000 ;;
	longline) echo 100000 ;;
	comb) echo 25000 ;;
	*) echo 20000 ;;
	esac
}

case_cmd() {
	local d=$2
	case $1 in
	parents) cmd=("$hkappa" "$d/ann1" "$d/ann2" "$d/map") ;;
	longline) cmd=("$hkappa" --flat "$d/ann1" "$d/ann2") ;;
	comb | hchain) cmd=("$hkappa" "$d/ann1" "$d/ann2" "$d/map") ;;
	chain) cmd=("$scorer2" -g mixed "$d/answers" "$d/key" "$d/map") ;;
	esac
}

printf 'tageval hierarchy benchmark: %s, %s\n' "$hkappa" "$scorer2"
bench_print_method ''
printf '%-9s %8s %9s %9s %10s  %s\n' case N 'input B' 'best s' 'peak MiB' 'ratio 4N/N (time, memory)'
status=0
cases=(parents longline comb chain hchain)
[ -n "$only" ] && cases=("$only")
for c in "${cases[@]}"; do
	base=${only_n:-$(default_n "$c")}
	walls=() rsss=()
	for size in "$base" $((4 * base)); do
		d=$data/$c-$size
		gcase=$c
		[ "$c" = hchain ] && gcase=chain
		"$here/gen-hierarchy.sh" "$gcase" "$size" "$d" || die "gen-hierarchy.sh failed"
		bytes=$(cat "$d"/* | wc -c | tr -d ' ')
		case_cmd "$c" "$d"
		bench_best "$scratch/out" "$scratch/err" "${cmd[@]}"
		if [ -n "$b_failed" ]; then
			printf '%-9s %8s %9s FAILED %s\n' "$c" "$size" "$bytes" \
				"$(bench_failure "$scratch/err" 60)"
			status=1
			walls+=(-) rsss+=(-)
			continue
		fi
		printf '%-9s %8s %9s %9s %10s\n' "$c" "$size" "$bytes" "$b_wall" \
			"$(awk -v r="$b_rss" 'BEGIN { if (r == "-") print "-"; else printf "%.1f", r / 1024 }')"
		walls+=("$b_wall") rsss+=("$b_rss")
		[ -n "${BENCH_DIR:-}" ] || rm -rf "$d"
	done
	ratio=$(awk -v a="${walls[0]}" -v b="${walls[1]}" -v ra="${rsss[0]}" -v rb="${rsss[1]}" 'BEGIN {
		if (a == "-" || b == "-") { print "-"; exit }
		t = a > 0 ? b / a : 0
		m = ra != "-" && ra > 0 ? sprintf("%.2f", rb / ra) : "-"
		printf "%.2f %s%s\n", t, m, (t > 5 || (m != "-" && m > 5)) ? "  ABOVE 5" : ""
	}')
	printf '%-9s %8s %9s %9s %10s  %s\n' "$c" ratio '' '' '' "$ratio"
	case $ratio in *ABOVE* | -) status=1 ;; esac
done
exit $status
