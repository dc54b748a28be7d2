#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# make-corpus.sh SRCROOT OUTDIR [TARGET] - writes the seed corpus of every
# fuzz target (or of TARGET) into OUTDIR/<target>/, from the files of data/
# and the input files of the CLI test cases.  A seed is a flags byte, then
# the target's files separated by the line "=====" (see fuzz-common.h).
set -eu

root=$1
out=$2
only=${3:-}
data=$root/data
n=0

# seed TARGET FLAGS FILE... - FLAGS is the flags byte as three octal digits
seed() {
	target=$1 flags=$2
	shift 2
	[ -z "$only" ] || [ "$only" = "$target" ] || return 0
	mkdir -p "$out/$target"
	n=$((n + 1))
	{
		printf "\\$flags"
		first=1
		for f in "$@"; do
			[ $first = 1 ] || printf '\n=====\n'
			first=0
			cat "$f"
		done
	} >"$out/$target/seed-$n"
}

# the Senseval files: key, answers, sense map
for set in doc-table doc-table-shuffled melamed-resnik sampletask; do
	a=$data/$set.answers k=$data/$set.key m=$data/$set.sensemap
	seed key 000 "$k"
	seed key 000 "$a"
	seed map 000 "$m"
	seed map 001 "$m" "$k"
	for flags in 000 001 002 006 012 016 032; do
		seed answers $flags "$a" "$k" "$m"
		seed scorer2 $flags "$a" "$k" "$m"
	done
	seed answers 002 "$a" "$k" "$m" "$k" "$m"
	seed scorer2 042 "$a" "$k" "$m" "$k"
	seed scorer2 040 "$a" "$k"
done
for set in conjunctive-table weights-merge unscorable melamed-resnik-disjunctive; do
	seed answers 000 "$data/$set.answers" "$data/$set.key"
	seed answers 010 "$data/$set.answers" "$data/$set.key"
	seed scorer2 020 "$data/$set.answers" "$data/$set.key"
	seed scorer2 010 "$data/$set.answers" "$data/$set.key"
done

# annotations and sense maps of the agreement tools
ann="$data/agreement-ann1 $data/agreement-ann2"
lex="$data/agreement-lex-ann1 $data/agreement-lex-ann2"
for m in agreement.senses agreement.sensemap; do
	seed map 000 "$data/$m"
	# shellcheck disable=SC2086 # lists of files
	for flags in 000 002; do
		seed annotations $flags "$data/$m" $ann
		seed annotations $flags "$data/$m" $ann "$data/agreement-ann3"
		seed hkappa $flags "$data/$m" $ann
		seed hkappa 010 "$data/$m" $ann "$data/agreement-ann3"
	done
done
# shellcheck disable=SC2086
{
	seed map 002 "$data/agreement-lex.senses" "$data/agreement-lex-ann1"
	seed annotations 000 "$data/agreement-lex.senses" $lex
	seed annotations 001 $lex
	seed hkappa 002 "$data/agreement-lex.senses" $lex
	seed hkappa 001 $lex
	# the long form (flags 4: long, 1: flat), one file and two
	seed annotations 005 "$root/tests/cli/hkappa/long-three-missing/long"
	seed annotations 005 "$root/tests/cli/hkappa/long-stdin-no-lexelt/stdin" \
		"$root/tests/cli/hkappa/long-three-missing/long"
	seed annotations 004 "$data/agreement.senses" "$root/tests/cli/hkappa/long-three-missing/long"
	# a file of distances last (flags 8: --weights; 1: flat)
	seed annotations 011 "$root/tests/cli/hkappa/weights-letters/ann1" \
		"$root/tests/cli/hkappa/weights-letters/ann2" "$root/tests/cli/hkappa/weights-letters/weights"
	seed annotations 011 "$root/tests/cli/hkappa/weights-hash-label/ann1" \
		"$root/tests/cli/hkappa/weights-hash-label/ann2" "$root/tests/cli/hkappa/weights-hash-label/weights"
	seed annotations 011 "$root/tests/cli/hkappa/weights-error-asymmetric/ann1" \
		"$root/tests/cli/hkappa/weights-error-asymmetric/ann2" \
		"$root/tests/cli/hkappa/weights-error-asymmetric/weights"
	seed annotations 011 "$root/tests/cli/hkappa/weights-three-annotators/ann1" \
		"$root/tests/cli/hkappa/weights-three-annotators/ann2" \
		"$root/tests/cli/hkappa/weights-three-annotators/ann3" \
		"$root/tests/cli/hkappa/weights-three-annotators/weights"
	seed hkappa 020 "$data/agreement-lex.senses" $lex "$data/agreement-lex-ann1"
	seed hkappa 014 "$data/agreement.senses" $ann
}

