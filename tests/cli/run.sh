#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# run.sh TOOL CASEDIR - runs one end-to-end test case of a tageval tool and
# compares its exit status, standard output and standard error with the
# expected ones.  See tests/cli/README for the layout of a case directory.
#
# Exit status: 0 pass, 1 fail, 77 skip, 99 broken case or runner error.
#
# Environment:
#   TAGEVAL_TEST_WRAPPER  words put before TOOL on its command line, such as
#                         'valgrind -q --error-exitcode=3 --leak-check=full'
#   TAGEVAL_TEST_KEEP     1: keep the scratch directory and print its name

set -u
unset CDPATH
set -f	# no globbing: TAGEVAL_TEST_WRAPPER is split on blanks, never globbed

prog=run.sh

broken() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 99
}

if [ $# -ne 2 ]; then
	printf 'usage: %s TOOL CASEDIR\n' "$prog" >&2
	exit 99
fi

# absolute NAME: prints NAME as an absolute path (the file need not exist)
absolute() {
	case $1 in
	/*) printf '%s\n' "$1" ;;
	*) printf '%s/%s\n' "$(pwd)" "$1" ;;
	esac
}

tool=$(absolute "$1")
[ -d "$2" ] || broken "$2: no such case directory"
case_dir=$(cd -- "$2" && pwd) || broken "$2: cannot enter"
case_name=${case_dir##*/}

script_dir=$(cd -- "$(dirname -- "$0")" && pwd) ||
	broken "cannot find the directory of $0"
root=$(cd -- "$script_dir/../.." && pwd) ||
	broken "cannot find the source root"
data_dir=$root/data
shared_dir=$(cd -- "$root/.." && pwd)/shared/data

# Exported for the substitutions below (read through ENVIRON, so that awk does
# not interpret backslashes in the paths) and for the case's setup script.
TAGEVAL_CLI_DATA=$data_dir
TAGEVAL_CLI_CASE=$case_dir
TAGEVAL_CLI_SHARED=$shared_dir
export TAGEVAL_CLI_DATA TAGEVAL_CLI_CASE TAGEVAL_CLI_SHARED

if [ -e "$case_dir/needs-shared" ] && [ ! -d "$shared_dir" ]; then
	printf 'SKIP %s: %s is absent\n' "$case_name" "$shared_dir"
	exit 77
fi
if [ -e "$case_dir/stdout-to-dev-full" ] && [ ! -c /dev/full ]; then
	printf 'SKIP %s: /dev/full is absent\n' "$case_name"
	exit 77
fi
[ -f "$case_dir/args" ] || broken "$case_dir: no args file"
[ -f "$case_dir/expected-status" ] || broken "$case_dir: no expected-status file"
[ -x "$tool" ] || broken "$tool: not an executable file"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/tageval-cli.XXXXXX") ||
	broken "cannot create a scratch directory"
if [ "${TAGEVAL_TEST_KEEP:-0}" = 1 ]; then
	printf 'scratch directory: %s\n' "$scratch"
else
	trap 'rm -rf "$scratch"' EXIT
fi
trap 'exit 130' INT TERM
mkdir "$scratch/work" || broken "cannot create $scratch/work"

# subst IN OUT: copies IN to OUT, replacing the tokens @DATA@, @CASE@ and
# @SHARED@ (literally, not as patterns).  A file without any token is copied
# byte for byte; a file with tokens must end in a line feed.
subst() {
	if grep -q -e '@DATA@' -e '@CASE@' -e '@SHARED@' "$1"; then
		awk '
		function repl(s, from, to,    out, i) {
			out = ""
			while ((i = index(s, from)) > 0) {
				out = out substr(s, 1, i - 1) to
				s = substr(s, i + length(from))
			}
			return out s
		}
		{
			s = repl($0, "@DATA@", ENVIRON["TAGEVAL_CLI_DATA"])
			s = repl(s, "@CASE@", ENVIRON["TAGEVAL_CLI_CASE"])
			s = repl(s, "@SHARED@", ENVIRON["TAGEVAL_CLI_SHARED"])
			print s
		}' "$1" >"$2"
	else
		cp "$1" "$2"
	fi
}

# expected NAME: the expected file NAME of the case, substituted, in the
# scratch directory (an absent file stands for empty output)
expected() {
	if [ -f "$case_dir/$1" ]; then
		subst "$case_dir/$1" "$scratch/$1" || broken "cannot read $case_dir/$1"
	else
		: >"$scratch/$1"
	fi
}

expected_status=$(cat "$case_dir/expected-status")
case $expected_status in
'' | *[!0-9]*) broken "$case_dir/expected-status: not a number" ;;
esac

