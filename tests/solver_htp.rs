//! The solver's HTP commands, as HexGui's "Run analysis" and Benzene's
//! regression files use them.

mod common;
use common::*;
use std::time::{Duration, Instant};

#[test]
fn solve_state_and_winning_moves_on_small_boards() {
    // On 4x4 the first player wins exactly on the short diagonal.
    let a = session(
        "boardsize 4\ndfpn-solve-state b\ndfpn-solver-find-winning b\nplay b a1\ndfpn-solve-state w\ndfpn-solver-find-winning w\ndfpn-clear-tt\nundo\nplay b b3\ndfpn-solve-state white\n",
    );
    assert_eq!(a[1], "= black");
    assert_eq!(a[2], "= d1 c2 b3 a4");
    assert_eq!(a[4], "= white", "a corner opening loses on 4x4");
    assert!(
        !a[5].trim_start_matches("= ").is_empty(),
        "white has winning replies: {}",
        a[5]
    );
    assert_eq!(a[6], "=");
    assert_eq!(a[9], "= black");
    let a = session(
        "boardsize 2\nplay b a1\nplay b a2\ndfpn-solve-state w\ndfpn-solver-find-winning b\n",
    );
    assert_eq!(a[3], "= black", "a won game's winner");
    assert!(a[4].starts_with("? ") && a[4].contains("over"), "{}", a[4]);
}

#[test]
fn param_dfpn_lists_sets_and_refuses() {
    let a = session(
        "param_dfpn\nparam_dfpn max_time 2.5\nparam_dfpn use_guifx 1\nparam_dfpn\nparam_dfpn max_time -1\nparam_dfpn speed 9\nparam_dfpn tt_mb 0\n",
    );
    for name in [
        "max_time",
        "tt_mb",
        "use_guifx",
        "incremental",
        "genmove_empty",
        "verify_empty",
    ] {
        assert!(a[0].contains(&format!(" {name} ")), "{name}: {}", a[0]);
    }
    assert_eq!(&a[1..3], ["=", "="]);
    assert!(
        a[3].contains("[string] max_time 2.5") && a[3].contains("[bool] use_guifx 1"),
        "{}",
        a[3]
    );
    assert!(a[4].starts_with("? invalid max_time"));
    assert!(a[5].starts_with("? unknown parameter"));
    assert!(a[6].starts_with("? invalid tt_mb"));
}

#[test]
fn the_verifiers_reach_follows_the_board_until_it_is_set() {
    let a = session(
        "boardsize 11\nparam_dfpn\nboardsize 13\nparam_dfpn\nparam_dfpn verify_empty 120\nboardsize 11\nparam_dfpn\n",
    );
    let reach = |listing: &str| {
        listing
            .lines()
            .find_map(|l| l.split(" verify_empty ").nth(1))
            .map(str::to_string)
    };
    assert_eq!(reach(&a[1]).as_deref(), Some("100"), "{}", a[1]);
    assert_eq!(reach(&a[3]).as_deref(), Some("145"), "{}", a[3]);
    assert_eq!(a[4], "=");
    assert_eq!(reach(&a[6]).as_deref(), Some("120"), "{}", a[6]);
}

#[test]
fn retired_solver_switches_say_they_are_gone() {
    let a = session("param_dfpn use_knowledge 1\nparam_dfpn use_ice 1\nparam_dfpn\n");
    for (i, name) in ["use_knowledge", "use_ice"].iter().enumerate() {
        assert!(
            a[i].starts_with(&format!("? {name} is no longer a parameter")),
            "{}",
            a[i]
        );
    }
    assert!(
        !a[2].contains("use_knowledge") && a[2].contains(" use_vc 1"),
        "{}",
        a[2]
    );
}

#[test]
fn late_widening_is_listed_set_and_checked() {
    let a = session(
        "param_dfpn late_widening 0.25\nparam_dfpn\nparam_dfpn late_widening -1\nparam_dfpn late_widening x\nparam_dfpn\n",
    );
    assert_eq!(a[0], "=");
    assert!(a[1].contains(" late_widening 0.25"), "{}", a[1]);
    assert!(a[2].starts_with("? ") && a[3].starts_with("? "), "{a:?}");
    // Refused values change nothing.
    assert!(a[4].contains(" late_widening 0.25"), "{}", a[4]);
}

#[test]
fn genmove_ordering_is_listed_set_and_checked_apart_from_ordering() {
    let a = session(
        "param_dfpn\nparam_dfpn genmove_ordering twodist\nparam_dfpn genmove_ordering random\nparam_dfpn\n",
    );
    assert!(a[0].contains(" genmove_ordering resistance"), "{}", a[0]);
    assert_eq!(a[1], "=");
    assert!(
        a[2].starts_with("? ") && a[2].contains("connections"),
        "{}",
        a[2]
    );
    // Refused values change nothing; dfpn-solve-state's ordering stays.
    assert!(a[3].contains(" genmove_ordering twodist"), "{}", a[3]);
    assert!(a[3].contains(" ordering connections"), "{}", a[3]);
}

