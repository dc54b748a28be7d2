#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# replay.sh TARGET-EXE FUZZDIR SRCROOT NAME - runs the fuzz target once on
# every input of its seed corpus and of FUZZDIR/regressions/NAME/ (no
# fuzzing): any crash, leak, sanitizer report or failed check fails the test.
set -eu

exe=$1 dir=$2 root=$3 name=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tageval-fuzz.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$dir/make-corpus.sh" "$root" "$tmp" "$name"
mkdir -p "$tmp/$name"
set -- "$tmp/$name"
[ -d "$dir/regressions/$name" ] && set -- "$@" "$dir/regressions/$name"
count=$(find "$@" -type f | wc -l)
echo "replaying $count inputs through $name"
# -runs=0: execute the corpus once and stop; libFuzzer's own exit status for
# a finding is 77, which meson reads as a skip
"$exe" -runs=0 -error_exitcode=1 -timeout=60 -artifact_prefix="$tmp/" "$@"
