#!/bin/bash
# Connection search speed on the 40 endgame.tst positions: each searched
# to depth 4 by one thread, with the solver and the verifier off, in a
# fresh engine; prints each position's depth, score, nodes and seconds,
# then the totals and the nodes a second.
#
#   scripts/endgame-speed.sh [BINARY] [DEPTH]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-$here/target/release/ferrohex}")
depth=${2:-4}
cd "$here/../shared/regress"
specs=$(awk '/^loadsgf sgf\/endgame\// { f = $2; sub(/.*\//, "", f); sub(/\.sgf$/, "", f) }
    / genmove / { print f ":" $3 }' endgame.tst)
for spec in $specs; do
    f=${spec%%:*}
    c=${spec##*:}
    line=$(printf '%s\n' "loadsgf sgf/endgame/$f.sgf" "param_dfpn genmove_empty 0" \
        "param_dfpn verify_empty 0" "param_ferrohex max_depth $depth" "genmove $c" |
        "$bin" --threads 1 --max-time 600 --log info 2>&1 | grep "engine\] genmove" | tail -1)
    # "... (depth 4, score -126, 2975 nodes, 0.852 s)"
    echo "$f $c $(echo "$line" | sed -E 's/.*\(depth ([0-9]+), score (-?[0-9]+), ([0-9]+) nodes, ([0-9.]+) s\).*/depth \1 score \2 nodes \3 time \4/')"
done | awk '{ print; n += $8; t += $10 } END { printf "total %d nodes in %.2f s: %.0f nodes a second\n", n, t, n / t }'
