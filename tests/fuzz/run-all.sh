#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# run-all.sh BUILDDIR SECONDS [TARGET...] - fuzzes each target (all of them
# by default) for SECONDS, one after the other on one core, starting from
# its seed corpus and the regression inputs; the corpus grows in
# BUILDDIR/fuzz-corpus/<target>.  Prints executions and executions per
# second per target; exit status 1 when any target found something (the
# input is kept as BUILDDIR/fuzz-findings/<kind>-<hash>).
#
# Environment: FUZZ_ARGS  more libFuzzer options, e.g. -max_len=65536
set -u

[ $# -ge 2 ] || { echo "usage: $0 BUILDDIR SECONDS [TARGET...]" >&2; exit 2; }
build=$(cd "$1" && pwd) || exit 2
seconds=$2
shift 2
dir=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$dir/../.." && pwd)
[ $# -gt 0 ] || set -- key map answers annotations wsi split clustering \
	scorer2 hkappa vmeasure fscore wsi-baseline wsi-supervised wsd-report bcubed nmi ari \
	wsd-graded wsd-score

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
mkdir -p "$build/fuzz-findings" "$build/fuzz-logs"
failed=0
for t in "$@"; do
	exe=$build/tests/fuzz/fuzz-$t
	[ -x "$exe" ] || { echo "$t: no $exe"; failed=1; continue; }
	corpus=$build/fuzz-corpus/$t
	seeds=$(mktemp -d "${TMPDIR:-/tmp}/tageval-seeds.XXXXXX")
	"$dir/make-corpus.sh" "$root" "$seeds" "$t"
	mkdir -p "$corpus" "$seeds/$t"
	set -- "$corpus" "$seeds/$t"
	[ -d "$dir/regressions/$t" ] && set -- "$@" "$dir/regressions/$t"
	log=$build/fuzz-logs/$t.log
	# shellcheck disable=SC2086 # FUZZ_ARGS is a list of options
	nice -n 19 "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
		-max_len=8192 -dict="$dir/tageval.dict" -error_exitcode=1 \
		-artifact_prefix="$build/fuzz-findings/" -print_final_stats=1 \
		${FUZZ_ARGS:-} "$@" >"$log" 2>&1
	status=$?
	rm -rf "$seeds"
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	if [ $status -eq 0 ]; then
		printf '%-15s %12s executions %8s/s  %s s  ok\n' "$t" "${execs:-?}" "${rate:-?}" "$seconds"
	else
		printf '%-15s FINDING (exit %s), log %s:\n' "$t" "$status" "$log"
		grep -E 'ERROR|SUMMARY|fuzz:|runtime error|Test unit written' "$log" | head -n 8
		# the input itself, so that a finding on a machine that is gone
		# (CI) can be replayed: base64 of its first 6 KiB, and whether a
		# second run of it fails again (a finding that does not repeat
		# points at threads or at state kept between inputs)
		unit=$(sed -n 's/.*Test unit written to //p' "$log" | tail -n 1)
		if [ -n "$unit" ] && [ -f "$unit" ]; then
			echo "input ($(wc -c <"$unit") bytes), base64:"
			head -c 6144 "$unit" | base64 -w 0
			echo
			if "$exe" -runs=3 -error_exitcode=1 "$unit" >"$log.replay" 2>&1; then
				echo "replayed 3 times: no failure (not reproducible)"
			else
				echo "replayed: fails again"
			fi
		fi
		failed=1
	fi
done
exit $failed
