//! Captured carriers by decomposition: a full connection between two of a
//! colour's groups whose carrier lies in a pocket of the board that the
//! colour can only use to join those two groups.
//!
//! Let K be the colour, `A` and `B` two of its groups (its edges count as
//! groups) with a full connection of carrier `C`, and `D` the empty cells
//! that no K chain from K's other edges (those that are neither `A` nor
//! `B`) reaches without first passing a cell next to `A` or `B`. If `C`
//! lies inside `D`, `C` is captured by K: filled with K stones it changes
//! no winner.
//!
//! Why: extra K stones never hurt K, so only "K wins with `C` filled => K
//! wins without" needs showing. K plays its winning strategy for the
//! filled board and answers every opponent move inside `C` inside `C`, by
//! the connection's strategy, so `A` and `B` end up joined. Take K's
//! winning chain on the filled board. Every stretch of it through cells
//! the flood does not reach (`D` and any K stones among them) enters and
//! leaves them at cells next to `A` or `B` (or at `A`, `B` themselves,
//! or at K's edge when that edge is `A` or `B`): the flood goes on from
//! every other cell it reaches. So the stretch can be replaced by the
//! real join of `A` and `B`, and K wins on the real board too. A move outside `C` only keeps the condition (an
//! opponent stone blocks K's floods, so `D` can only grow; a K stone at
//! most grows `A` or `B`), so what holds at a node holds at its children:
//! the winning moves of the filled board win on the real one, as with the
//! other fill-in.
//!
//! Benzene calls these combinatorial decompositions: typically two K
//! groups both touching the same two opponent groups, which fence off the
//! pocket between them. Benzene looks only at such pairs; the argument
//! above needs no opponent groups, so every pair with a full connection
//! is tried (the flood is cheap).

use std::collections::HashMap;
use std::time::Instant;

use crate::board::{Cell, CellSet, Color, Position};

use super::Knowledge;
use super::vc::{Node, VcGraph};

/// A full connection's carrier that `vc`'s colour captures in `pos` by
/// decomposition (the smallest found), if any. `vc` must describe `pos`.
pub fn captured_carrier(pos: &Position, vc: &VcGraph) -> Option<CellSet> {
    let color = vc.color();
    if pos.winner().is_some() || vc.is_won() || !vc.edge_fulls().is_empty() {
        return None;
    }
    let g = pos.geometry();
    let empty = pos.empty_cells();
    let own = *pos.stones(color);
    let (e1, e2) = color.edges();
    let (n1, n2) = vc.edge_nodes();
    // Each group's stones and the empty cells next to it (for an edge:
    // next to its stones, and the empty cells on it).
    let mut groups: HashMap<Node, (CellSet, CellSet)> = HashMap::new();
    for (edge, node) in [(e1, n1), (e2, n2)] {
        groups.insert(
            node,
            (CellSet::EMPTY, g.edge_cells(edge).intersection(&empty)),
        );
    }
    for s in own.iter() {
        let Some(node) = vc.node(s) else { continue };
        let entry = groups
            .entry(node)
            .or_insert((CellSet::EMPTY, CellSet::EMPTY));
        entry.0.insert(s);
        for &nb in g.neighbours(s) {
            if empty.contains(nb) {
                entry.1.insert(nb);
            }
        }
    }
    let mut nodes: Vec<Node> = groups.keys().copied().collect();
    nodes.sort_unstable();
    let mut best: Option<CellSet> = None;
    for (i, &a) in nodes.iter().enumerate() {
        for &b in &nodes[..i] {
            if (a == n1 || a == n2) && (b == n1 || b == n2) {
                continue;
            }
            let better = |c: &&CellSet, best: Option<CellSet>| {
                !c.is_empty() && best.is_none_or(|x| c.len() < x.len())
            };
            let fulls = vc.fulls(a, b);
            if !fulls.iter().any(|c| better(&c, best)) {
                continue;
            }
            let (ga, na) = groups[&a];
            let (gb, nb) = groups[&b];
            // The flood from the other edges: over empty cells and own
            // stones, never into the pair, ending at cells next to it.
            let blocked = ga.union(&gb);
            let mut starts = CellSet::EMPTY;
            for (edge, node) in [(e1, n1), (e2, n2)] {
                if node != a && node != b {
                    starts = starts.union(&g.edge_cells(edge).difference(&blocked));
                }
            }
            let reached = flood(pos, color, starts, &blocked, &na.union(&nb));
            let pocket = empty.difference(&reached);
            if let Some(&c) = fulls
                .iter()
                .filter(|c| better(c, best) && c.difference(&pocket).is_empty())
                .min_by_key(|c| c.len())
            {
                best = Some(c);
            }
        }
    }
    best
}

