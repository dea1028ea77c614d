#!/usr/bin/env python3
"""MoHex as a judge of an engine's moves, a finer measure than a short match.

Positions are taken from the SGF files of games (`ferrohex match --sgf-dir`).
MoHex 2.0 (../shared/anchors) chooses its own move in each; an engine's move is
then judged by MoHex's win probability for the mover after it, against the same
after MoHex's own move: the difference is the move's regret. Lower mean regret
is better; reruns of one configuration differ by about 0.001-0.004.

    A=$(../shared/anchors/setup.sh)
    scripts/judge.py ref --out ref.jsonl games/*.sgf          # MoHex's moves
    scripts/judge.py play --ref ref.jsonl --out mine.txt \\
        --engine "target/release/ferrohex --max-time 1"        # the engine's
    scripts/judge.py prove --ref ref.jsonl                      # decided positions
    scripts/judge.py regret --ref ref.jsonl mine.txt other.txt  # the judgement

`ref` takes the plies 4, 9, ..., 39 of each game (`--plies` to choose); the
judged values are cached (`--cache`, judge-cache.json by default), so a second
configuration costs only the positions where its moves differ. `prove` marks
the positions ferrohex's solver decides in 2 s; `regret` leaves them out, and
those where MoHex values its own move under 0.05 or over 0.95 (`--band`;
`--decided` keeps them all): in a decided position MoHex's value is a guess,
and a move that hides the loss from its quick search looks good. Needs $A (the
anchors' folder) and python3; no other packages.
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import time


def sgf_moves(path):
    text = open(path).read()
    size = int(re.search(r"SZ\[(\d+)\]", text).group(1))
    moves = [("b" if c == "B" else "w", m) for c, m in re.findall(r";([BW])\[([^\]]*)\]", text)]
    return size, moves


def game_name(path):
    """A game's name in reports: its folder and file (matches name their games
    alike)."""
    return os.path.join(os.path.basename(os.path.dirname(os.path.abspath(path))),
                        os.path.basename(path))


class Engine:
    """An HTP engine on a pipe; its stderr goes to `err` (a path) or nowhere."""

    def __init__(self, cmd, setup="", err=None):
        self.cmd_line, self.setup_line, self.err = cmd, setup, err
        self.start()

    def start(self):
        stderr = open(self.err, "w") if self.err else subprocess.DEVNULL
        self.p = subprocess.Popen(self.cmd_line, shell=True, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=stderr, text=True, bufsize=1)
        for c in [x.strip() for x in self.setup_line.split(";") if x.strip()]:
            self.cmd(c)

    def cmd(self, c):
        self.p.stdin.write(c + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            line = self.p.stdout.readline()
            if line == "":
                raise RuntimeError("the engine died on " + c)
            line = line.rstrip("\n")
            if line == "":
                if lines:
                    break
                continue
            lines.append(line)
        answer = "\n".join(lines)
        if answer.startswith("?"):
            raise RuntimeError(c + " -> " + answer)
        return answer[1:].strip()

    def position(self, size, moves):
        self.cmd("boardsize %d" % size)
        self.cmd("clear_board")
        for color, m in moves:
            self.cmd("play %s %s" % (color, m))

    def close(self):
        try:
            self.cmd("quit")
        except (RuntimeError, OSError):
            pass


def mohex(anchors, seconds, err=None):
    setup = ("param_mohex max_time %g; param_mohex num_threads 2; "
             "param_mohex use_time_management 0; param_mohex reuse_subtree 0" % seconds)
    return Engine(os.path.join(anchors, "benzene", "mohex") + " --use-logfile 0"
                  + ("" if err else " --quiet"), setup, err)


def to_move(ply):
    return "b" if ply % 2 == 0 else "w"


def cmd_ref(a):
    plies = [int(x) for x in a.plies.split(",")]
    e = mohex(a.anchors, a.time)
    with open(a.out, "a") as out:
        for path in a.sgf:
            size, moves = sgf_moves(path)
            for ply in plies:
                if ply >= len(moves):
                    continue
                color = to_move(ply)
                try:
                    e.position(size, moves[:ply])
                    best = e.cmd("genmove " + color).lower()
                except RuntimeError as x:
                    # MoHex crashes in some decided positions: skip them.
                    print("skipped", path, ply, x, file=sys.stderr)
                    e = mohex(a.anchors, a.time)
                    continue
                game = game_name(path)
                rec = {"game": game, "ply": ply, "size": size,
                       "moves": moves[:ply], "color": color, "ref": best}
                out.write(json.dumps(rec) + "\n")
                out.flush()


def cmd_prove(a):
    """Marks the positions a solver decides: MoHex's value there is a guess
    (it gave 0.45 and 0.56 to two positions ferrohex's df-pn proves lost
    whatever the mover plays), and every move's regret in them is noise."""
    refs = [json.loads(line) for line in open(a.ref)]
    e = Engine(a.engine, "param_dfpn max_time %g" % a.time)
    for r in refs:
        if "winner" in r:
            continue
        try:
            e.position(r["size"], r["moves"])
            w = e.cmd("dfpn-solve-state " + r["color"]).lower()
        except RuntimeError as x:
            print("solver failed", r["game"], r["ply"], x, file=sys.stderr)
            e.close()
            e = Engine(a.engine, "param_dfpn max_time %g" % a.time)
            continue
        r["winner"] = {"black": "b", "white": "w"}.get(w)
    with open(a.ref + ".tmp", "w") as out:
        for r in refs:
            out.write(json.dumps(r) + "\n")
    os.replace(a.ref + ".tmp", a.ref)
    n = sum(1 for r in refs if r.get("winner"))
    print("%d of %d positions decided" % (n, len(refs)))


