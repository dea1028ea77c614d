//! HexGui's analysis answers: the `vc-build COLOR` board overlay (`CELL
//! CODE` pairs) and connection lists in HexGui's VC-list form.

use crate::board::{Cell, CellSet, Color, Geometry};
use crate::knowledge::{Endpoint, Inferiority, Semi};

/// Cell names separated by `sep`, in index order.
fn names(g: &Geometry, set: &CellSet, sep: &str) -> String {
    set.iter().map(|c| g.name(c)).collect::<Vec<_>>().join(sep)
}

/// The `vc-build COLOR` overlay: whitespace-separated `CELL CODE` pairs:
/// `fdb`/`fdw` dead (filled black/white), `fcb`/`fcw` captured,
/// `iv[k1-k2]` vulnerable (killed by the listed cells), `id[d1-d2]`
/// dominated by the listed cells.
pub fn inferior(g: &Geometry, cells: &[(Cell, Inferiority)]) -> String {
    cells
        .iter()
        .map(|(c, why)| {
            let code = match why {
                Inferiority::Dead(col) => format!("fd{}", letter(*col)),
                Inferiority::Captured(col) => format!("fc{}", letter(*col)),
                Inferiority::Vulnerable(k) => format!("iv[{}]", names(g, k, "-")),
                Inferiority::Dominated(d) => format!("id[{}]", names(g, d, "-")),
            };
            format!("{} {code}", g.name(*c))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn letter(c: Color) -> char {
    if c == Color::Black { 'b' } else { 'w' }
}

/// `color`'s connections between `a` and `b` in HexGui's VC-list form, one
/// per line: `COLOR FROM TO full hsearch [ CARRIER ] [ ]` for `fulls`, then
/// `COLOR FROM TO semi hsearch [ CARRIER ] [ ] KEY` for `semis`.
pub fn connections(
    g: &Geometry,
    color: Color,
    (a, b): (Endpoint, Endpoint),
    fulls: &[CellSet],
    semis: &[Semi],
) -> String {
    let head = format!("{} {} {}", color.name(), a.name(g), b.name(g));
    let full = fulls
        .iter()
        .map(|c| format!("{head} full hsearch [ {} ] [ ]", names(g, c, " ")));
    let semi = semis.iter().map(|s| {
        format!(
            "{head} semi hsearch [ {} ] [ ] {}",
            names(g, &s.carrier, " "),
            g.name(s.key)
        )
    });
    full.chain(semi).collect::<Vec<_>>().join("\n")
}
