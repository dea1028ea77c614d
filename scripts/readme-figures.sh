#!/bin/bash
# Re-measures the figures of the README's "How strong and fast it is" table
# and prints each as a table row (what | now | command), to paste over the
# old row. Run from anywhere; the matches need the reference engines:
#
#   A=$(../shared/anchors/setup.sh) scripts/readme-figures.sh [ROW...]
#
# Rows: bench connsearch endspeed endgame opening dfpn6 dfpn7 solver (minutes each)
# and wolve11 wolve11max mohex11 mohex11max wolve9 mohex9 wolve13 mohex13 swap levels (matches, 10-40 minutes each).
# With no ROW, the quick ones (bench connsearch opening dfpn6).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
bin="$here/target/release/ferrohex"
shared="$here/../shared"
A=${A:-$HOME/.cache/hex-anchors}
cargo build --release --quiet --manifest-path "$here/Cargo.toml"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

row() { printf '| %s | %s | `%s` |\n' "$1" "$2" "$3"; }

# "N of M in S s" from a regress run's summary line and its wall time.
regress() {
    local what=$1 shown=$2
    shift 2
    local t0=$SECONDS
    "$bin" regress "$@" > "$tmp/regress.out" 2>&1 || true
    local sum
    sum=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$tmp/regress.out" | tail -1)
    local pass=${sum%% passed*}
    local fail=${sum#*passed, }
    fail=${fail%% failed*}
    row "$what" "$pass of $((pass + fail)) in $((SECONDS - t0)) s" "$shown"
}

# Two engines' match summary: score, interval, Elo, mean/max time a move.
summary() {
    awk '
        /^engine +wins/ { table = 1; next }
        table && NF >= 7 && !first { first = $0; next }
        table && NF >= 7 && !second { second = $0; table = 0 }
        /^Elo difference/ { e = $0; sub(/.*\): /, "", e); sub(/ .*/, "", e); elo = e }
        / lost [0-9]+ by crash/ { crash = crash (crash ? ", " : "") $1 " lost " $3 " by crash" }
        END {
            n1 = split(first, a, " +"); n2 = split(second, b, " +")
            printf "%s %s-%s %s (%s %s); Elo %s; mean/max s a move: %s %s/%s, %s %s/%s%s\n",
                a[1], a[2], b[2], b[1], a[5], a[6] " " a[7], elo,
                a[1], a[n1 - 3], a[n1 - 1], b[1], b[n2 - 3], b[n2 - 1],
                crash ? "; " crash : ""
        }' "$1"
}

# A match over SEEDS (one run of GAMES games each), merged.
match() {
    local what=$1 shown=$2 seeds=$3 games=$4
    shift 4
    local files=()
    for s in $seeds; do
        "$bin" match "$@" --seed "$s" --games "$games" --results "$tmp/m-$s.jsonl" \
            > /dev/null 2>&1
        files+=("$tmp/m-$s.jsonl")
    done
    "$bin" match --summarize "${files[@]}" > "$tmp/summary.txt" 2>&1
    row "$what" "$(summary "$tmp/summary.txt")" "$shown"
}