def cmd_play(a):
    refs = [json.loads(line) for line in open(a.ref)]
    e = Engine(a.engine, a.setup)
    with open(a.out, "w") as out:
        for r in refs:
            try:
                e.position(r["size"], r["moves"])
                t = time.time()
                m = e.cmd("genmove " + r["color"]).lower()
                dt = time.time() - t
            except RuntimeError as x:
                print("engine failed", r["game"], r["ply"], x, file=sys.stderr)
                e.close()
                e = Engine(a.engine, a.setup)
                m, dt = "none", 0.0
            out.write("%s %d %s ref %s got %s %.2f\n" % (r["game"], r["ply"], r["color"], r["ref"], m, dt))
            out.flush()
    e.close()


class Judge:
    """MoHex's value for the mover after a move, cached by position and move."""

    def __init__(self, a):
        self.a = a
        self.cache = json.load(open(a.cache)) if os.path.exists(a.cache) else {}
        self.err = a.cache + ".stderr"
        self.e = None

    def value(self, r, m):
        key = " ".join(c + x for c, x in r["moves"]) + " " + r["color"] + m
        if key in self.cache:
            return self.cache[key]
        if self.e is None:
            self.e = mohex(self.a.anchors, self.a.time, self.err)
        opp = "w" if r["color"] == "b" else "b"
        try:
            self.e.position(r["size"], r["moves"] + [[r["color"], m]])
            mark = os.path.getsize(self.err)
            self.e.cmd("genmove " + opp)
            text = open(self.err).read()[mark:]
            scores = re.findall(r"^Score\s+([0-9.]+)", text, re.M)
            if scores:
                s = float(scores[-1])
            elif "Winning" in text:
                s = 1.0
            elif re.search(r"Losing|resign", text):
                s = 0.0
            else:
                s = None
        except RuntimeError:
            self.e, s = None, None
        v = None if s is None else 1.0 - s
        self.cache[key] = v
        json.dump(self.cache, open(self.a.cache, "w"))
        return v


def cmd_regret(a):
    refs = {(r["game"], r["ply"]): r for r in map(json.loads, open(a.ref))}
    judge = Judge(a)
    for path in a.moves:
        bands = {}
        total, n, big, decided = 0.0, 0, 0, 0
        for line in open(path):
            f = line.split()
            r = refs[(f[0], int(f[1]))]
            if r.get("winner") and not a.decided:
                decided += 1
                continue
            band = "plies <10" if r["ply"] < 10 else ("plies 10-23" if r["ply"] < 24 else "plies 24+")
            vr = judge.value(r, f[4])
            if vr is None:
                continue
            if not a.decided and not a.band < vr < 1.0 - a.band:
                # MoHex's own move wins or loses: decided, as far as it sees.
                decided += 1
                continue
            if f[4] == f[6]:
                d = 0.0
            else:
                vm = judge.value(r, f[6])
                if vm is None:
                    continue
                d = vr - vm
            total, n, big = total + d, n + 1, big + (d > 0.1)
            s = bands.setdefault(band, [0.0, 0])
            s[0] += d
            s[1] += 1
        print("%s: %d positions (%d decided left out), mean regret %.4f, %d over 0.1; %s" % (
            path, n, decided, total / max(n, 1), big,
            ", ".join("%s %.4f (%d)" % (k, v[0] / v[1], v[1]) for k, v in sorted(bands.items()))))
    if judge.e:
        judge.e.close()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--anchors", default=os.environ.get("A"), help="the anchors' folder ($A)")
    sub = p.add_subparsers(dest="what", required=True)
    r = sub.add_parser("ref", help="MoHex's move in positions of SGF games")
    r.add_argument("--out", required=True)
    r.add_argument("--plies", default=",".join(str(x) for x in range(4, 44, 5)))
    r.add_argument("--time", type=float, default=3.0)
    r.add_argument("sgf", nargs="+")
    pv = sub.add_parser("prove", help="mark the positions a solver decides (left out of regret)")
    pv.add_argument("--ref", required=True)
    pv.add_argument("--engine", default="target/release/ferrohex --threads 1",
                    help="an engine answering dfpn-solve-state")
    pv.add_argument("--time", type=float, default=2.0, help="seconds a position")
    pl = sub.add_parser("play", help="an engine's move in the same positions")
    pl.add_argument("--ref", required=True)
    pl.add_argument("--engine", required=True)
    pl.add_argument("--setup", default="", help="HTP commands, ';'-separated")
    pl.add_argument("--out", required=True)
    g = sub.add_parser("regret", help="MoHex's judgement of the moves")
    g.add_argument("--ref", required=True)
    g.add_argument("--cache", default="judge-cache.json")
    g.add_argument("--time", type=float, default=2.0)
    g.add_argument("--decided", action="store_true",
                   help="judge the decided positions too (see --band)")
    g.add_argument("--band", type=float, default=0.05,
                   help="positions where MoHex's own move is valued below BAND or above "
                   "1 - BAND count as decided, as do those `prove` marked")
    g.add_argument("moves", nargs="+")
    a = p.parse_args()
    if a.what not in ("play", "prove") and not a.anchors:
        p.error("set $A to the anchors' folder (../shared/anchors/setup.sh prints it)")
    {"ref": cmd_ref, "prove": cmd_prove, "play": cmd_play, "regret": cmd_regret}[a.what](a)


if __name__ == "__main__":
    main()
