#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# gen-scaling.sh CASE N DIR - writes, deterministically, one adversarial input
# of size N for run-scaling.sh (inputs whose cost grew with the square of N):
#
#   ties        DIR/gold      "w i1 g1"
#               DIR/clusters  "w i1 c0 c1 ... c(N-1)": N tied labels on one
#                             line (the SemEval-2007 tie set of fscore and
#                             vmeasure)
#   report      DIR/map       root r with N children s0 ... s(N-1) (factor N)
#               DIR/key       N items of w.n, item i tagged s_i; every 10th
#                             also r, every 7th also s_(i+1): the lexelt has
#                             N + 1 senses (the random baselines of wsd-report
#                             answer all of them on every item)
#               DIR/sys       one answer line
#   supervised  DIR/gold      word w.n, N instances, instance i of sense g_i
#               DIR/clusters  every instance in cluster c0, every 3rd also in
#                             c(i mod 5) with weight 0.5: N senses, each test
#                             instance's vector spans them (wsi-supervised)
#   supervised-weights
#               DIR/gold      as supervised
#               DIR/clusters  every instance in c0; every 3rd, i, also in
#                             c(i mod 5 + 1), with weights w and 1 - w,
#                             w = (i + 1) / (N + 1): each such line gives the
#                             big row c0 its own weight, so no two test
#                             vectors are the same (wsi-supervised)
#   supervised-weights3
#               as supervised-weights with a third cluster on those lines,
#               "c0/w c(i mod 5 + 1)/(1 - w) c6/0.5": three rows, which the
#               two-cluster shortcut does not cover (still rows x lines)
#   alpha-sets  DIR/a, DIR/b  N items, a tags item i "x y<i>", b "x z<i>":
#                             2N distinct sets of tags, all sharing x
#                             (hkappa --flat --distance=masi: every pair of
#                             them has a tag in common; refused from N =
#                             10001, beyond 200,000,000 pairs)
#   alpha-ratio DIR/a, DIR/b  N items, a gives item i the value i, b the
#                             value i + 0.5: 2N distinct values (hkappa
#                             --flat --coefficients=alpha_ratio: every
#                             pair of them; refused from N = 10001, beyond
#                             20,000 distinct values)
#   many-labels DIR/a, DIR/b  N items, a tags item i "l<i>", b
#                             "l<i + N/2>": 1.5N distinct labels, each on
#                             one or two items (hkappa: memory per label)
#
# Only awk and sh; no randomness, so N alone fixes the files.
set -eu
if [ $# -ne 3 ]; then
	echo "usage: gen-scaling.sh ties|report|supervised|supervised-weights|supervised-weights3|alpha-sets|alpha-ratio|many-labels N DIR" >&2
	exit 2
fi
case_=$1 n=$2 dir=$3
case $n in '' | *[!0-9]* | 0) echo "gen-scaling.sh: N must be a positive integer" >&2; exit 2 ;; esac
mkdir -p "$dir"
case $case_ in
ties)
	printf 'w i1 g1\n' >"$dir/gold"
	awk -v n="$n" 'BEGIN {
		printf "w i1"
		for (i = 0; i < n; i++)
			printf " c%d", i
		printf "\n"
	}' >"$dir/clusters"
	;;
report)
	awk -v n="$n" -v dir="$dir" 'BEGIN {
		map = dir "/map"; key = dir "/key"
		print "r" > map
		for (i = 0; i < n; i++) {
			printf "s%d %d r\n", i, n > map
			printf "w.n w.n.%d s%d", i, i > key
			if (i % 10 == 0)
				printf " r" > key
			if (i % 7 == 0)
				printf " s%d", (i + 1) % n > key
			printf "\n" > key
		}
		print "w.n w.n.0 s0" > (dir "/sys")
	}'
	;;
supervised)
	awk -v n="$n" -v dir="$dir" 'BEGIN {
		gold = dir "/gold"; cl = dir "/clusters"
		for (i = 0; i < n; i++) {
			printf "w.n w.n.%d g%d\n", i, i > gold
			if (i % 3 == 0)
				printf "w.n w.n.%d c0/0.5 c%d/0.5\n", i, i % 5 + 1 > cl
			else
				printf "w.n w.n.%d c0\n", i > cl
		}
	}'
	;;
supervised-weights | supervised-weights3)
	awk -v n="$n" -v dir="$dir" -v third="$([ "$case_" = supervised-weights3 ] && echo 1 || echo 0)" 'BEGIN {
		gold = dir "/gold"; cl = dir "/clusters"
		for (i = 0; i < n; i++) {
			printf "w.n w.n.%d g%d\n", i, i > gold
			if (i % 3 == 0) {
				w = (i + 1) / (n + 1)
				printf "w.n w.n.%d c0/%.9f c%d/%.9f%s\n", i, w, i % 5 + 1, 1 - w,
					third ? " c6/0.5" : "" > cl
			} else
				printf "w.n w.n.%d c0\n", i > cl
		}
	}'
	;;
alpha-sets)
	awk -v n="$n" -v dir="$dir" 'BEGIN {
		for (i = 0; i < n; i++) {
			printf "w %d x y%d\n", i, i > (dir "/a")
			printf "w %d x z%d\n", i, i > (dir "/b")
		}
	}'
	;;
alpha-ratio)
	awk -v n="$n" -v dir="$dir" 'BEGIN {
		for (i = 0; i < n; i++) {
			printf "w %d %d\n", i, i > (dir "/a")
			printf "w %d %d.5\n", i, i > (dir "/b")
		}
	}'
	;;
many-labels)
	awk -v n="$n" -v dir="$dir" 'BEGIN {
		h = int(n / 2)
		for (i = 0; i < n; i++) {
			printf "w %d l%d\n", i, i > (dir "/a")
			printf "w %d l%d\n", i, i + h > (dir "/b")
		}
	}'
	;;
*)
	echo "gen-scaling.sh: unknown case \"$case_\" (ties, report, supervised, supervised-weights, supervised-weights3, alpha-sets, alpha-ratio or many-labels)" >&2
	exit 2
	;;
esac
