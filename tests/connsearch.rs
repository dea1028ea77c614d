//! The connection search (`search::connsearch`): what it claims about won
//! and lost positions holds under exhaustive search, it is deterministic
//! with one thread, and its evaluation reads the board the right way.

mod common;

use std::collections::HashMap;

use common::{Rng, brute_memo, random_position};
use ferrohex::board::Wide;
use ferrohex::board::{Color, Position};
use ferrohex::search::connsearch::{ConnSearch, circuit_view, fixed_depth, fixed_depth_on};
use ferrohex::search::{WIN, score_is_loss, score_is_win};

fn play(size: usize, moves: &str) -> (Position, Color) {
    ferrohex::search::bench_position(size, moves)
}

/// On random 4x4 and 5x5 positions, every win or loss the search reports
/// at depth 3 is the true result, and a reported win's move wins.
#[test]
fn decided_scores_agree_with_brute_force() {
    let mut rng = Rng(0x5eed_c0ffee);
    let mut memo = HashMap::new();
    let (mut wins, mut losses) = (0, 0);
    // Positions with more empty cells: H-search decides most small ones
    // at the root, where there is no search to check.
    for i in 0..600 {
        let size = 4 + i % 2;
        let n = size * size;
        let empties = 8 + rng.below(if size == 5 { 6 } else { 7 });
        let (mut pos, me) = random_position(&mut rng, size, n - empties);
        let truth = brute_memo(&mut pos, me, &mut memo);
        // A root the connections decide has no search to check.
        let Some((mv, score, _)) = fixed_depth(&pos, me, 3) else {
            continue;
        };
        assert!(pos.is_empty(mv), "the move is an empty cell");
        if score_is_win(score) {
            wins += 1;
            assert_eq!(truth, me, "claimed win in\n{pos:?}");
            pos.play(me, mv);
            assert_eq!(
                brute_memo(&mut pos, me.opponent(), &mut memo),
                me,
                "the winning move {mv:?} wins"
            );
            pos.unplay();
        } else if score_is_loss(score) {
            losses += 1;
            assert_eq!(truth, me.opponent(), "claimed loss in\n{pos:?}");
        }
    }
    assert!(wins >= 5 && losses >= 5, "wins {wins}, losses {losses}");
}

/// With one thread and a depth limit the search is deterministic: the
/// node count below is its signature on the middle-game position the
/// README's node rate is measured on (change it deliberately when the
/// search's ordering, pruning or evaluation change).
#[test]
fn fixed_search_is_deterministic() {
    let (pos, me) = play(11, "f6 e7 d9");
    let a = fixed_depth(&pos, me, 3).expect("undecided");
    let b = fixed_depth(&pos, me, 3).expect("undecided");
    assert_eq!(a, b);
    assert_eq!(a.2, CONN_SIGNATURE, "nodes of the depth-3 search");
}

const CONN_SIGNATURE: u64 = 1743;

/// The bitboard types of the bigger boards search as the one of 11x11
/// does: the same move, score and node count on the same positions.
#[test]
fn wide_bitboards_search_as_narrow_ones() {
    let mut rng = Rng(0x3a1d_e5e1);
    for (size, moves) in [(11, "f6 e7 d9"), (9, "e5 d6"), (7, "d4")] {
        let (pos, me) = play(size, moves);
        let narrow = fixed_depth_on::<u128>(&pos, me, 2);
        assert!(narrow.is_some(), "{size}x{size} {moves}");
        assert_eq!(
            narrow,
            fixed_depth_on::<Wide<3>>(&pos, me, 2),
            "{size}x{size} {moves}"
        );
        assert_eq!(
            narrow,
            fixed_depth_on::<Wide<4>>(&pos, me, 2),
            "{size}x{size} {moves}"
        );
    }
    for _ in 0..40 {
        let stones = 8 + rng.below(8);
        let (pos, me) = random_position(&mut rng, 5, stones);
        let narrow = fixed_depth_on::<u128>(&pos, me, 3);
        assert_eq!(narrow, fixed_depth_on::<Wide<3>>(&pos, me, 3), "\n{pos:?}");
    }
}

/// 13x13, 15x15 and the boards above 254 cells (on the eleven-word
/// bitboards) have the connection search too, deterministic with one
/// thread.
#[test]
fn big_boards_have_the_connection_search() {
    for (size, moves, depth) in [(13, "g7 f8", 2), (15, "h8", 2), (16, "h8 i9 g10", 1)] {
        let (pos, me) = play(size, moves);
        let a = fixed_depth(&pos, me, depth).expect("undecided");
        assert!(pos.is_empty(a.0));
        assert_eq!(Some(a), fixed_depth(&pos, me, depth));
    }
}

/// The evaluation is symmetric on the empty board and favours the side
/// with a stone in the centre.
#[test]
fn evaluation_reads_the_board() {
    let (empty, _) = play(7, "");
    let mut s = ConnSearch::<u128>::new(&empty).expect("7x7 fits");
    assert_eq!(s.evaluate(&empty, Color::Black), Ok(0));
    let (pos, me) = play(7, "d4");
    let score = s.evaluate(&pos, me).expect("undecided");
    assert!(score < 0, "White to move after Black's centre: {score}");
    assert!(score > -WIN / 2);
    // A side with an edge-to-edge chain but one bridge is decided.
    let (pos, me) = play(3, "b1 a1 b3 c1");
    assert_eq!(s_for(&pos).evaluate(&pos, me), Err(Color::Black));
}

fn s_for(pos: &Position) -> ConnSearch<u128> {
    ConnSearch::new(pos).expect("fits")
}

/// The search fills in the carriers decompositions capture before it
/// evaluates a node or picks its moves: White's c1-c2 reaches the west edge
/// through a corner no Black chain can use (see tests/decompose.rs), so no
/// corner cell carries current or is searched, for either side to move.
/// Without White's a5 the corner is open to Black and carries current.
#[test]
fn decomposition_carriers_are_filled_in() {
    let corner = ["a1", "b1", "a2", "b2", "a3", "b3", "a4"];
    let in_corner = |pos: &Position, cells: &[ferrohex::board::Cell]| {
        cells
            .iter()
            .filter(|&&c| corner.contains(&pos.geometry().name(c).as_str()))
            .count()
    };
    let fenced = common::diagram(
        "
        . . W B . . .
         . . W B . . .
          . . . . . . .
           . . . . . . .
            W . . . . . .
             . . . . . . .
              . . . . . . .",
    );
    for me in Color::BOTH {
        let view = circuit_view(&fenced, me).expect("7x7 fits");
        let lit: Vec<_> = view.energy.iter().map(|e| e.0).collect();
        assert_eq!(in_corner(&fenced, &lit), 0, "{me:?} to move");
        let moves = s_for(&fenced).root(&fenced, me).expect("undecided");
        assert_eq!(in_corner(&fenced, &moves), 0, "{me:?} to move: {moves:?}");
    }
    let open = common::diagram(
        "
        . . W B . . .
         . . W B . . .
          . . . . . . .
           . . . . . . .
            . . . . . . .
             . . . . . . .
              . . . . . . .",
    );
    let view = circuit_view(&open, Color::Black).expect("7x7 fits");
    let lit: Vec<_> = view
        .energy
        .iter()
        .filter(|e| e.1 > 0.0)
        .map(|e| e.0)
        .collect();
    assert!(in_corner(&open, &lit) > 0, "{lit:?}");
}
