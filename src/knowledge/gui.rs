//! Text answers for HexGui's analysis commands: the `vc-build COLOR` board
//! overlay (`CELL CODE` pairs), connection listings and the mustplay.

use crate::board::{Cell, CellSet, Color, Geometry, Position};

use super::{Endpoint, Knowledge, analyze, connections};

/// Cell names separated by `sep`, in index order.
fn names(g: &Geometry, set: &CellSet, sep: &str) -> String {
    set.iter().map(|c| g.name(c)).collect::<Vec<_>>().join(sep)
}

/// The `vc-build COLOR` overlay: whitespace-separated `CELL CODE` pairs,
/// one per cell outside the consider set of `color` (ignoring mustplay):
/// `fdb`/`fdw` dead (filled black/white), `fcb`/`fcw` captured,
/// `fpb`/`fpw` permanently inferior, `iv[k1-k2]` vulnerable (killed by the
/// listed cells), `ir[r1-r2]` reversible (the listed replies make it
/// useless to `color`), `id[d1-d2]` dominated by the listed cells.
pub fn gui_inferior(pos: &Position, color: Color) -> String {
    let g = pos.geometry();
    let mut entries: Vec<(Cell, String)> = Vec::new();
    let fills = |inf: &super::Inferior, entries: &mut Vec<(Cell, String)>| {
        for col in Color::BOTH {
            for (set, code) in [
                (&inf.dead[col.index()], "fd"),
                (&inf.captured[col.index()], "fc"),
                (&inf.perm[col.index()], "fp"),
            ] {
                for c in set.iter() {
                    entries.push((c, format!("{code}{}", letter(col))));
                }
            }
        }
    };
    // The fill-in, then (as the search's root does) each carrier a
    // decomposition captures (shown as captured) and the fill-in it leads
    // to.
    let mut inf = analyze(pos, color);
    fills(&inf, &mut entries);
    if pos.winner().is_none() {
        let mut k = Knowledge::new(&super::fill_in(pos).0);
        super::decompose::fill_steps(&mut k, |col, carrier, after| {
            for c in carrier.iter() {
                entries.push((c, format!("fc{}", letter(col))));
            }
            inf = analyze(after, color);
            fills(&inf, &mut entries);
        });
    }
    // The pruning of the last board, which the consider set comes from.
    let pruned = inf.pruned().difference(&inf.filled());
    for c in pruned.iter() {
        if let Some((_, k)) = inf.vulnerable.iter().find(|(v, _)| *v == c) {
            entries.push((c, format!("iv[{}]", names(g, k, "-"))));
        } else if let Some((_, r)) = inf.reversible.iter().find(|(v, _)| *v == c) {
            entries.push((c, format!("ir[{}]", names(g, r, "-"))));
        } else if let Some((_, d)) = inf.dominated.iter().find(|(v, _)| *v == c) {
            entries.push((c, format!("id[{}]", names(g, d, "-"))));
        }
    }
    entries.sort_by_key(|e| e.0);
    entries
        .iter()
        .map(|(c, code)| format!("{} {code}", g.name(*c)))
        .collect::<Vec<_>>()
        .join(" ")
}

fn letter(c: Color) -> char {
    if c == Color::Black { 'b' } else { 'w' }
}

/// `color`'s connections between two endpoints, one per line:
/// `FROM TO full [ CELLS ]` or `FROM TO semi KEY [ CELLS ]`, carriers by
/// cell name, fulls then semis, smallest carriers first. `kind` filters:
/// `Some(true)` fulls only, `Some(false)` semis only.
pub fn gui_connections(
    k: &Knowledge,
    color: Color,
    a: Endpoint,
    b: Endpoint,
    kind: Option<bool>,
) -> String {
    let g = k.geometry();
    let (mut fulls, mut semis) = connections(k.vcs(color), a, b);
    fulls.sort_by_key(|c| c.len());
    semis.sort_by_key(|s| s.carrier.len());
    let (an, bn) = (a.name(g), b.name(g));
    let mut lines = Vec::new();
    if kind != Some(false) {
        for f in &fulls {
            lines.push(format!("{an} {bn} full [ {} ]", names(g, f, " ")));
        }
    }
    if kind != Some(true) {
        for s in &semis {
            lines.push(format!(
                "{an} {bn} semi {} [ {} ]",
                g.name(s.key),
                names(g, &s.carrier, " ")
            ));
        }
    }
    lines.join("\n")
}

/// The mustplay of `to_move` as cell names separated by spaces (empty when
/// the position is lost).
pub fn gui_mustplay(k: &Knowledge, to_move: Color) -> String {
    names(k.geometry(), &k.mustplay(to_move), " ")
}
