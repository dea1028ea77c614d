//! Property tests: random legal games on random board sizes keep the
//! invariants a GUI or a tournament relies on.

use std::time::Duration;

use ferrohex::board::{Cell, Color};
use ferrohex::engine::{Choice, Engine};
use ferrohex::game::{Game, Move, MoveArg};
use ferrohex::knowledge::ice;
use ferrohex::knowledge::vc::{Bits, bit, stones};
use ferrohex::search::SearchParams;
use proptest::prelude::*;

/// A board size and a random order of its cells to play in.
fn game_plan() -> impl Strategy<Value = (usize, usize, Vec<usize>)> {
    (1usize..=9, 1usize..=9, any::<bool>()).prop_flat_map(|(w, h, square)| {
        let h = if square { w } else { h };
        let n = w * h;
        (
            Just(w),
            Just(h),
            Just((0..n).collect::<Vec<_>>()).prop_shuffle(),
        )
    })
}

/// Plays alternately in `order` until the game is won; returns the game.
fn play_out(w: usize, h: usize, order: &[usize], stop_after: usize) -> Game {
    let mut game = Game::new(w, h).unwrap();
    for &i in order.iter().take(stop_after) {
        if game.winner().is_some() {
            break;
        }
        let color = game.to_move();
        game.play(color, Move::Cell(Cell::from_index(i))).unwrap();
    }
    game
}

fn bfs_winner(game: &Game) -> Option<Color> {
    game.position().winner_by_flood()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn a_full_board_has_exactly_one_winner((w, h, order) in game_plan()) {
        // Fill every cell, playing on past a win, straight on the position.
        let mut pos = Game::new(w, h).unwrap().position().clone();
        let mut color = Color::Black;
        for &i in &order {
            pos.play(color, Cell::from_index(i));
            color = color.opponent();
        }
        let winners: Vec<Color> = Color::BOTH.into_iter().filter(|&c| pos.chain_between_edges(c).is_some()).collect();
        prop_assert_eq!(winners.len(), 1);
        prop_assert_eq!(pos.winner(), Some(winners[0]));
    }

    #[test]
    fn union_find_winner_equals_bfs_after_every_move((w, h, order) in game_plan()) {
        let mut game = Game::new(w, h).unwrap();
        for &i in &order {
            if game.winner().is_some() {
                break;
            }
            let c = game.to_move();
            game.play(c, Move::Cell(Cell::from_index(i))).unwrap();
            prop_assert_eq!(game.winner(), bfs_winner(&game));
        }
        prop_assert!(game.winner().is_some(), "a game played to the end is won");
    }

    #[test]
    fn undo_restores_position_and_hash((w, h, order) in game_plan(), k in 0usize..40, back in 0usize..40) {
        let mut game = play_out(w, h, &order, k);
        let played = game.num_moves();
        let back = back.min(played);
        let mut snapshots = Vec::new();
        let mut replay = Game::new(w, h).unwrap();
        snapshots.push((replay.position().clone(), replay.position().hash()));
        for (c, m) in game.moves().collect::<Vec<_>>() {
            replay.play(c, m).unwrap();
            snapshots.push((replay.position().clone(), replay.position().hash()));
        }
        for _ in 0..back {
            game.undo().unwrap();
        }
        let (pos, hash) = &snapshots[played - back];
        prop_assert_eq!(game.position(), pos);
        prop_assert_eq!(game.position().hash(), *hash);
    }

    #[test]
    fn sgf_round_trip_gives_the_same_position((w, h, order) in game_plan(), k in 0usize..60) {
        let game = play_out(w, h, &order, k);
        let text = ferrohex::sgf::write(&game.to_sgf());
        let record = ferrohex::sgf::parse(&text).unwrap();
        let back = Game::from_sgf(&record, None, false).unwrap();
        prop_assert_eq!(back.position(), game.position());
        prop_assert_eq!(back.position().hash(), game.position().hash());
        prop_assert_eq!(back.to_move(), game.to_move());
        prop_assert_eq!(back.num_moves(), game.num_moves());
    }

    #[test]
    fn fill_in_after_one_stone_tests_near_it_and_fills_the_same((w, h, order) in game_plan()) {
        // The search and the solver fill in a child of a filled-in
        // position testing only the cells near its new stone; what they
        // fill must be what testing every cell fills.
        let game = Game::new(w, h).unwrap();
        let bits = Bits::<u128>::new(game.position().geometry()).unwrap();
        let mut st = stones::<u128>(game.position());
        let mut color = Color::Black;
        ice::fill_in(&bits, &mut st, color.opponent());
        for &i in &order {
            if (st[0] | st[1]) & bit::<u128>(i) != 0 {
                continue;
            }
            st[color.index()] |= bit::<u128>(i);
            color = color.opponent();
            let mut every = st;
            let all = ice::fill_in(&bits, &mut every, color.opponent());
            let mut near = st;
            let some = ice::fill_in_near(&bits, &mut near, color.opponent(), ice::touched_by(&bits, st, i));
            prop_assert_eq!(every, near);
            prop_assert_eq!(all, some);
            st = every;
        }
    }

    #[test]
    fn swap_then_undo_gives_back_the_position(n in 1usize..=12, first in 0usize..144) {
        let mut game = Game::new(n, n).unwrap();
        game.allow_swap = true;
        let cell = Cell::from_index(first % (n * n));
        game.play(Color::Black, Move::Cell(cell)).unwrap();
        if game.winner().is_some() {
            // 1x1: the first stone wins; no swap after a win.
            prop_assert!(game.play(Color::White, Move::Swap).is_err());
            return Ok(());
        }
        let before = (game.position().clone(), game.position().hash(), game.to_move());
        game.play(Color::White, Move::Swap).unwrap();
        let mirrored = game.geometry().mirror(cell).unwrap();
        prop_assert_eq!(game.position().stone(mirrored), Some(Color::White));
        prop_assert_eq!(game.position().num_stones(), 1);
        prop_assert_eq!(game.to_move(), Color::Black);
        game.undo().unwrap();
        prop_assert_eq!((game.position().clone(), game.position().hash(), game.to_move()), before);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]

    /// Whatever the position, genmove answers an empty cell on the board.
    #[test]
    fn genmove_answers_a_legal_cell((w, h, order) in game_plan(), k in 0usize..60, white in any::<bool>()) {
        let game = play_out(w, h, &order, k);
        prop_assume!(game.winner().is_none());
        let params = SearchParams { threads: 1, max_depth: Some(2), tt_mb: 1, ..SearchParams::default() };
        let mut engine = Engine::new(params, Duration::from_millis(200));
        engine.boardsize(w, h).unwrap();
        for (c, m) in game.moves() {
            let Move::Cell(cell) = m else { unreachable!() };
            let (col, row) = game.geometry().coords(cell);
            engine.play(c, MoveArg::Cell { col, row }).unwrap();
        }
        let color = if white { Color::White } else { Color::Black };
        let choice = engine.genmove(color, false, &mut |_| {}).unwrap().choice;
        let Choice::Cell(cell) = choice else {
            return Err(TestCaseError::fail(format!("{choice:?} is not a cell")));
        };
        prop_assert!(game.position().is_empty(cell), "{} is occupied", game.geometry().name(cell));
    }
}
