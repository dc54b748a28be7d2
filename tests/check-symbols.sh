#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Every symbol the shared library exports carries the tageval_ prefix.
# usage: check-symbols.sh LIBRARY
lib=$1
command -v nm >/dev/null 2>&1 || { echo "nm not found"; exit 77; }
syms=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRW]$/ { print $3 }') || exit 1
[ -n "$syms" ] || { echo "no exported symbols in $lib"; exit 1; }
bad=$(printf '%s\n' "$syms" | grep -v '^tageval_' | grep -v '^TAGEVAL_')
if [ -n "$bad" ]; then
	echo "exported without the tageval_ prefix:"
	printf '%s\n' "$bad"
	exit 1
fi
echo "$(printf '%s\n' "$syms" | wc -l) symbols, all prefixed"