if [ -f "$case_dir/setup" ]; then
	(cd "$scratch/work" && sh "$case_dir/setup") ||
		broken "$case_dir/setup failed"
fi

subst "$case_dir/args" "$scratch/args" || broken "cannot read $case_dir/args"
set --
while IFS= read -r arg || [ -n "$arg" ]; do
	set -- "$@" "$arg"
done <"$scratch/args"

stdin=/dev/null
if [ -f "$case_dir/stdin" ]; then
	stdin=$case_dir/stdin
elif [ -f "$case_dir/stdin-file" ]; then
	subst "$case_dir/stdin-file" "$scratch/stdin-file" ||
		broken "cannot read $case_dir/stdin-file"
	IFS= read -r stdin <"$scratch/stdin-file"
	case $stdin in
	/*) ;;
	*) stdin=$scratch/work/$stdin ;;
	esac
fi
stdout=$scratch/stdout
[ -e "$case_dir/stdout-to-dev-full" ] && stdout=/dev/full

# shellcheck disable=SC2086 # the wrapper is a list of words
if [ -e "$case_dir/stdin-closed" ]; then
	(cd "$scratch/work" && exec ${TAGEVAL_TEST_WRAPPER:-} "$tool" "$@" <&-) \
		>"$stdout" 2>"$scratch/stderr"
else
	(cd "$scratch/work" && exec ${TAGEVAL_TEST_WRAPPER:-} "$tool" "$@") \
		<"$stdin" >"$stdout" 2>"$scratch/stderr"
fi
status=$?
[ "$stdout" = /dev/full ] && : >"$scratch/stdout"

fail=0
if [ "$status" != "$expected_status" ]; then
	printf 'FAIL %s: exit status %s, expected %s\n' \
		"$case_name" "$status" "$expected_status"
	fail=1
fi

# compare STREAM: compares the tool's STREAM (stdout or stderr) with the
# case's expected-STREAM, or, if the case has expected-STREAM-head instead, the
# first lines of STREAM with it (and their number with expected-STREAM-lines,
# if present)
compare() {
	if [ -f "$case_dir/expected-$1-head" ]; then
		expected "expected-$1-head"
		lines=$(($(wc -l <"$scratch/expected-$1-head")))
		head -n "$lines" "$scratch/$1" >"$scratch/$1-head"
		if ! cmp -s "$scratch/expected-$1-head" "$scratch/$1-head"; then
			printf 'FAIL %s: %s begins differently:\n' "$case_name" "$1"
			(cd "$scratch" && diff -u "expected-$1-head" "$1-head")
			fail=1
		fi
		if [ -f "$case_dir/expected-$1-lines" ]; then
			want=$(($(cat "$case_dir/expected-$1-lines")))
			got=$(($(wc -l <"$scratch/$1")))
			if [ "$want" -ne "$got" ]; then
				printf 'FAIL %s: %s lines on %s, expected %s\n' \
					"$case_name" "$got" "$1" "$want"
				fail=1
			fi
		fi
	else
		expected "expected-$1"
		if ! cmp -s "$scratch/expected-$1" "$scratch/$1"; then
			printf 'FAIL %s: %s differs:\n' "$case_name" "$1"
			(cd "$scratch" && diff -u "expected-$1" "$1")
			fail=1
		fi
	fi
}

compare stdout
compare stderr

if [ $fail = 0 ]; then
	printf 'PASS %s\n' "$case_name"
fi
exit $fail