# word sense induction: gold key, clusters, split files
for flags in 000 001 002 003 006; do
	seed wsi $flags "$data/wsi-gold.key" "$data/wsi-clusters.key"
	seed wsi $flags "$data/sup-gold.key" "$data/sup-clusters.key"
	seed vmeasure $flags "$data/wsi-clusters.key" "$data/wsi-gold.key"
	seed fscore $flags "$data/wsi-clusters.key" "$data/wsi-gold.key"
	seed fscore 020 "$data/sup-clusters.key" "$data/sup-gold.key"
	seed split $flags "$data/sup-gold.key" "$data/sup-clusters.key" \
		"$data/sup-mapping.key" "$data/sup-test.key"
	seed wsi-baseline $flags "$data/wsi-gold.key"
	seed wsi-supervised $flags "$data/sup-clusters.key" "$data/sup-gold.key"
done
seed wsi-supervised 003 "$data/sup-clusters.key" "$data/sup-gold.key" \
	"$data/sup-mapping.key" "$data/sup-test.key"
seed wsi-supervised 013 "$data/sup-clusters.key" "$data/sup-gold.key" \
	"$data/sup-mapping.key" "$data/sup-test.key"
seed wsi-supervised 020 "$data/sup-clusters.key" "$data/sup-gold.key"

# the results report: key, systems, sense map, training key, subset
r=$data/report
for flags in 000 001 003 007 017 027 047 107 207 307; do
	seed wsd-report $flags "$r.key" "$r-s1.answers" "$r.sensemap" "$r.train" \
		"$r-subset.list" "$r-s2.answers"
done
seed wsd-report 000 "$data/doc-table.key" "$data/doc-table.answers"
seed wsd-report 001 "$data/doc-table.key" "$data/doc-table.answers" "$data/doc-table.sensemap"

# input as other tools write it: a UTF-8 byte-order mark, gzip (whole, as
# two members, cut short, with a wrong check value), and weights whose sum
# overflows a double (issue 17)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tageval-corpus.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
bom() { printf '\357\273\277'; cat "$1"; }
bom "$data/doc-table.key" >"$tmp/bom.key"
bom "$data/doc-table.answers" >"$tmp/bom.answers"
bom "$data/doc-table.sensemap" >"$tmp/bom.sensemap"
bom "$data/agreement-ann1" >"$tmp/bom.ann1"
bom "$data/wsi-clusters.key" >"$tmp/bom.clusters"
for f in doc-table.key doc-table.answers doc-table.sensemap agreement-ann1 agreement.senses \
	wsi-gold.key wsi-clusters.key; do
	gzip -c "$data/$f" >"$tmp/$f.gz"
done
head -c 100 "$data/doc-table.answers" | gzip -c >"$tmp/two-members.gz"
tail -c +101 "$data/doc-table.answers" | gzip -c >>"$tmp/two-members.gz"
head -c 60 "$tmp/doc-table.answers.gz" >"$tmp/cut.gz"
bom "$data/doc-table.answers" | gzip -c >"$tmp/bom.answers.gz"
printf 'w 01 1/1e308 2/1e308\nw 02 1/1.7976931348623157e308 3/1e308 2/1\n' >"$tmp/huge.answers"
printf 'w 01 1/1e308 2/1e308\nw 02 1/1e308 3\n' >"$tmp/huge.ann"
printf 'w w.1 c1/1e308 c2/1e308\nw w.2 c1\n' >"$tmp/huge.clusters"
printf 'w w.1 s1\nw w.2 s2\n' >"$tmp/huge.gold"
seed key 000 "$tmp/bom.key"
seed key 000 "$tmp/doc-table.key.gz"
seed map 000 "$tmp/bom.sensemap"
seed map 000 "$tmp/doc-table.sensemap.gz"
for a in bom.answers doc-table.answers.gz two-members.gz cut.gz bom.answers.gz huge.answers; do
	seed answers 000 "$tmp/$a" "$data/doc-table.key" "$data/doc-table.sensemap"
	seed answers 002 "$tmp/$a" "$tmp/doc-table.key.gz" "$tmp/doc-table.sensemap.gz"
	seed answers 010 "$tmp/$a" "$data/doc-table.key"
	seed scorer2 002 "$tmp/$a" "$data/doc-table.key" "$data/doc-table.sensemap"
	seed wsd-report 001 "$data/doc-table.key" "$tmp/$a" "$data/doc-table.sensemap"
