#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# gen-hierarchy.sh CASE N DIR - writes one adversarial input of size N to
# DIR, for run-hierarchy.sh (the shapes of sense map and annotations that
# once cost time or memory growing with the square of N):
#
#   parents    DIR/map: parent form, one tag "x" with N parents p1 ... pN
#              ("x pI", one line each); DIR/ann1, DIR/ann2: one item each,
#              tagged x and p1
#   longline   DIR/ann1, DIR/ann2: one item whose line lists N distinct tags
#              t1 ... tN (ann2 in the reverse order); no map (hkappa --flat)
#   comb       DIR/map: a chain c1 <- c2 <- ... <- cN in parent form, every
#              cI also the parent of a leaf lI (so cI has N - I + 1 leaves
#              below it); DIR/ann1: N items, item I tagged cI; DIR/ann2:
#              the same items tagged lI
#   chain      DIR/map: a chain c1 <- c2 <- ... <- cN in parent form;
#              DIR/key: N instances, each with key tag cN (the bottom);
#              DIR/answers: the same instances answered c1 (the top): scored
#              -g mixed, every answer is compared across the whole chain.
#              DIR/ann1, DIR/ann2: the same N items tagged c1 and cN (hkappa)
#
# Everything is deterministic; written by awk.
set -eu
[ $# -eq 3 ] || { echo "usage: gen-hierarchy.sh CASE N DIR" >&2; exit 2; }
case=$1 n=$2 dir=$3
case $n in '' | *[!0-9]* | 0) echo "gen-hierarchy.sh: N must be a positive integer" >&2; exit 2 ;; esac
mkdir -p "$dir"
case $case in
parents)
	awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i++) printf "x p%d\n", i }' >"$dir/map"
	echo "w i1 x" >"$dir/ann1"
	echo "w i1 p1" >"$dir/ann2" ;;
longline)
	awk -v n="$n" 'BEGIN { printf "w i1"; for (i = 1; i <= n; i++) printf " t%d", i; printf "\n" }' >"$dir/ann1"
	awk -v n="$n" 'BEGIN { printf "w i1"; for (i = n; i >= 1; i--) printf " t%d", i; printf "\n" }' >"$dir/ann2" ;;
comb)
	awk -v n="$n" 'BEGIN {
		print "c1"
		for (i = 2; i <= n; i++) printf "c%d c%d\n", i, i - 1
		for (i = 1; i <= n; i++) printf "l%d c%d\n", i, i
	}' >"$dir/map"
	awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i++) printf "w i%d c%d\n", i, i }' >"$dir/ann1"
	awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i++) printf "w i%d l%d\n", i, i }' >"$dir/ann2" ;;
chain)
	awk -v n="$n" 'BEGIN { print "c1"; for (i = 2; i <= n; i++) printf "c%d c%d\n", i, i - 1 }' >"$dir/map"
	awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i++) printf "w i%d c%d\n", i, n }' >"$dir/key"
	awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i++) printf "w i%d c1\n", i }' >"$dir/answers"
	cp "$dir/answers" "$dir/ann1"
	cp "$dir/key" "$dir/ann2" ;;
*)
	echo "gen-hierarchy.sh: unknown case \"$case\" (parents, longline, comb or chain)" >&2
	exit 2 ;;
esac