/// The cells a `color` chain reaches from `starts` (less the opponent's
/// stones there) over empty cells and `color` stones, never entering
/// `blocked` and not going on from a cell of `stop` (it is reached, but
/// the flood ends there).
fn flood(
    pos: &Position,
    color: Color,
    starts: CellSet,
    blocked: &CellSet,
    stop: &CellSet,
) -> CellSet {
    let g = pos.geometry();
    let opp = pos.stones(color.opponent());
    let mut reached = starts.difference(opp);
    let mut todo: Vec<Cell> = reached.iter().collect();
    while let Some(c) = todo.pop() {
        if stop.contains(c) {
            continue;
        }
        for &nb in g.neighbours(c) {
            if !reached.contains(nb) && !opp.contains(nb) && !blocked.contains(nb) {
                reached.insert(nb);
                todo.push(nb);
            }
        }
    }
    reached
}

/// Fills decomposition captures into `k`, each followed by the dead and
/// captured cells it leads to, until none is left. Returns how many
/// stones were played (for `undo`) and the cells filled with each colour.
pub fn fill(k: &mut Knowledge) -> (usize, [CellSet; 2]) {
    fill_steps(k, |_, _, _| {})
}

/// [`fill`], looking for no further capture once `deadline` has passed
/// (each look and the updates it leads to can take many milliseconds on a
/// big board); what was filled by then is filled soundly.
pub fn fill_until(k: &mut Knowledge, deadline: Instant) -> (usize, [CellSet; 2]) {
    fill_steps_until(k, Some(deadline), |_, _, _| {})
}

/// [`fill`], telling `step` each carrier as it is found: its colour, its
/// cells and the position with it played (before the fill-in it leads
/// to), for HexGui's overlay.
pub fn fill_steps(
    k: &mut Knowledge,
    step: impl FnMut(Color, CellSet, &Position),
) -> (usize, [CellSet; 2]) {
    fill_steps_until(k, None, step)
}

fn fill_steps_until(
    k: &mut Knowledge,
    deadline: Option<Instant>,
    mut step: impl FnMut(Color, CellSet, &Position),
) -> (usize, [CellSet; 2]) {
    let mut played = 0;
    let mut fills = [CellSet::EMPTY; 2];
    loop {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return (played, fills);
        }
        let found = Color::BOTH.into_iter().find_map(|color| {
            captured_carrier(k.position(), k.vcs(color)).map(|carrier| (color, carrier))
        });
        let Some((color, carrier)) = found else {
            return (played, fills);
        };
        let mut add = [CellSet::EMPTY; 2];
        add[color.index()] = carrier;
        let mut after = k.position().clone();
        for c in carrier.iter() {
            after.play(color, c);
        }
        step(color, carrier, &after);
        let (_, more) = super::ice::fill_in(&after);
        for color in Color::BOTH {
            let cells = add[color.index()].union(&more[color.index()]);
            for c in cells.iter() {
                k.play(color, c);
                played += 1;
            }
            fills[color.index()] = fills[color.index()].union(&cells);
        }
    }
}
