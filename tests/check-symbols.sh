#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The shared library's exported symbols are exactly those its version script
# lists, each under the version node the script gives it; the script has no
# wildcard; the symbols listed are exactly those the public header declares
# with TAGEVAL_EXPORT; no private tv_ symbol (or any other unprefixed one) is
# exported.
# usage: check-symbols.sh LIBRARY MAPFILE HEADER
lib=$1
map=$2
header=$3
[ -n "$lib" ] && [ -n "$map" ] && [ -n "$header" ] ||
	{ echo "usage: check-symbols.sh LIBRARY MAPFILE HEADER"; exit 2; }
command -v nm >/dev/null 2>&1 || { echo "nm not found"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0

# "name version" for each defined dynamic symbol (the version nodes
# themselves are absolute symbols, type A: not functions, left out).
nm -D --with-symbol-versions --defined-only "$lib" >"$tmp/nm" || exit 1
awk '$2 != "A" {
	n = $3; v = ""
	i = index(n, "@")
	if (i) { v = substr(n, i); sub(/^@+/, "", v); n = substr(n, 1, i - 1) }
	print n, (v == "" ? "(none)" : v)
}' "$tmp/nm" | LC_ALL=C sort >"$tmp/exported"
[ -s "$tmp/exported" ] || { echo "no exported symbols in $lib"; exit 1; }

# "name version" for each name in a global: section of the map.  Comments
# (/* */, possibly over several lines) are dropped first.
awk '
{ line = line $0 "\n" }
END {
	while ((i = index(line, "/*")) > 0) {
		rest = substr(line, i + 2)
		j = index(rest, "*/")
		if (j == 0) { print "ERROR unterminated comment"; exit }
		line = substr(line, 1, i - 1) " " substr(rest, j + 2)
	}
	gsub(/[{};:]/, " & ", line)
	n = split(line, tok, /[ \t\n]+/)
	node = ""; scope = ""
	for (k = 1; k <= n; k++) {
		t = tok[k]
		if (t == "") continue
		if (t == "{") { scope = ""; continue }
		if (t == "}") { node = ""; scope = ""; k++; while (k <= n && tok[k] != ";") k++; continue }
		if (node == "") { node = t; continue }
		if (t == "global" || t == "local") { scope = t; k++; continue }
		if (t == ";") continue
		if (scope == "global") print t, node
		else if (scope == "local" && t != "*") print "ERROR local name " t
	}
}' "$map" | LC_ALL=C sort >"$tmp/listed"
if grep '^ERROR' "$tmp/listed"; then status=1; fi
if grep '[*?[]' "$tmp/listed" | grep -v '^ERROR'; then
	echo "wildcard in $map: list each symbol by name"
	status=1
fi
grep -v '^ERROR' "$tmp/listed" >"$tmp/listed.ok"
mv "$tmp/listed.ok" "$tmp/listed"
[ -s "$tmp/listed" ] || { echo "no symbols listed in $map"; exit 1; }
dup=$(cut -d' ' -f1 "$tmp/listed" | uniq -d)
if [ -n "$dup" ]; then
	echo "listed more than once in $map:"
	printf '  %s\n' $dup
	status=1
fi

extra=$(LC_ALL=C comm -23 "$tmp/exported" "$tmp/listed")
if [ -n "$extra" ]; then
	echo "exported but not listed in $map under that version (name version):"
	printf '%s\n' "$extra" | sed 's/^/  /'
	status=1
fi
missing=$(LC_ALL=C comm -13 "$tmp/exported" "$tmp/listed")
if [ -n "$missing" ]; then
	echo "listed in $map but not exported under that version (name version):"
	printf '%s\n' "$missing" | sed 's/^/  /'
	status=1
fi

bad=$(cut -d' ' -f1 "$tmp/exported" | grep -v '^tageval_')
if [ -n "$bad" ]; then
	echo "exported without the tageval_ prefix (tv_ is private):"
	printf '  %s\n' $bad
	status=1
fi

# The names the header declares with TAGEVAL_EXPORT: comments and
# preprocessor lines dropped, the text cut at each ';', and in each piece
# with TAGEVAL_EXPORT the identifier just before the first '(' after it.
awk '
/^[ \t]*#/ { next }
{ text = text $0 "\n" }
END {
	while ((i = index(text, "/*")) > 0) {
		rest = substr(text, i + 2)
		j = index(rest, "*/")
		if (j == 0) break
		text = substr(text, 1, i - 1) " " substr(rest, j + 2)
	}
	n = split(text, piece, ";")
	for (k = 1; k <= n; k++) {
		i = index(piece[k], "TAGEVAL_EXPORT")
		if (i == 0) continue
		d = substr(piece[k], i + 14)
		j = index(d, "(")
		if (j == 0) continue
		d = substr(d, 1, j - 1)
		if (match(d, /[A-Za-z_][A-Za-z0-9_]*[ \t\n]*$/)) {
			d = substr(d, RSTART, RLENGTH)
			gsub(/[ \t\n]/, "", d)
			print d
		}
	}
}' "$header" | LC_ALL=C sort -u >"$tmp/declared"
undeclared=$(cut -d' ' -f1 "$tmp/listed" | LC_ALL=C sort -u | LC_ALL=C comm -23 - "$tmp/declared")
if [ -n "$undeclared" ]; then
	echo "listed in $map but not declared TAGEVAL_EXPORT in $header:"
	printf '  %s\n' $undeclared
	status=1
fi
unlisted=$(cut -d' ' -f1 "$tmp/listed" | LC_ALL=C sort -u | LC_ALL=C comm -13 - "$tmp/declared")
if [ -n "$unlisted" ]; then
	echo "declared TAGEVAL_EXPORT in $header but not listed in $map:"
	printf '  %s\n' $unlisted
	status=1
fi

[ "$status" -eq 0 ] &&
	echo "$(wc -l <"$tmp/exported") symbols exported, exactly those of $map, each declared in $header"
exit "$status"