done
seed annotations 000 "$tmp/agreement.senses.gz" "$tmp/bom.ann1" "$tmp/agreement-ann1.gz"
seed annotations 001 "$tmp/huge.ann" "$data/agreement-lex-ann1"
# files of distances (hkappa --weights): a byte-order mark and CR LF, gzip
wl=$root/tests/cli/hkappa/weights-letters
bom "$wl/weights" | sed 's/$/\r/' >"$tmp/bom-crlf.weights"
gzip -c "$wl/weights" >"$tmp/weights.gz"
seed annotations 011 "$wl/ann1" "$wl/ann2" "$tmp/bom-crlf.weights"
seed annotations 011 "$wl/ann1" "$wl/ann2" "$tmp/weights.gz"
seed hkappa 000 "$tmp/agreement.senses.gz" "$tmp/agreement-ann1.gz" "$data/agreement-ann2"
seed hkappa 001 "$tmp/huge.ann" "$tmp/huge.ann"
seed wsi 000 "$tmp/wsi-gold.key.gz" "$tmp/bom.clusters"
seed wsi 000 "$data/wsi-gold.key" "$tmp/wsi-clusters.key.gz"
seed wsi 000 "$tmp/huge.gold" "$tmp/huge.clusters"
seed vmeasure 000 "$tmp/wsi-clusters.key.gz" "$tmp/wsi-gold.key.gz"
seed fscore 000 "$tmp/huge.clusters" "$tmp/huge.gold"

# wsd-graded: SYSTEM GOLD (flags: see fuzz-tool.c)
for flags in 000 002 006 012 003 007 023 041 232; do
	seed wsd-graded $flags "$data/graded-induced.key" "$data/graded-gold.key"
	seed wsd-graded $flags "$data/graded-wn.key" "$data/graded-gold.key"
done
seed wsd-graded 002 "$data/graded-gold.key" "$data/graded-gold.key"
seed wsd-graded 002 /dev/null "$data/graded-gold.key"
seed wsd-graded 003 "$tmp/bom.clusters" "$data/graded-gold.key"
# wsd-score: GOLD SYSTEM (flags: see fuzz-tool.c)
for flags in 000 001 002 004 007; do
	seed wsd-score $flags "$data/wsd-gold.key" "$data/wsd-system.key"
done
seed wsd-score 001 "$data/wsd-gold.key" "$data/wsd-gold.key"
seed wsd-score 000 "$data/wsd-gold.key" /dev/null
# the clustering metrics (graded and crisp): the library target and the tools
for pair in crisp-clusters.key:crisp-gold.key fuzzy-clusters.key:fuzzy-gold.key \
	graded-induced.key:graded-gold.key graded-wn.key:graded-gold.key \
	wsi-clusters.key:wsi-gold.key; do
	c=$data/${pair%%:*} g=$data/${pair#*:}
	for flags in 000 004 010 020 040 060; do
		seed clustering $flags "$g" "$c"
	done
	for flags in 000 001 002 003 022; do
		seed bcubed $flags "$c" "$g"
		seed nmi $flags "$c" "$g"
		seed ari $flags "$c" "$g"
	done
done
seed clustering 000 "$tmp/huge.gold" "$tmp/huge.clusters"
seed nmi 002 "$tmp/huge.clusters" "$tmp/huge.gold"
for d in "$root"/tests/cli/bcubed/* "$root"/tests/cli/nmi/* "$root"/tests/cli/ari/*; do
	[ -f "$d/clusters" ] && [ -f "$d/gold" ] || continue
	seed clustering 000 "$d/gold" "$d/clusters"
	seed bcubed 002 "$d/clusters" "$d/gold"
	seed nmi 022 "$d/clusters" "$d/gold"
	seed ari 003 "$d/clusters" "$d/gold"
done

# the small input files of the CLI cases (most of them malformed on purpose)
for f in "$root"/tests/cli/*/*/*; do
	case ${f##*/} in
	args | expected-* | setup | needs-shared | stdout-to-dev-full | stdin-file | stdin-closed) continue ;;
	esac
	[ -f "$f" ] && [ "$(wc -c <"$f")" -le 4096 ] || continue
	case $f in
	*/scorer2/*)
		seed key 000 "$f"
		seed map 000 "$f"
		seed answers 000 "$f" "$data/doc-table.key" "$data/doc-table.sensemap"
		;;
	*/wsd-report/*)
		seed wsd-report 000 "$f" "$r-s1.answers"
		seed wsd-report 001 "$r.key" "$f" "$r.sensemap"
		;;
	*/wsd-graded/*)
		seed wsd-graded 002 "$f" "$data/graded-gold.key"
		seed wsd-graded 003 "$data/graded-wn.key" "$f"
		;;
	*/hkappa/*)
		seed map 000 "$f"
		seed annotations 001 "$f" "$data/agreement-ann2"
		;;
	*)
		seed wsi 000 "$f" "$data/wsi-clusters.key"
		seed wsi 000 "$data/wsi-gold.key" "$f"
		seed split 000 "$data/sup-gold.key" "$data/sup-clusters.key" "$f" "$data/sup-test.key"
		;;
	esac
done
