//! Captured carriers by decomposition (`knowledge::queries::decomposition`,
//! the bitboard H-search's): checked against brute force on random small
//! positions, and on a diagram.

use std::collections::HashMap;

mod common;
use common::{Rng, brute_memo, diagram, random_position};

use ferrohex::board::{CellSet, Color, Position};
use ferrohex::knowledge::{fill_decompositions, fill_in, queries};

fn describe(pos: &Position) -> Vec<String> {
    pos.placed()
        .map(|(c, x)| format!("{}{}", c.letter(), pos.geometry().name(x)))
        .collect()
}

/// Filling a decomposition's carrier never changes who wins, with either
/// side to move; and the rule does find carriers in these positions.
#[test]
fn a_captured_carrier_keeps_the_winner() {
    let mut rng = Rng(0xdec0_4715);
    let mut memo = HashMap::new();
    let mut found = 0;
    let cases = 1500;
    for i in 0..cases {
        let size = 4 + rng.below(2);
        let n = size * size;
        let empties = 6 + rng.below(if size == 5 { 8 } else { 7 });
        let (mut pos, _) = random_position(&mut rng, size, n - empties);
        for color in Color::BOTH {
            let Some(carrier) = queries::decomposition(&pos, color) else {
                continue;
            };
            found += 1;
            let mut filled = pos.clone();
            for c in carrier.iter() {
                filled.play(color, c);
            }
            for tm in Color::BOTH {
                let a = brute_memo(&mut pos, tm, &mut memo);
                let b = brute_memo(&mut filled, tm, &mut memo);
                assert_eq!(
                    a,
                    b,
                    "case {i}: {:?} to move {tm}: {color} captures {:?}",
                    describe(&pos),
                    carrier
                        .iter()
                        .map(|c| pos.geometry().name(c))
                        .collect::<Vec<_>>()
                );
            }
        }
    }
    assert!(found >= 50, "few decompositions found: {found}");
}

/// The whole fill (decompositions and the fill-in they lead to, after
/// the ordinary fill-in) keeps the winner too.
#[test]
fn decomposition_fill_keeps_the_winner() {
    let mut rng = Rng(0x5eed_dec0);
    let mut memo = HashMap::new();
    let mut filled_cases = 0;
    for i in 0..800 {
        let size = 4 + rng.below(2);
        let n = size * size;
        let empties = 6 + rng.below(if size == 5 { 8 } else { 7 });
        let (mut pos, _) = random_position(&mut rng, size, n - empties);
        let dead = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let (base, _) = fill_in(&pos, dead);
        let mut fills = [CellSet::EMPTY; 2];
        let filled = fill_decompositions(&base, dead, |col, carrier, _| {
            fills[col.index()] = fills[col.index()].union(&carrier);
        });
        if fills == [CellSet::EMPTY; 2] {
            continue;
        }
        filled_cases += 1;
        let mut filled = filled;
        for tm in Color::BOTH {
            assert_eq!(
                brute_memo(&mut pos, tm, &mut memo),
                brute_memo(&mut filled, tm, &mut memo),
                "case {i}: {:?} to move {tm}: fills {:?}",
                describe(&pos),
                fills
                    .map(|f: CellSet| f.iter().map(|c| pos.geometry().name(c)).collect::<Vec<_>>())
            );
        }
    }
    assert!(filled_cases >= 30, "few fills: {filled_cases}");
}

fn names(pos: &Position, cells: CellSet) -> Vec<String> {
    cells.iter().map(|c| pos.geometry().name(c)).collect()
}

/// White's c1-c2 reaches its west edge through the corner (a full
/// connection over a1 b1 a2 b2 a3 b3, or a1 b1 a2 a3 b3 a4). With White's a5 on the edge, every
/// way into the corner passes a cell next to c1-c2 or to the west edge
/// (b4 touches a5), so the corner only serves to join c1-c2 to the edge:
/// White owns it, though no pattern of the ordinary fill-in sees that.
/// Without a5, Black's b4-b3 leads into the corner and nothing there is
/// captured.
#[test]
fn a_corner_fenced_off_by_own_stones_is_captured() {
    let closed = diagram(
        "
        . . W B B
         . . W B .
          . . . . .
           . . . . .
            W . . . .",
    );
    // Nothing to fill, whatever colour dead cells would take.
    let (base, _) = fill_in(&closed, Color::White);
    assert_eq!(base, fill_in(&closed, Color::Black).0);
    assert_eq!(base.num_stones(), closed.num_stones());
    // A full connection from c1-c2 to the edge through the corner: its
    // H-search keeps 6-cell carriers there (a1 b1 a2 b2 a3 b3, or the one
    // through a4); any is White's.
    let corner = ["a1", "b1", "a2", "b2", "a3", "b3", "a4"];
    let carrier = names(
        &closed,
        queries::decomposition(&closed, Color::White).expect("a captured corner"),
    );
    assert!(
        carrier.len() == 6
            && carrier.contains(&"a1".to_string())
            && carrier.iter().all(|x| corner.contains(&x.as_str())),
        "{carrier:?}"
    );
    assert_eq!(queries::decomposition(&closed, Color::Black), None);

    // HexGui's consider-set overlay shows the corner as captured by White.
    let overlay = ferrohex::present::overlay::inferior(
        closed.geometry(),
        &ferrohex::knowledge::inferior_cells(&closed, Color::Black),
    );
    for c in &carrier {
        assert!(overlay.contains(&format!("{c} fcw")), "{c}: {overlay}");
    }

    let open = diagram(
        "
        . . W B B
         . . W B .
          . . . . .
           . . . . .
            . . . . .",
    );
    let carrier = queries::decomposition(&open, Color::White);
    let b3 = open.geometry().parse_cell("b3").unwrap();
    assert!(
        carrier.is_none_or(|c| !c.contains(b3)),
        "{:?}",
        carrier.map(|c| names(&open, c))
    );
}
