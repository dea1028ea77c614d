//! `ferrohex play` with standard input from a pipe: moves and commands go
//! in, the transcript (boards, the engine's replies, messages) comes out,
//! and saved games load back. The engine thinks for 0.1 s on small boards.

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use ferrohex::board::Color;
use ferrohex::game::Game;

fn scratch(name: &str) -> PathBuf {
    let dir = common::tmp_root().join(format!("ferrohex-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn play(args: &[&str], input: &str) -> (String, Output) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ferrohex"))
        .arg("play")
        .args(["--max-time", "0.1", "--threads", "1"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start ferrohex play");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    assert!(
        !text.contains('\x1b'),
        "no colour codes when stdout is a pipe"
    );
    (text, out)
}

fn load(path: &PathBuf) -> Game {
    let text = std::fs::read_to_string(path).unwrap();
    let record = ferrohex::sgf::parse(&text).unwrap();
    Game::from_sgf(&record, None, true).unwrap()
}

/// Every cell of a board, row by row.
fn all_cells(w: usize, h: usize) -> Vec<String> {
    (0..h)
        .flat_map(|r| (0..w).map(move |c| format!("{}{}", (b'a' + c as u8) as char, r + 1)))
        .collect()
}

/// A whole game: the human types every cell in turn (the engine's cells
/// are refused as occupied) until someone wins; then saves and quits.
#[test]
fn a_whole_game_through_a_pipe() {
    let sgf = scratch("whole.sgf");
    let mut input = all_cells(4, 4).join("\n");
    input.push_str(&format!("\nsave {}\nquit\n", sgf.display()));
    let (out, _) = play(&["--size", "4"], &input);
    // The empty board first, then boards with stones.
    assert!(out.contains("  a b c d\n1 . . . . 1\n"), "{out}");
    assert!(out.contains("Black (B) joins top and bottom"), "{out}");
    assert!(
        out.contains("black (you)> a1\n"),
        "commands are echoed: {out}"
    );
    assert!(out.contains("ferrohex plays "), "{out}");
    let end = out.find("Game over: ").expect("the end is announced");
    let winner = if out[end..].starts_with("Game over: Black (you) wins") {
        Color::Black
    } else {
        assert!(
            out[end..].starts_with("Game over: White (ferrohex) wins"),
            "{out}"
        );
        Color::White
    };
    assert!(out.contains("Saved the game ("), "{out}");
    assert!(out.contains("Goodbye."), "{out}");
    let game = load(&sgf);
    assert_eq!(game.winner(), Some(winner));
    // Moves after the end are refused, not played.
    let after = &out[end..];
    if after.contains("game over> d4") {
        assert!(after.contains("The game is over"), "{out}");
    }
}

#[test]
fn a_one_cell_board_is_won_at_once() {
    let (out, _) = play(&["--size", "1"], "a1\nb1\nquit\n");
    assert!(
        out.contains("Game over: Black (you) wins: you joined top and bottom."),
        "{out}"
    );
    assert!(out.contains("1(B)1"), "the winning stone is marked: {out}");
    assert!(
        out.contains("The game is over: undo, save FILE.sgf or quit."),
        "{out}"
    );
    // quit with an unsaved game asks again; the end of input then leaves.
    assert!(out.contains("The game is not saved"), "{out}");
    assert!(out.contains("End of input"), "{out}");
}

#[test]
fn bad_input_gets_clear_messages() {
    let input = "hello\nf9\nc3\nc3\nswap\nundo now\nsave\nhelp\n";
    let (out, _) = play(&["--size", "5"], input);
    assert!(
        out.contains("'hello' is not a move or a command (type help)"),
        "{out}"
    );
    assert!(
        out.contains("f9 is off the 5x5 board (columns a to e, rows 1 to 5)."),
        "{out}"
    );
    assert!(out.contains("c3 is occupied by a black stone"), "{out}");
    assert!(out.contains("The swap rule is off"), "{out}");
    assert!(out.contains("undo takes no argument"), "{out}");
    assert!(out.contains("usage: save FILE.sgf"), "{out}");
    assert!(out.contains("hint"), "help lists the commands: {out}");
    assert!(
        out.contains("End of input: leaving; the game was not saved."),
        "{out}"
    );
    // ... and the game is printed as SGF instead, so nothing is lost.
    assert!(out.contains("\n(;FF[4]GM[11]"), "{out}");
    assert!(out.contains("B[c3]"), "{out}");
}

#[test]
fn undo_takes_back_the_reply_and_your_move() {
    let sgf = scratch("undo.sgf");
    let input = format!("b2\nundo\nundo\nc2\nsave {}\n", sgf.display());
    let (out, _) = play(&["--size", "3"], &input);
    assert!(out.contains("Took back 2 moves."), "{out}");
    assert!(
        out.contains("There is no move of yours to take back."),
        "{out}"
    );
    let game = load(&sgf);
    // c2 and the engine's reply.
    assert_eq!(game.num_moves(), 2);
    let first = game.moves().next().unwrap();
    assert_eq!(first.0, Color::Black);
    assert_eq!(
        first.1,
        ferrohex::game::Move::Cell(game.geometry().parse_cell("c2").unwrap())
    );
}

#[test]
fn playing_white_the_engine_opens_and_hints() {
    let (out, _) = play(
        &["--size", "4", "--color", "white", "--level", "easy"],
        "hint\nquit\nquit\n",
    );
    let first_prompt = out.find("white (you)> ").expect("a prompt");
    let reply = out.find("ferrohex plays ").expect("the engine opens");
    assert!(reply < first_prompt, "{out}");
    assert!(
        out.contains("You are White and join left and right"),
        "{out}"
    );
    let hint = out.find("Hint: ").expect("a hint");
    let cell = out[hint + 6..].lines().next().unwrap();
    let game = Game::new(4, 4).unwrap();
    assert!(game.geometry().parse_cell(cell).is_some(), "hint {cell:?}");
    // A hint does not play.
    assert!(!out.contains("Move 2:"), "{out}");
}

#[test]
fn swap_either_way() {
    // The human (White) swaps the engine's opening stone.
    let sgf = scratch("swap-white.sgf");
    let input = format!("swap\nsave {}\n", sgf.display());
    let (out, _) = play(&["--size", "3", "--color", "white", "--swap"], &input);
    assert!(out.contains("Swap rule on."), "{out}");
    assert!(out.contains("You swap"), "{out}");
    assert!(out.contains("Move 2: White (you) swapped."), "{out}");
    let game = load(&sgf);
    assert!(
        game.moves()
            .any(|(c, m)| c == Color::White && m == ferrohex::game::Move::Swap)
    );
    // The engine (White) swaps a strong central opening.
    let (out, _) = play(&["--size", "5", "--swap"], "c3\n");
    assert!(out.contains("ferrohex swaps"), "{out}");
    // And does not swap a corner.
    let (out, _) = play(&["--size", "5", "--swap"], "a1\n");
    assert!(!out.contains("ferrohex swaps"), "{out}");
    assert!(out.contains("ferrohex plays"), "{out}");
}

#[test]
fn resigning_ends_the_game_and_is_saved() {
    let sgf = scratch("resign.sgf");
    let input = format!("b2\nresign\nc3\nsave {}\nquit\n", sgf.display());
    let (out, _) = play(&["--size", "4"], &input);
    assert!(
        out.contains("Game over: White (ferrohex) wins: you resigned."),
        "{out}"
    );
    assert!(out.contains("The game is over"), "{out}");
    let text = std::fs::read_to_string(&sgf).unwrap();
    assert!(text.contains("B[resign]"), "{text}");
    // The record loads: two moves, then the resignation.
    assert_eq!(load(&sgf).num_moves(), 2);
    // An undo takes the resignation back.
    let (out, _) = play(&["--size", "4"], "b2\nresign\nundo\nc3\n");
    assert!(out.contains("Resignation taken back."), "{out}");
    assert!(out.contains("Move 3: Black (you) played c3."), "{out}");
}

#[test]
fn sizes_and_flags() {
    let (out, _) = play(&["--size", "3x5"], "quit\n");
    assert!(out.contains("on a 3x5 board"), "{out}");
    assert!(out.contains("    5 . . . 5\n"), "{out}");
    for bad in [
        ["--size", "0"],
        ["--size", "27"],
        ["--color", "red"],
        ["--level", "silly"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_ferrohex"))
            .arg("play")
            .args(bad)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{bad:?}");
        assert!(!out.stderr.is_empty(), "{bad:?}");
    }
}
