#!/bin/bash
# Solver benchmark: dfpn-solve-state on nine endgame.tst positions (six
# solved in seconds, three hard), one fresh engine each, printing the answer
# and the solver's nodes and time. With ALL=1, on all 40 of the file's
# positions (the side its genmove asks for), and how many were solved.
#
#   scripts/solve-endgames.sh [BINARY] [MAX_SECONDS] [HTP_SETUP_LINE...]
#   scripts/solve-endgames.sh target/release/ferrohex 30 "param_dfpn incremental 0"
#   ALL=1 scripts/solve-endgames.sh target/release/ferrohex 10
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-$here/target/release/ferrohex}")
t=${2:-30}
shift $(($# < 2 ? $# : 2))
cd "$here/../shared/regress"
specs="close-endgame02:black close-endgame07:black close-endgame12:black
    random-endgame07:black random-endgame09:white random-endgame10:white
    random-endgame06a:white close-endgame03:white random-endgame15:black"
if [ "${ALL:-0}" = 1 ]; then
    specs=$(awk '/^loadsgf sgf\/endgame\// { f = $2; sub(/.*\//, "", f); sub(/\.sgf$/, "", f) }
        / genmove / { print f ":" $3 }' endgame.tst)
fi
solved=0
total=0
for spec in $specs; do
    f=${spec%%:*}
    c=${spec##*:}
    out=$({
        echo "loadsgf sgf/endgame/$f.sgf"
        echo "param_dfpn max_time $t"
        for s in "$@"; do echo "$s"; done
        echo "dfpn-solve-state $c"
    } | "$bin" --log info 2>&1)
    res=$(echo "$out" | grep "^= [a-z]" | tail -1)
    line=$(echo "$out" | grep "engine\] solver:" | tail -1 | sed 's/.*solver: //')
    echo "$f $c $res | $line"
    total=$((total + 1))
    case $res in "= black" | "= white") solved=$((solved + 1)) ;; esac
done
echo "solved $solved of $total"
