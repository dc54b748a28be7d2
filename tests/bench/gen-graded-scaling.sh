#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# gen-graded-scaling.sh CASE N DIR - writes, deterministically, one
# adversarial input of size N for run-graded-scaling.sh (wsd-graded, issue
# 17: is anything quadratic in one line's labels or one word's instances?):
#
#   labels      DIR/gold    word w.n, 5 instances, each rating the N senses
#                           s0 ... s(N-1) (weights 1 to 7)
#               DIR/system  the same 5 instances, each rating N labels, half
#                           of them gold senses, every label named twice
#                           (the repeated-label rule), weights 1 to 9;
#                           scored with --no-remapping (with remapping the
#                           matrix of 5.2 has N x N cells by definition)
#   instances   DIR/gold    word w.n, N instances, instance i rating the
#                           senses s(i/2) and s(i/2 + 1)
#               DIR/system  instance i in the clusters c(i/2) (weight 3)
#                           and c(i/2 + 1) (weight 1): about N/2 clusters and
#                           N/2 senses in one word, each cluster tied to two
#                           senses (the remapping matrix is N/2 x N/2 dense,
#                           with 2N nonzero cells)
#
# Only awk and sh; no randomness, so N alone fixes the files.
set -eu
if [ $# -ne 3 ]; then
	echo "usage: gen-graded-scaling.sh labels|instances N DIR" >&2
	exit 2
fi
case_=$1 n=$2 dir=$3
case $n in '' | *[!0-9]* | 0) echo "gen-graded-scaling.sh: N must be a positive integer" >&2; exit 2 ;; esac
mkdir -p "$dir"
case $case_ in
labels)
	awk -v n="$n" -v dir="$dir" 'BEGIN {
		gold = dir "/gold"; sys = dir "/system"
		for (i = 1; i <= 5; i++) {
			printf "w.n w.n.%d", i > gold
			for (s = 0; s < n; s++)
				printf " s%d/%d", (s * 7 + i) % n, 1 + (s + i) % 7 > gold
			printf "\n" > gold
			printf "w.n w.n.%d", i > sys
			for (s = 0; s < n; s++) {
				lab = s % 2 ? "s" (s * 3 + i) % n : "x" s
				printf " %s/%d", lab, 1 + (s * i) % 9 > sys
			}
			for (s = n - 1; s >= n / 2; s--)
				printf " %s", (s % 2 ? "s" (s * 3 + i) % n : "x" s) > sys
			printf "\n" > sys
		}
	}'
	;;
instances)
	awk -v n="$n" -v dir="$dir" 'BEGIN {
		gold = dir "/gold"; sys = dir "/system"
		for (i = 0; i < n; i++) {
			h = int(i / 2)
			printf "w.n w.n.%d s%d/5 s%d/2\n", i, h, h + 1 > gold
			printf "w.n w.n.%d c%d/3 c%d/1\n", i, h, h + 1 > sys
		}
	}'
	;;
*)
	echo "gen-graded-scaling.sh: unknown case $case_" >&2
	exit 2
	;;
esac
