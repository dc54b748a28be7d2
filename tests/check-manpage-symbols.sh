#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Every public name of lib/tageval.h -- its functions, the callback types,
# the struct and enum tags and the TAGEVAL_ constants and macros -- appears
# in man/libtageval.3.scd (issue 19: the manual covers the whole header).
# Comments are left out first, so a name only mentioned in a comment does
# not count.  Prints the missing names and fails when there is one.
# Usage: check-manpage-symbols.sh lib/tageval.h man/libtageval.3.scd
set -eu
header=$1 page=$2
names=$(awk '
	{
		line = $0; out = ""
		while (line != "") {
			if (incomment) {
				i = index(line, "*/")
				if (i == 0) { line = ""; break }
				line = substr(line, i + 2); incomment = 0
			} else {
				i = index(line, "/*")
				if (i == 0) { out = out line; line = ""; break }
				out = out substr(line, 1, i - 1) " "
				line = substr(line, i + 2); incomment = 1
			}
		}
		print out
	}' "$header" | {
	t=$(cat)
	printf '%s\n' "$t" | grep -o 'tageval_[a-z0-9_]*[[:space:]]*(' | sed 's/[[:space:]]*($//'
	printf '%s\n' "$t" | grep -o '(\*tageval_[a-z0-9_]*)' | tr -d '(*)'
	printf '%s\n' "$t" | grep -o '\(struct\|enum\)[[:space:]][[:space:]]*tageval_[a-z0-9_]*' |
		sed 's/^[a-z]*[[:space:]]*//'
	printf '%s\n' "$t" | grep -o 'TAGEVAL_[A-Z0-9_]*' | grep -v '^TAGEVAL_H$' || :
} | sort -u)
[ -n "$names" ] || { echo "no public name found in $header" >&2; exit 1; }
missing=0 total=0
for n in $names; do
	total=$((total + 1))
	# scdoc escapes: "tageval\_x" is not used for names, but \* is; a name
	# counts when it appears as a whole word
	if ! grep -q "\\(^\\|[^A-Za-z0-9_]\\)$n\\([^A-Za-z0-9_]\\|\$\\)" "$page"; then
		echo "missing from $(basename "$page"): $n"
		missing=$((missing + 1))
	fi
done
echo "$total public names of $(basename "$header"), $missing missing from $(basename "$page")"
[ "$missing" -eq 0 ]