ferrohex1="$bin --max-time 1"
wolve="$A/benzene/wolve --quiet --use-logfile 0"
mohex="$A/benzene/mohex --quiet --use-logfile 0"
rows=${*:-bench connsearch opening dfpn6}
for r in $rows; do
    case $r in
    bench)
        "$bin" bench > "$tmp/bench.out" 2>&1
        nps=$(awk '/^search, 1 thread/ { one = 1 } one && /total/ { print $(NF - 1); exit }' "$tmp/bench.out")
        sig=$(awk '/^signature/ { print $NF }' "$tmp/bench.out")
        row "bench: the six positions to depth 4, 1 thread" "$nps nodes a second; signature $sig (pinned by a test)" "ferrohex bench"
        ;;
    connsearch)
        printf 'boardsize 11\nplay b f6\nplay w e7\nplay b d9\nparam_ferrohex max_depth 5\ngenmove w\n' |
            "$bin" --threads 1 --max-time 60 --log info > /dev/null 2> "$tmp/conn.err"
        line=$(grep 'connection search: depth' "$tmp/conn.err" | tail -1)
        depth=$(sed -E 's/.*depth ([0-9]+).*/\1/' <<< "$line")
        nodes=$(sed -E 's/.*nodes ([0-9]+).*/\1/' <<< "$line")
        secs=$(sed -E 's/.*time ([0-9.]+)s.*/\1/' <<< "$line")
        nps=$(awk -v n="$nodes" -v t="$secs" 'BEGIN { printf "%d", n / t }')
        row "connection search, 11x11 after f6 e7 d9, 1 thread" "$nps nodes a second (depth $depth, $nodes nodes in $secs s)" \
            "printf 'boardsize 11\\\\nplay b f6\\\\nplay w e7\\\\nplay b d9\\\\nparam_ferrohex max_depth 5\\\\ngenmove w\\\\n' | ferrohex --threads 1 --max-time 60 --log info"
        ;;
    endspeed)
        out=$("$here/scripts/endgame-speed.sh" "$bin" 2>&1 | tail -1)
        row "connection search on the 40 endgame.tst positions, depth 4, 1 thread, no solver" "$out" "scripts/endgame-speed.sh target/release/ferrohex"
        ;;
    endgame)
        regress "../shared/regress/endgame.tst, 10 s a move" "ferrohex regress --max-time 10 --timeout 60 ../shared/regress/endgame.tst" \
            --max-time 10 --timeout 60 "$shared/regress/endgame.tst"
        ;;
    opening)
        regress "../shared/regress/opening.tst, 10 s a move" "ferrohex regress --max-time 10 ../shared/regress/opening.tst" \
            --max-time 10 "$shared/regress/opening.tst"
        ;;
    dfpn6)
        regress "../shared/regress/dfpn-solve-6x6.tst" "ferrohex regress ../shared/regress/dfpn-solve-6x6.tst" \
            "$shared/regress/dfpn-solve-6x6.tst"
        ;;
    dfpn7)
        regress "../shared/regress/dfpn-solve-7x7.tst" "ferrohex regress --timeout 900 ../shared/regress/dfpn-solve-7x7.tst" \
            --timeout 900 "$shared/regress/dfpn-solve-7x7.tst"
        ;;
    solver)
        out=$(ALL=1 "$here/scripts/solve-endgames.sh" "$bin" 10 2>&1 | tail -1)
        row "solver on the 40 endgame.tst positions, 10 s each" "$out" "ALL=1 scripts/solve-endgames.sh target/release/ferrohex 10"
        ;;
    wolve11)
        match "against Wolve 2.0, 11x11, 1 s a move, 120 games (seeds 10 to 15)" \
            "ferrohex match \"target/release/ferrohex --max-time 1\" \"\$A/benzene/wolve --quiet --use-logfile 0\" --setup2 \"param_wolve max_time 1\" --size 11 --openings ../shared/openings/11x11-all-1ply --seed 10 --games 20 --timeout 6 (and --seed 11 to 15)" \
            "10 11 12 13 14 15" 20 "$ferrohex1" "$wolve" --setup2 "param_wolve max_time 1" --size 11 \
            --openings "$shared/openings/11x11-all-1ply" --timeout 6
        ;;
    wolve11max)
        match "level max against Wolve 2.0, 11x11, 1 s a move, 40 games (seeds 10 and 11)" \
            "the Wolve command with --setup1 \"param_ferrohex level max\" (seeds 10 and 11)" \
            "10 11" 20 "$ferrohex1" "$wolve" --setup1 "param_ferrohex level max" --setup2 "param_wolve max_time 1" \
            --size 11 --openings "$shared/openings/11x11-all-1ply" --timeout 5
        ;;
    mohex11max)
        match "level max against MoHex 2.0 (2 threads), 11x11, 1 s a move, 40 games (seeds 12 and 13)" \
            "the MoHex command with --setup1 \"param_ferrohex level max\" (seeds 12 and 13)" \
            "12 13" 20 "$ferrohex1" "$mohex" --setup1 "param_ferrohex level max" \
            --setup2 "param_mohex max_time 1;param_mohex num_threads 2" --size 11 \
            --openings "$shared/openings/11x11-all-1ply" --timeout 6
        ;;
    mohex11)
        match "against MoHex 2.0 (2 threads), 11x11, 1 s a move, 60 games (seeds 12, 13 and 14)" \
            "the Wolve command with \"\$A/benzene/mohex --quiet --use-logfile 0\" --setup2 \"param_mohex max_time 1;param_mohex num_threads 2\" --seed 12 --games 20 --timeout 6 (and --seed 13, --seed 14)" \
            "12 13 14" 20 "$ferrohex1" "$mohex" --setup2 "param_mohex max_time 1;param_mohex num_threads 2" --size 11 \
            --openings "$shared/openings/11x11-all-1ply" --timeout 6
        ;;
    wolve9)
        match "against Wolve 2.0, 9x9, 1 s a move, 40 games (seeds 7 and 9)" \
            "the Wolve command with --size 9 --openings ../shared/openings/9x9-all-1ply --seed 7 (and --seed 9)" \
            "7 9" 20 "$ferrohex1" "$wolve" --setup2 "param_wolve max_time 1" --size 9 \
            --openings "$shared/openings/9x9-all-1ply" --timeout 6
        ;;
    mohex9)
        match "against MoHex 2.0 (2 threads), 9x9, 1 s a move, 40 games (seeds 8 and 9)" \
            "the MoHex command with --size 9 --openings ../shared/openings/9x9-all-1ply --seed 8 --timeout 6 (and --seed 9)" \
            "8 9" 20 "$ferrohex1" "$mohex" --setup2 "param_mohex max_time 1;param_mohex num_threads 2" --size 9 \
            --openings "$shared/openings/9x9-all-1ply" --timeout 6
        ;;
    wolve13)
        match "against Wolve 2.0, 13x13, 1 s a move, 40 games (seeds 8 and 9)" \
            "the Wolve command with --size 13 --openings ../shared/openings/13x13-half-1ply --seed 8 --timeout 6 (and --seed 9)" \
            "8 9" 20 "$ferrohex1" "$wolve" --setup2 "param_wolve max_time 1" --size 13 \
            --openings "$shared/openings/13x13-half-1ply" --timeout 6
        ;;
    mohex13)
        match "against MoHex 2.0 (2 threads), 13x13, 1 s a move, 40 games (seeds 10 and 11)" \
            "the MoHex command with --size 13 --openings ../shared/openings/13x13-half-1ply --seed 10 --timeout 6 (and --seed 11)" \
            "10 11" 20 "$ferrohex1" "$mohex" --setup2 "param_mohex max_time 1;param_mohex num_threads 2" --size 13 \
            --openings "$shared/openings/13x13-half-1ply" --timeout 6
        ;;
    swap)
        match "against Wolve 2.0, 11x11, 1 s a move, swap rule, 10 games from the empty board" \
            "ferrohex match \"target/release/ferrohex --max-time 1\" \"\$A/benzene/wolve --quiet --use-logfile 0\" --setup \"param_game allow_swap 1\" --setup2 \"param_wolve max_time 1\" --swap --size 11 --games 10 --timeout 6" \
            "1" 10 "$ferrohex1" "$wolve" --setup "param_game allow_swap 1" --setup2 "param_wolve max_time 1" \
            --swap --size 11 --timeout 6
        ;;
    levels)
        # Each pair of levels, 20 games on 11x11 at 0.5 s a move, one thread each
        # (on 9x9 the solver plays from the first move and hides the levels).
        scores=()
        for pair in "easy medium" "medium hard" "medium max" "hard max"; do
            set -- $pair
            "$bin" match "$bin --level $1 --max-time 0.5 --threads 1" "$bin --level $2 --max-time 0.5 --threads 1" \
                --name1 "$1" --name2 "$2" --size 11 --openings "$shared/openings/11x11-all-1ply" --seed 3 \
                --games 20 --jobs 2 --timeout 3 > "$tmp/levels.txt" 2>&1
            scores+=("$(awk -v a="$1" -v b="$2" '$1 == a && $2 ~ /^[0-9]+$/ { x = $2 } $1 == b && $2 ~ /^[0-9]+$/ { y = $2 } END { print a " " x "-" y " " b }' "$tmp/levels.txt")")
        done
        row "levels round-robin, 11x11, 0.5 s a move, one thread, 20 games a pair" "$(IFS=';'; echo "${scores[*]}" | sed 's/;/; /g')" \
            "ferrohex match \"ferrohex --level A --max-time 0.5 --threads 1\" \"ferrohex --level B --max-time 0.5 --threads 1\" --size 11 --openings ../shared/openings/11x11-all-1ply --seed 3 --games 20 --jobs 2 --timeout 3"
        ;;
    *)
        echo "unknown row: $r" >&2
        exit 2
        ;;
    esac
done
