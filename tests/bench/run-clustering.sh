#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# run-clustering.sh BUILDDIR - times ari, nmi and bcubed (reference-wsi2013.md)
# on three synthetic data sets, next to wc -l on the same files:
#
#   crisp   1,000,000 instances, one bare label per line (gen-wsi's data set:
#           100 words of 10,000 instances, 10 senses, 50 clusters, each line
#           cut to its first label): ari, nmi (NMI and AMI, per word and
#           pooled) and bcubed (item-averaged), the three one after the
#           other, and all of them from one run (ari --metrics=all).
#           Targets: under 0.5 s together, peak RSS under twice the input
#           (gold + clusters bytes).
#   graded  1,000,000 graded instances in 10,000 words of 100 (the
#           SemEval-2013 shape: 5 senses, 30% of the gold lines with two
#           rated senses, 40% of the system lines with two weighted clusters
#           of 8): fuzzy B-cubed and fuzzy NMI.  Target: under 1 s each.
#           Then the same 1,000,000 instances in words of 200, 400 and 1,000
#           instances, to show the per-word cost (fuzzy B-cubed: n log n
#           plus the square of the word's distinct (gold, system) membership
#           profiles; fuzzy NMI linear), and 100 words of 1,000 instances
#           whose profiles are all distinct (the quadratic worst case).
#   ami     one word of 100,000 instances, 20 senses and 1,000 clusters: nmi
#           (its AMI), and scikit-learn's adjusted_mutual_info_score on the
#           same labels.  Target: under 1 s.
#
# Environment:
#   BENCH_DIR        write the data sets there and keep them (default: a
#                    temporary directory, removed at exit)
#   BENCH_PYTHON     the Python with scikit-learn (default /usr/bin/python3,
#                    Debian's python3-sklearn); BENCH_SKLEARN=0 skips it
# Times are the best of BENCH_RUNS (default 3) runs, with /usr/bin/time's
# user time and peak RSS.  Exit status: 0 (whether or not the targets are
# met), 1 if a tool fails, 2 on a usage error.

