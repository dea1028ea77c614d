#!/usr/bin/env python3
"""Where a player's lost games were lost, by the solver: the last of its moves
after which the position is proved lost.

For each SGF game (`ferrohex match --sgf-dir`) that PLAYER (a substring of
the PB/PW name, ferrohex by default) lost, the positions with PLAYER to move
are solved from the end of the game backwards (`dfpn-solve-state`, --time
seconds each) until one is not proved lost: PLAYER's move there is the
latest that turned the game, when the solver proves the position after it
lost. A proved win before it makes that move a proved mistake; an open
position ("unknown") means the game may have been lost earlier, beyond the
solver's reach in that time. A short search's value (MoHex's at 1 s, say)
does not locate these moves: it often stays near 0.5 several moves into a
lost position.

    scripts/losing-moves.py --time 10 games/*.sgf
    scripts/losing-moves.py --engine "target/release/ferrohex --threads 1" \\
        --second "target/release/ferrohex --max-time 10" games/*.sgf

With --second, that engine's move in each turning position is shown beside
the one played, and whether the solver proves it lost too. Needs python3
and an engine answering dfpn-solve-state; no other packages.
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from judge import Engine, game_name, sgf_moves  # noqa: E402


def solve(engine, size, moves, color):
    """The winner ("b", "w") df-pn proves with `color` to move, or None."""
    engine.position(size, moves)
    w = engine.cmd("dfpn-solve-state " + color).lower()
    return {"black": "b", "white": "w"}.get(w)


def other(c):
    return "w" if c == "b" else "b"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--engine", default="target/release/ferrohex --threads 1",
                   help="an engine answering dfpn-solve-state")
    p.add_argument("--time", type=float, default=10.0, help="seconds a solve")
    p.add_argument("--player", default="ferrohex", help="whose lost games (a PB/PW substring)")
    p.add_argument("--second", help="an engine to ask for its own move in each turning position")
    p.add_argument("sgf", nargs="+")
    a = p.parse_args()
    setup = "param_dfpn max_time %g" % a.time
    solver = Engine(a.engine, setup)
    second = Engine(a.second) if a.second else None
    for path in a.sgf:
        text = open(path).read()
        size, moves = sgf_moves(path)
        names = {c: (re.search(r"P%s\[([^\]]*)\]" % c.upper(), text) or [None, ""])[1]
                 for c in "bw"}
        mine = [c for c in "bw" if a.player.lower() in names[c].lower()]
        result = re.search(r"RE\[([BW])\+", text)
        if len(mine) != 1 or not result:
            continue
        me = mine[0]
        if result.group(1).lower() == me:
            continue
        name = game_name(path)
        plies = [k for k in range(len(moves)) if moves[k][0] == me]
        turning, before, failed = None, None, False
        for k in reversed(plies):
            try:
                w = solve(solver, size, moves[:k], me)
            except RuntimeError as x:
                print("%s: solver failed at ply %d: %s" % (name, k, x), file=sys.stderr)
                solver.close()
                solver = Engine(a.engine, setup)
                failed = True
                break
            if w == other(me):
                continue
            turning, before = k, w
            break
        if failed:
            continue
        if turning is None:
            print("%s: lost from the first move %s played (every position proved lost)"
                  % (name, names[me]))
            continue
        verdicts = {other(me): "lost", me: "won", None: "open"}
        try:
            after = solve(solver, size, moves[:turning + 1], other(me))
            line = "%s: %s (%s) ply %d %s; before it %s, after it %s" % (
                name, names[me], me, turning, moves[turning][1],
                verdicts[before], verdicts[after])
            if second:
                second.position(size, moves[:turning])
                m = second.cmd("genmove " + me).lower()
                if re.fullmatch(r"[a-z]+[0-9]+", m):
                    verdict = solve(solver, size, moves[:turning] + [[me, m]], other(me))
                    line += "; --second plays %s (%s)" % (m, verdicts[verdict])
                else:
                    line += "; --second answers %s" % m
        except RuntimeError as x:
            print("%s: an engine failed at ply %d: %s" % (name, turning, x), file=sys.stderr)
            solver.close()
            solver = Engine(a.engine, setup)
            if second:
                second.close()
                second = Engine(a.second)
            continue
        print(line, flush=True)
    solver.close()
    if second:
        second.close()


if __name__ == "__main__":
    main()
