//! Unit tests of the bitboard H-search.

use super::*;
use crate::board::{Geometry, Position};
use std::sync::Arc;

fn position(n: usize, black: &[&str], white: &[&str]) -> Position {
    let g = Arc::new(Geometry::new(n, n).unwrap());
    let mut p = Position::new(g.clone());
    for b in black {
        p.play(Color::Black, g.parse_cell(b).unwrap());
    }
    for w in white {
        p.play(Color::White, g.parse_cell(w).unwrap());
    }
    p
}

fn run(p: &Position, color: Color, for_mover: bool) -> EdgeInfo<u128> {
    let bits = Bits::new(p.geometry()).unwrap();
    Hsearch::new().run(&bits, stones(p), color, for_mover)
}

#[test]
fn centre_stone_of_three_by_three_is_connected() {
    // b2 reaches row 1 through b1 or c1 and row 3 through a3 or b3.
    let p = position(3, &["b2"], &[]);
    let info = run(&p, Color::Black, false);
    let carrier = info.full.expect("a full connection");
    let g = p.geometry();
    let names: Vec<String> = cells(carrier).map(|c| g.name(c)).collect();
    assert_eq!(names, ["b1", "c1", "a3", "b3"]);
}

#[test]
fn one_cell_board_is_a_semi() {
    let p = position(1, &[], &[]);
    let info = run(&p, Color::White, true);
    assert_eq!(info.semi.map(|s| s.0), Some(0));
    assert!(info.full.is_none());
}

#[test]
fn blocked_side_has_nothing() {
    // A full row of White stones cuts Black off.
    let p = position(3, &[], &["a2", "b2", "c2"]);
    let info = run(&p, Color::Black, false);
    assert!(info.full.is_none() && info.semi.is_none() && info.semis == 0);
    let info = run(&p, Color::White, false);
    assert_eq!(info.full, Some(0), "already joined");
}

#[test]
fn mustplay_is_the_common_cells_of_the_threats() {
    // Black b2 on 3x3 with White c1: b2 reaches the top only through
    // b1 now, so Black's threats all need b1 (and the bottom pair).
    let p = position(3, &["b2"], &["c1"]);
    let info = run(&p, Color::Black, false);
    assert!(info.full.is_none());
    assert!(info.semis > 0);
    let g = p.geometry();
    let b1 = g.parse_cell("b1").unwrap().index();
    assert!(info.semi_cap & bit::<u128>(b1) != 0);
}

#[test]
fn every_or_set_of_semis_gives_its_full() {
    // 5x5, Black c2 (bridged to the top by c1 and d1), White b3. The top
    // edge reaches d2 by three one-cell semis: d1, e1, and c1 (through
    // c2). Each two of them make a full: c1+d1, c1+e1 and d1+e1. Keeping
    // only the first set found loses c1+e1, and with it the top's full to
    // d4 and the threat whose carrier misses d1, which Black's win on
    // this board (after c4) needs.
    let p = position(5, &["c2"], &["b3"]);
    let bits = Bits::<u128>::new(p.geometry()).unwrap();
    let mut hs = Hsearch::with_caps(Caps::new(Caps::MAX_FULLS, 24));
    hs.run_seeded(&bits, stones(&p), Color::Black, Goal::Whole, None);
    let g = p.geometry();
    let d2 = hs.node_at(g.parse_cell("d2").unwrap().index()).unwrap();
    let (fulls, _) = hs.between(0, d2);
    let mut names: Vec<Vec<String>> = fulls
        .iter()
        .map(|&c| cells(c).map(|x| g.name(x)).collect())
        .collect();
    names.sort();
    assert_eq!(names, [["c1", "d1"], ["c1", "e1"], ["d1", "e1"]]);
    // After Black c4, White has no move left.
    let p = position(5, &["c2", "c4"], &["b3"]);
    let info = run(&p, Color::Black, false);
    let lost = info.full.is_some() || (info.semis > 0 && info.semi_cap == 0);
    assert!(lost, "{info:?}");
}

/// A run past its deadline gives up: it is not finished and finds less
/// (here not the bridge chain's edge-to-edge full); without the deadline
/// the same run finds it.
#[test]
fn a_run_past_its_deadline_gives_up() {
    let p = position(7, &["d2", "c4", "b6"], &[]);
    let bits = Bits::new(p.geometry()).unwrap();
    let mut hs = Hsearch::<u128>::new();
    hs.set_deadline(Some(std::time::Instant::now()));
    let info = hs.run_seeded(&bits, stones(&p), Color::Black, Goal::Closure, None);
    assert!(!hs.finished());
    assert!(info.full.is_none());
    hs.set_deadline(None);
    let info = hs.run_seeded(&bits, stones(&p), Color::Black, Goal::Closure, None);
    assert!(info.full.is_some());
}
