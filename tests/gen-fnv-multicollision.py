#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes a scorer2 key and answers file whose N instance ids all had one
hash under the interning hash tageval used before issue 17: 32-bit FNV-1a
over the id "LEXELT INSTANCE", then MurmurHash3's fmix32.  fmix32 is a
bijection, so ids that collide in FNV-1a's state collide after it too, and
every one of them went into the same probe chain: reading N ids cost N^2/2
string comparisons.  With --random, ids of the same length drawn at random
instead, for comparison.

usage: gen-fnv-multicollision.py [--random] [--seed S] [--lexelt L] N DIR

The attack (Joux's multicollisions, 2004, on FNV-1a's 32-bit state):
  - FNV-1a is iterated, h = (h ^ byte) * 16777619 mod 2^32, so two blocks
    that lead from one state to one state can be swapped anywhere after it;
    k stages of two such blocks each give 2^k ids of 4k characters with one
    final state.
  - A stage needs two 4-byte blocks with one result.  After 3 bytes, two
    states s and s' that differ only in their low 8 bits are enough: the
    4th bytes c and c' with c ^ c' = s ^ s' make (s ^ c) = (s' ^ c'), hence
    the same state after the multiplication.  Finding s and s' is a
    birthday search on their top 24 bits: about 5,000 blocks, not the
    80,000 of a full 32-bit collision.
The script checks every id it writes against the old hash (the hash of the
first id, for all of them) and fails otherwise.

Files (LC_ALL=C, one line each, instance i = 0 .. N-1 in the order made):
  DIR/key      "L ID_i s(i mod 3)"
  DIR/answers  the instances with i mod 16 != 15, in reverse order, each
               with its key tag, except i mod 4 == 3: the tag "s9", wrong.
For N a multiple of 16 (checked by hand): answered 15N/16; wrong among them
the i mod 16 in {3, 7, 11}, 3N/16; correct 12N/16.  So precision 12/15 =
0.8, recall 12/16 = 0.75 and 93.75 % attempted, whatever the ids.
"""

import random
import sys

FNV_OFFSET = 2166136261
FNV_PRIME = 16777619
MASK = 0xFFFFFFFF
# the characters of the ids: letters and digits; every 4th byte of a stage
# and its partner are both among them
ALPHABET = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def fnv1a(h, data):
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & MASK
    return h


def fmix32(h):
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & MASK
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & MASK
    h ^= h >> 16
    return h


def old_hash(s):
    """tv_hash() before issue 17 (lib/tageval-intern.c)."""
    return fmix32(fnv1a(FNV_OFFSET, s))


def stage(h, rng):
    """Two different 4-byte blocks that both lead from state h to one state."""
    seen = {}
    alpha = set(ALPHABET)
    while True:
        block = bytes(rng.choices(ALPHABET, k=3))
        s = fnv1a(h, block)
        other = seen.get(s >> 8)
        if other is None:
            seen[s >> 8] = (block, s)
            continue
        oblock, os_ = other
        if oblock == block:
            continue
        d = s ^ os_  # < 256: the top 24 bits are equal
        for c in ALPHABET:
            if c ^ d in alpha:
                a = block + bytes([c])
                b = oblock + bytes([c ^ d])
                ha, hb = fnv1a(h, a), fnv1a(h, b)
                if ha != hb:
                    raise AssertionError("stage blocks do not collide")
                return a, b, ha
        # no 4th byte in the alphabet fits this d: keep searching


def multicollision_ids(prefix, n, rng):
    k = max(1, (n - 1).bit_length())
    h = fnv1a(FNV_OFFSET, prefix)
    pairs = []
    for _ in range(k):
        a, b, h = stage(h, rng)
        pairs.append((a, b))
    ids = []
    for i in range(n):
        ids.append(b"".join(pairs[j][(i >> j) & 1] for j in range(k)))
    return ids


def random_ids(length, n, rng):
    ids, seen = [], set()
    while len(ids) < n:
        s = bytes(rng.choices(ALPHABET, k=length))
        if s not in seen:
            seen.add(s)
            ids.append(s)
    return ids


def usage():
    sys.stderr.write("usage: gen-fnv-multicollision.py [--random] [--seed S] "
                     "[--lexelt L] N DIR\n")
    sys.exit(2)


def main(argv):
    rand, seed, lexelt = False, 1, b"w.n"
    args = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--random":
            rand = True
        elif a in ("--seed", "--lexelt") and i + 1 < len(argv):
            i += 1
            if a == "--seed":
                if not argv[i].isdigit():
                    usage()
                seed = int(argv[i])
            else:
                lexelt = argv[i].encode()
                if not lexelt or any(c in lexelt for c in b" \t\r\n!"):
                    usage()
        elif a.startswith("-") and a != "-":
            usage()
        else:
            args.append(a)
        i += 1
    if len(args) != 2 or not args[0].isdigit() or int(args[0]) < 2:
        usage()
    n, out = int(args[0]), args[1]
    rng = random.Random(seed)
    prefix = lexelt + b" "
    if rand:
        # as long as the multicollision ids: k = ceil(log2 N) blocks of 4
        ids = random_ids(4 * max(1, (n - 1).bit_length()), n, rng)
    else:
        ids = multicollision_ids(prefix, n, rng)
        want = old_hash(prefix + ids[0])
        if len(set(ids)) != n or any(old_hash(prefix + s) != want for s in ids):
            sys.stderr.write("gen-fnv-multicollision.py: the ids do not collide\n")
            return 1
    tags = [b"s%d" % (i % 3) for i in range(n)]
    with open(out + "/key", "wb") as f:
        f.write(b"".join(b"%s %s %s\n" % (lexelt, ids[i], tags[i]) for i in range(n)))
    with open(out + "/answers", "wb") as f:
        f.write(b"".join(b"%s %s %s\n" % (lexelt, ids[i], b"s9" if i % 4 == 3 else tags[i])
                         for i in reversed(range(n)) if i % 16 != 15))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
