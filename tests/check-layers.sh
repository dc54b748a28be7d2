#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The library's modules in layers: a file includes no private header of a
# layer above its own, so that nothing below calls up (the input layer in
# particular: tageval-reader.[ch] and tageval-lines.c see only the base).
# usage: check-layers.sh LIBDIR
dir=${1:?usage: check-layers.sh LIBDIR}

# the layer of each private header; a source file is in the layer of the
# highest header it is part of (listed below), else of its own header
layer_of() {
	case $1 in
	tageval.h | tageval-util.h | tageval-fsum.h | tageval-rng.h | tageval-parallel.h) echo 0 ;;
	tageval-intern.h) echo 1 ;;
	tageval-reader.h) echo 2 ;;
	tageval-inventory.h | tageval-wsi-metrics.h) echo 3 ;;
	tageval-key.h | tageval-filter.h | tageval-agreement.h | tageval-wsi.h) echo 4 ;;
	tageval-score.h) echo 5 ;;
	tageval-report.h | tageval-supervised.h) echo 6 ;;
	# source files
	tageval-util.c | tageval-error.c | tageval-fsum.c | tageval-entropy.c | tageval-rng.c | tageval-parallel.c) echo 0 ;;
	tageval-intern.c) echo 1 ;;
	tageval-reader.c | tageval-lines.c) echo 2 ;;
	tageval-inventory.c | tageval-hierarchy.c | tageval-wsi-metrics.c | tageval-graded.c | tageval-wsd.c) echo 3 ;;
	tageval-key.c | tageval-filter.c | tageval-agreement.c | tageval-alpha.c | tageval-annotations.c | tageval-wsi-read.c | tageval-wsi-eval.c | tageval-clustering.c | tageval-weights.c) echo 4 ;;
	tageval-score.c) echo 5 ;;
	tageval-report*.c | tageval-supervised-splits.c | tageval-supervised-map.c | tageval-wsi-report.c) echo 6 ;;
	*) echo "" ;;
	esac
}

status=0
for f in "$dir"/tageval*.c "$dir"/tageval*.h; do
	name=${f##*/}
	own=$(layer_of "$name")
	if [ -z "$own" ]; then
		echo "$name: in no layer (add it to tests/check-layers.sh)"
		status=1
		continue
	fi
	for inc in $(sed -n 's/^#include "\(tageval[^"]*\)".*/\1/p' "$f"); do
		l=$(layer_of "$inc")
		if [ -z "$l" ]; then
			echo "$name includes $inc, which is in no layer"
			status=1
		elif [ "$l" -gt "$own" ]; then
			echo "$name (layer $own) includes $inc (layer $l)"
			status=1
		fi
	done
done
[ $status -eq 0 ] && echo "every library file includes only its own layer and those below"
exit $status
