//! `ferrohex winner`: the winner of text diagrams, through the real binary.
//! The diagrams are in tests/data/diagrams: the classic "connect" puzzle
//! cases (written in the common convention: O joins top and bottom, X left
//! and right), rectangular boards, one diagram in the seed's reversed
//! letters, and ferrohex's own showboard pictures.

mod common;

use std::path::PathBuf;
use std::process::Output;

fn diagram(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/diagrams")
        .join(name)
}

fn run(args: &[&str], input: &str) -> Output {
    common::run_with(args, input.as_bytes())
}

/// The printed answer and the exit code.
fn winner(args: &[&str]) -> (String, i32) {
    let mut all = vec!["winner"];
    all.extend_from_slice(args);
    let out = run(&all, "");
    (
        String::from_utf8(out.stdout)
            .unwrap()
            .trim_end()
            .to_string(),
        out.status.code().unwrap(),
    )
}

/// Every diagram file with its expected answers: (file, letters, answer).
const CASES: &[(&str, &str, &str)] = &[
    ("connect-empty.txt", "common", "none"),
    ("connect-x-1x1.txt", "common", "X"),
    ("connect-o-1x1.txt", "common", "O"),
    ("connect-only-edges.txt", "common", "none"),
    ("connect-illegal-diagonal.txt", "common", "none"),
    ("connect-adjacent-angles.txt", "common", "none"),
    ("connect-x-left-right.txt", "common", "X"),
    ("connect-o-top-bottom.txt", "common", "O"),
    ("connect-x-convoluted.txt", "common", "X"),
    ("connect-x-spiral.txt", "common", "X"),
    ("rect-5x3-o.txt", "common", "O"),
    ("rect-3x6-x.txt", "common", "X"),
    ("rect-3x6-none.txt", "common", "none"),
    ("seed-letters.txt", "seed", "X"),
    ("seed-letters.txt", "common", "none"),
    ("showboard-4x5-won.txt", "common", "B"),
    ("showboard-11x11.txt", "common", "none"),
];

#[test]
fn every_diagram_has_its_expected_winner() {
    for &(file, letters, expected) in CASES {
        let path = diagram(file);
        let (answer, code) = winner(&[path.to_str().unwrap(), "--letters", letters]);
        assert_eq!(answer, expected, "{file} with --letters {letters}");
        assert_eq!(
            code,
            if expected == "none" { 1 } else { 0 },
            "{file}: exit code"
        );
    }
    // Every file in the folder is covered above.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/diagrams");
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(
            CASES.iter().any(|c| c.0 == name),
            "{name} has no expected answer"
        );
    }
}

#[test]
fn letters_swap_the_meaning_of_x_and_o() {
    // O joins top and bottom: a win in the common convention, where O is
    // the top-bottom player; with the seed's letters O is the left-right
    // player, and its stones do not join left and right.
    let o = diagram("connect-o-top-bottom.txt");
    assert_eq!(winner(&[o.to_str().unwrap()]).0, "O");
    assert_eq!(
        winner(&[o.to_str().unwrap(), "--letters", "seed"]).0,
        "none"
    );
    // A lone stone on a 1x1 board wins for whoever owns it.
    let x = diagram("connect-x-1x1.txt");
    assert_eq!(winner(&[x.to_str().unwrap(), "--names"]).0, "white");
    assert_eq!(
        winner(&[x.to_str().unwrap(), "--names", "--letters", "seed"]).0,
        "black"
    );
    let o = diagram("connect-o-1x1.txt");
    assert_eq!(winner(&[o.to_str().unwrap(), "--names"]).0, "black");
    let out = run(
        &["winner", "--letters", "sideways", x.to_str().unwrap()],
        "",
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("common"));
}

#[test]
fn names_and_standard_input() {
    let out = run(&["winner", "-", "--names"], ". O\n O .\n");
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "black\n");
    assert_eq!(out.status.code(), Some(0));
    let out = run(&["winner", "-"], "W W W\n . . .\n  . . .\n");
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "W\n");
    let out = run(&["winner", "-", "--names"], "...\n...\n");
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "none\n");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn unreadable_diagrams_exit_2_with_a_reason() {
    let cases = [
        (". . .\n . .\n", "line 2"),
        (". Z .\n", "'Z'"),
        ("", "no board rows"),
        ("  a b c\n1 . . 1\n", "columns"),
        ("1 . . 1\n 3 . . 3\n", "numbered 3"),
    ];
    for (input, reason) in cases {
        let out = run(&["winner", "-"], input);
        assert_eq!(out.status.code(), Some(2), "{input:?}");
        assert!(out.stdout.is_empty(), "{input:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(reason), "{input:?}: {err}");
    }
    let out = run(&["winner", "/nonexistent/diagram.txt"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}

/// showboard's picture, fed back to `winner`, gives the game's result.
#[test]
fn showboard_pictures_read_back() {
    let session = "boardsize 3 4\nplay b b1\nplay w a2\nplay b b2\nplay w c2\nshowboard\nplay b a3\nshowboard\nplay b a4\nshowboard\nfinal_score\n";
    let out = run(&[], session);
    let text = String::from_utf8(out.stdout).unwrap();
    let answers: Vec<&str> = text.split_terminator("\n\n").collect();
    let boards: Vec<&str> = answers
        .iter()
        .filter(|a| a.contains("joins"))
        .copied()
        .collect();
    assert_eq!(boards.len(), 3, "{text}");
    assert!(answers.last().unwrap().contains("B+"), "{text}");
    let expected = ["none", "none", "black"];
    for (board, want) in boards.iter().zip(expected) {
        let out = run(&["winner", "-", "--names"], board);
        assert_eq!(
            String::from_utf8(out.stdout).unwrap().trim(),
            want,
            "{board}"
        );
    }
}