set -u
if [ $# -ne 1 ] || [ ! -x "$1/tools/ari" ]; then
	echo "usage: $0 BUILDDIR (a build with tools/ari and tests/bench/gen-wsi)" >&2
	exit 2
fi
build=$(cd "$1" && pwd)
runs=${BENCH_RUNS:-3}
python=${BENCH_PYTHON:-/usr/bin/python3}
if [ -n "${BENCH_DIR:-}" ]; then
	data=$BENCH_DIR
	mkdir -p "$data"
else
	data=$(mktemp -d "${TMPDIR:-/tmp}/tageval-bench-clustering.XXXXXX")
	trap 'rm -rf "$data"' EXIT
fi

# best of $runs: prints "wall user rss_kib"
timed() {
	local best="" line
	for _ in $(seq "$runs"); do
		line=$(/usr/bin/time -f '%e %U %M' "$@" 2>&1 >/dev/null | tail -1) || return 1
		if [ -z "$best" ] || awk -v a="${line%% *}" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then
			best=$line
		fi
	done
	echo "$best"
}

row() { # NAME CMD...
	local name=$1 r
	shift
	r=$(timed "$@") || { echo "$name: failed" >&2; exit 1; }
	read -r wall user rss <<<"$r"
	printf '  %-34s %7s s %7s s %8.1f MiB\n' "$name" "$wall" "$user" "$(echo "$rss / 1024" | bc -l)"
}

header() {
	printf '\n%s\n' "$1"
	local bytes=0
	for f in "$data/$2/gold" "$data/$2/clusters"; do
		printf '  %-10s %10s lines %11s bytes\n' "$(basename "$f")" "$(wc -l <"$f")" "$(wc -c <"$f")"
		bytes=$((bytes + $(wc -c <"$f")))
	done
	printf '  input %.1f MiB, twice: %.1f MiB\n' "$(echo "$bytes / 1048576" | bc -l)" \
		"$(echo "2 * $bytes / 1048576" | bc -l)"
	printf '  %-34s %9s %9s %12s\n' command wall user 'peak RSS'
}

graded() { # DIR INSTANCES_PER_WORD
	mkdir -p "$data/$1"
	awk -v n=1000000 -v per="$2" -v seed=1 -v gold="$data/$1/gold" -v sys="$data/$1/clusters" '
	BEGIN {
		srand(seed); words = int(n / per)
		for (w = 0; w < words; w++) {
			word = sprintf("w%05d.%s", w, (w % 2) ? "v" : "n")
			for (i = 1; i <= per; i++) {
				s = int(rand() * 5); line = word " " word "." i " s" s "/" (1 + int(rand() * 5))
				if (rand() < 0.3) line = line " s" ((s + 1) % 5) "/" (1 + int(rand() * 5))
				print line > gold
				if (rand() < 0.97) {
					c = (rand() < 0.7) ? s : int(rand() * 8)
					line = word " " word "." i " c" c "/" (1 + int(rand() * 9))
					if (rand() < 0.4) line = line " c" ((c + 3) % 8) "/" (1 + int(rand() * 9))
					print line > sys
				}
			}
		}
	}'
}

echo "tageval clustering benchmark: $build/tools/{ari,nmi,bcubed}"
echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"

# ------------------------------------------------------------------ crisp
gen=$build/tests/bench/gen-wsi
"$gen" "$data/wsi" >/dev/null || exit 1
mkdir -p "$data/crisp"
for f in gold clusters; do
	awk '{ sub(/\/.*/, "", $3); print $1, $2, $3 }' "$data/wsi/$f" >"$data/crisp/$f"
done
rm -rf "$data/wsi"
header "crisp: 1,000,000 instances, 100 words, one label per line" crisp
c=$data/crisp/clusters g=$data/crisp/gold
row "wc -l (reference)" wc -l "$c" "$g"
row "ari" "$build/tools/ari" "$c" "$g"
row "nmi (NMI, AMI)" "$build/tools/nmi" "$c" "$g"
row "bcubed" "$build/tools/bcubed" "$c" "$g"
row "ari --metrics=all (one run)" "$build/tools/ari" --metrics=all "$c" "$g"
row "ari, nmi, bcubed one after the other" sh -c '"$1/ari" "$2" "$3" && "$1/nmi" "$2" "$3" && "$1/bcubed" "$2" "$3"' sh "$build/tools" "$c" "$g"

# ----------------------------------------------------------------- graded
graded graded 100
header "graded: 1,000,000 instances in words of 100 (SemEval-2013 shape)" graded
c=$data/graded/clusters g=$data/graded/gold
row "wc -l (reference)" wc -l "$c" "$g"
row "bcubed (fuzzy B-cubed)" "$build/tools/bcubed" "$c" "$g"
row "nmi (fuzzy NMI)" "$build/tools/nmi" "$c" "$g"
printf '\n  per-word cost: the same 1,000,000 graded instances in larger words\n'
for per in 200 400 1000; do
	graded "graded$per" "$per"
	c=$data/graded$per/clusters g=$data/graded$per/gold
	row "bcubed, words of $per" "$build/tools/bcubed" "$c" "$g"
	row "nmi, words of $per" "$build/tools/nmi" "$c" "$g"
	rm -rf "${data:?}/graded$per"
done
# every instance a profile of its own: gold weights 1..1000 of two senses
mkdir -p "$data/distinct"
awk -v gold="$data/distinct/gold" -v sys="$data/distinct/clusters" 'BEGIN {
	for (w = 0; w < 100; w++)
		for (i = 1; i <= 1000; i++) {
			id = sprintf("d%03d.n d%03d.n.%d", w, w, i)
			print id " s" (i % 5) "/" i " s" ((i + 1) % 5) "/1000" > gold
			print id " c" (i % 8) "/1000 c" ((i + 3) % 8) "/" i > sys
		}
}'
c=$data/distinct/clusters g=$data/distinct/gold
row "bcubed, 100 words of 1000 distinct" "$build/tools/bcubed" "$c" "$g"
rm -rf "${data:?}/distinct"

# -------------------------------------------------------------------- ami
mkdir -p "$data/ami"
awk -v seed=1 -v gold="$data/ami/gold" -v sys="$data/ami/clusters" 'BEGIN {
	srand(seed)
	for (i = 1; i <= 100000; i++) {
		s = int(rand() * rand() * 20)
		c = (rand() < 0.5) ? s * 50 + int(rand() * 50) : int(rand() * 1000)
		print "big.n big.n." i " s" s > gold
		print "big.n big.n." i " c" c > sys
	}
}'
header "ami: one word of 100,000 instances, 20 senses, 1,000 clusters" ami
c=$data/ami/clusters g=$data/ami/gold
row "nmi (NMI and AMI)" "$build/tools/nmi" "$c" "$g"
"$build/tools/nmi" --format json "$c" "$g" |
	sed 's/.*"total":{[^}]*"ami":\([^,]*\),.*/  tageval AMI      \1/'
if [ "${BENCH_SKLEARN:-1}" != 0 ] && "$python" -c 'import sklearn' 2>/dev/null; then
	"$python" - "$c" "$g" <<'EOF'
import sys, time
from sklearn import metrics
import sklearn
c = [l.split()[2] for l in open(sys.argv[1])]
g = [l.split()[2] for l in open(sys.argv[2])]
t = time.perf_counter()
v = metrics.adjusted_mutual_info_score(g, c)
print("  scikit-learn %s AMI %.17g in %.2f s (the call alone, files read before)"
      % (sklearn.__version__, v, time.perf_counter() - t))
EOF
else
	echo "  scikit-learn: not available ($python)"
fi
exit 0
