#!/bin/bash
# Where a node of the connection search spends its time: `perf record` on
# two fixed searches (one thread, no solver), the samples grouped by the
# part of the engine their function belongs to. Needs perf and python3.
#
#   scripts/node-shares.sh [BINARY]
#
# Workloads: 11x11 after `f6 e7 d9` to depth 6 (a middle game), and the
# 40 endgame.tst positions each to depth 4.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-$here/target/release/ferrohex}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
quiet='param_dfpn genmove_empty 0
param_dfpn verify_empty 0'

printf 'boardsize 11\nplay b f6\nplay w e7\nplay b d9\n%s\nparam_ferrohex max_depth 6\ngenmove w\n' \
    "$quiet" > "$tmp/middle.htp"
perf record -q -F 999 -o "$tmp/middle.data" \
    "$bin" --threads 1 --max-time 600 < "$tmp/middle.htp" > /dev/null 2>&1

cd "$here/../shared/regress"
awk '/^loadsgf sgf\/endgame\// { f = $2 } / genmove / { print f, $3 }' endgame.tst |
    while read -r f c; do
        printf 'loadsgf %s\n%s\nparam_ferrohex max_depth 4\ngenmove %s\n' "$f" "$quiet" "$c"
        echo clear_board
    done > "$tmp/endgame.htp"
perf record -q -F 999 -o "$tmp/endgame.data" \
    "$bin" --threads 1 --max-time 600 < "$tmp/endgame.htp" > /dev/null 2>&1

for w in middle endgame; do
    perf report -q -i "$tmp/$w.data" --no-children --sort symbol 2> /dev/null |
        python3 -c '
import re, sys, collections
parts = collections.Counter()
for line in sys.stdin:
    m = re.match(r"\s*([\d.]+)%\s+\[(.)\]\s+(.*)", line)
    if not m:
        continue
    share, where, sym = float(m.group(1)), m.group(2), m.group(3)
    if "for_each_link" in sym or "knowledge::circuit" in sym:
        part = "resistance"
    elif "knowledge::vc" in sym:
        part = "connections"
    elif "knowledge::ice" in sym or "Bits<B>::live" in sym:
        part = "inferior cells"
    elif "ferrohex::search" in sym:
        part = "the search itself"
    elif where == "k":
        part = "the kernel"
    else:
        part = "the rest"
    parts[part] += share
print(sys.argv[1] + ": " + ", ".join(f"{p} {v:.0f}%" for p, v in parts.most_common()))
' "$w"
done
