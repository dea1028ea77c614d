//! The connection search (`search::connsearch`): what it claims about won
//! and lost positions holds under exhaustive search, it is deterministic
//! with one thread, and its evaluation reads the board the right way.

mod common;

use std::collections::HashMap;

use common::{Rng, brute_memo, random_position};
use ferrohex::board::{Color, Position};
use ferrohex::search::connsearch::{ConnSearch, fixed_depth};
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
    for i in 0..600 {
        let size = 4 + i % 2;
        let n = size * size;
        let empties = 6 + rng.below(if size == 5 { 8 } else { 7 });
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

const CONN_SIGNATURE: u64 = 1926;

/// The evaluation is symmetric on the empty board and favours the side
/// with a stone in the centre.
#[test]
fn evaluation_reads_the_board() {
    let (empty, _) = play(7, "");
    let mut s = ConnSearch::new(&empty).expect("7x7 fits");
    assert_eq!(s.evaluate(&empty, Color::Black), Ok(0));
    let (pos, me) = play(7, "d4");
    let score = s.evaluate(&pos, me).expect("undecided");
    assert!(score < 0, "White to move after Black's centre: {score}");
    assert!(score > -WIN / 2);
    // A side with an edge-to-edge chain but one bridge is decided.
    let (pos, me) = play(3, "b1 a1 b3 c1");
    assert_eq!(s_for(&pos).evaluate(&pos, me), Err(Color::Black));
}

fn s_for(pos: &Position) -> ConnSearch {
    ConnSearch::new(pos).expect("fits")
}