#[test]
fn decompositions_is_listed_set_and_checked() {
    let a = session(
        "param_dfpn decompositions 0\nparam_dfpn\nparam_dfpn decompositions 2\nparam_dfpn\nparam_dfpn decompositions 1\nparam_dfpn\n",
    );
    assert_eq!(a[0], "=");
    assert!(a[1].contains("decompositions 0"), "{}", a[1]);
    assert!(a[2].starts_with("? "), "{a:?}");
    assert!(a[3].contains("decompositions 0"), "{}", a[3]);
    assert!(a[5].contains("decompositions 1"), "{}", a[5]);
}

#[test]
fn hexgui_run_analysis_sequence_with_live_graphics() {
    // HexGui's "Run analysis": param_dfpn use_guifx 1, then dfpn-solve-state.
    let out = run_raw(
        &[],
        b"boardsize 5\nplay b c3\nplay w b4\nparam_dfpn use_guifx 1\ndfpn-solve-state black\n",
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let blocks: Vec<&str> = text.split_terminator("\n\n").collect();
    let answer = blocks.last().unwrap();
    assert!(*answer == "= black" || *answer == "= white", "{text}");
    let gfx: Vec<&&str> = blocks
        .iter()
        .filter(|b| b.starts_with("gogui-gfx:\ndfpn\nVAR"))
        .collect();
    assert!(!gfx.is_empty(), "at least the final progress block: {text}");
    assert!(
        gfx.iter()
            .all(|b| b.contains("\nLABEL") && b.contains("\nTEXT ")),
        "{text}"
    );
}

#[test]
fn an_interrupted_solve_answers_unknown() {
    let mut e = Engine::start(&["--threads", "1"]);
    assert_eq!(e.ask("boardsize 13"), "=");
    e.send("dfpn-solve-state black");
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    e.send("# interrupt");
    assert_eq!(e.answer(), "= unknown");
    assert!(start.elapsed() < Duration::from_secs(30));
    assert_eq!(e.ask("name"), "= ferrohex");
}

#[test]
fn genmove_plays_a_proven_win_when_the_solver_finds_one() {
    for _ in 0..2 {
        let a = session_with(&["--max-time", "2"], "boardsize 4\ngenmove b\n");
        let mv = a[1].trim_start_matches("= ");
        assert!(
            ["d1", "c2", "b3", "a4"].contains(&mv),
            "4x4's winning openings, not {mv}"
        );
    }
    let a = session_with(
        &["--max-time", "2"],
        "boardsize 5\nplay b c3\nplay w b4\nparam_dfpn genmove_empty 0\nparam_dfpn\n",
    );
    assert!(a[4].contains("genmove_empty 0"), "{}", a[4]);
}

/// An 11x11 middle game (23 stones, White to move) from a game against
/// Wolve, where the connection search's depth-1 choice, c11, loses: the
/// solver proves it at once, though not the whole position.
const REFUTED_AT_DEPTH_1: &str =
    "f5 f6 h5 g7 f7 f8 e8 g6 i6 h8 j7 j8 i8 h10 d7 d8 e7 e9 d9 e6 d6 e4 e5";

/// White's move after `moves` on a `size` board, from a depth-1 search
/// and the solvers as `settings` leave them (one thread, 2 s).
fn depth1_move(size: usize, moves: &str, settings: &str) -> String {
    let mut input = format!("boardsize {size}\nparam_ferrohex max_depth 1\n{settings}");
    input += &alternate(moves);
    input += "genmove w\n";
    let a = session_with(&["--threads", "1", "--max-time", "2"], &input);
    a.last().cloned().unwrap_or_default()
}

/// Who wins after `moves` and White's `cell`, as the solver proves it.
fn winner_after(size: usize, moves: &str, cell: &str) -> String {
    let mut input = format!("boardsize {size}\n");
    input += &alternate(moves);
    input += &format!("play w {cell}\ndfpn-solve-state b\n");
    session(&input).last().cloned().unwrap_or_default()
}

/// The search's depth-1 choice without the solvers is `choice`, which the
/// solver proves a loss, and with the solvers as `settings` leave them
/// genmove plays something else.
fn assert_refuted(size: usize, moves: &str, choice: &str, settings: &str) {
    let off = "param_dfpn genmove_empty 0\nparam_dfpn verify_empty 0\n";
    assert_eq!(
        depth1_move(size, moves, off),
        format!("= {choice}"),
        "the search alone"
    );
    assert_eq!(
        winner_after(size, moves, choice),
        "= black",
        "{choice} loses"
    );
    let played = depth1_move(size, moves, settings);
    assert!(
        played.starts_with("= ") && played != format!("= {choice}"),
        "genmove must not play the refuted move: {played}"
    );
}

#[test]
fn genmove_does_not_play_a_move_its_solver_refutes() {
    assert_refuted(
        11,
        REFUTED_AT_DEPTH_1,
        "c11",
        "param_dfpn genmove_empty 100\nparam_dfpn verify_empty 100\n",
    );
}

/// An 11x11 position with 108 empty cells (White to move) from a game
/// against Wolve, above the whole-position solver's reach: the connection
/// search's depth-1 choice, c6, is refuted in a fraction of a second.
const REFUTED_ABOVE_SOLVER: &str = "i4 j2 g4 h6 i2 f7 e7 e8 c9 d8 c8 d7 c7";

#[test]
fn the_verifier_works_above_the_whole_position_solver() {
    // The verifier alone, the whole-position solver off.
    let verifier = "param_dfpn genmove_empty 0\nparam_dfpn verify_empty 110\n";
    assert_refuted(11, REFUTED_ABOVE_SOLVER, "c6", verifier);
}

/// A 13x13 position with 120 empty cells (White to move) from a game
/// against MoHex, where the verifier's reach was 100 empty cells: the
/// depth-1 search's choice, e6, lost the game, and the solver refutes it
/// in a fraction of a second.
const REFUTED_ON_13X13: &str = "c12 g6 h6 j3 k3 g8 h8 h7 j6 k4 j4 j5 i6 i7 j7 i5 h5 i4 g4 h4 g5 h2 f3 f4 i2 h3 g3 i8 j8 i10 i9 h10 h9 g10 e8 d11 c11 d10 c10 d9 c9 d8 c8 d7 c7 e4 f10 e2 f2";

#[test]
fn the_verifier_reaches_further_on_13x13() {
    // By default the verifier checks the choice at 120 empty cells.
    assert_refuted(13, REFUTED_ON_13X13, "e6", "");
    // With the reach 11x11 has, the search's choice stands.
    let short = "param_dfpn verify_empty 100\n";
    assert_eq!(depth1_move(13, REFUTED_ON_13X13, short), "= e6");
}

#[test]
fn genmove_swaps_winning_openings_and_opens_where_it_will_not_be_swapped() {
    let a = session(
        "param_game allow_swap 1\nboardsize 11\nplay b f6\ngenmove w\nshowboard\nclear_board\nplay b a1\ngenmove w\n",
    );
    assert_eq!(
        a[3], "= swap-pieces",
        "the centre wins for the first player"
    );
    assert!(
        a[4].contains("Last move: white swap-pieces") && a[4].contains("Black to play"),
        "{}",
        a[4]
    );
    assert_ne!(
        a[7], "= swap-pieces",
        "a1 loses for the first player: no swap"
    );
    // Without the swap rule there is nothing to swap.
    let a = session("boardsize 11\nplay b f6\ngenmove w\n");
    assert_ne!(a[2], "= swap-pieces");
    // Black's opening on a solved size is one White's table does not swap.
    for size in [5, 6, 7, 11] {
        let a = session(&format!(
            "param_game allow_swap 1\nboardsize {size}\ngenmove b\ngenmove w\n"
        ));
        assert!(a[2].starts_with("= ") && a[2].len() > 3, "{size}: {}", a[2]);
        assert_ne!(
            a[3], "= swap-pieces",
            "{size}x{size}: black opened {}",
            a[2]
        );
    }
}

/// An 11x11 position from a game against MoHex (Black to move, 32 stones)
/// that the solver proves lost for Black in well under a second, while a
/// depth-1 search scores it as open.
const PROVED_LOST_FOR_BLACK: &str = "k5 f6 e6 e7 j4 j3 d7 d8 i4 i3 h4 h3 f5 e4 c4 c3 b4 b3 f4 g2 f2 g5 c8 b10 f3 g4 c9 c10 d9 d10 e9 e10";

#[test]
fn genmove_reports_a_solver_proof_as_its_score() {
    let mut input = String::from("boardsize 11\nparam_ferrohex max_depth 1\n");
    input += &alternate(PROVED_LOST_FOR_BLACK);
    input += "genmove b\n";
    let out = run_with(
        &["--threads", "1", "--max-time", "5", "--log", "info"],
        input.as_bytes(),
    );
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("solver: white wins"), "{log}");
    // The log's genmove line carries the proof, not the depth-1 evaluation.
    let line = log
        .lines()
        .find(|l| l.contains("genmove black:"))
        .unwrap_or_else(|| panic!("no genmove line: {log}"));
    let score: i32 = line
        .split("score ")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no score in {line}"));
    assert!(
        ferrohex::search::score_is_loss(score),
        "a proved loss: {line}"
    );
}
