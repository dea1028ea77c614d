//! loadsgf and printsgf through the real binary.

mod common;
use common::*;
use std::path::PathBuf;

fn tmp(name: &str) -> PathBuf {
    let dir = tmp_root().join(format!("ferrohex-sgf-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn count_stones(board: &str, rows: usize) -> (usize, usize) {
    let rows: Vec<&str> = board.lines().skip(2).take(rows).collect();
    let b = rows.iter().map(|l| l.matches('B').count()).sum();
    let w = rows.iter().map(|l| l.matches('W').count()).sum();
    (b, w)
}

#[test]
fn loads_every_endgame_position_with_its_stones_and_player() {
    let dir = data("sgf/endgame");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 40);
    let mut input = String::new();
    for f in &files {
        input.push_str(&format!("loadsgf {}\nshowboard\n", f.display()));
    }
    let a = session(&input);
    for (i, f) in files.iter().enumerate() {
        let text = std::fs::read_to_string(f).unwrap();
        let ab = text
            .split("AB")
            .nth(1)
            .map_or(0, |s| s.split("AW").next().unwrap().matches('[').count());
        let aw = text.split("AW").nth(1).map_or(0, |s| {
            s.split(['P', ')']).next().unwrap().matches('[').count()
        });
        assert_eq!(a[2 * i], "=", "{}: {}", f.display(), a[2 * i]);
        let size: usize = text
            .split("SZ[")
            .nth(1)
            .unwrap()
            .split(']')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(
            count_stones(&a[2 * i + 1], size),
            (ab, aw),
            "{}",
            f.display()
        );
        if text.contains("PL[B]") {
            assert!(a[2 * i + 1].contains("Black to play"), "{}", f.display());
        }
        if text.contains("PL[W]") {
            assert!(a[2 * i + 1].contains("White to play"), "{}", f.display());
        }
    }
}

#[test]
fn loads_moves_up_to_a_move_number_and_undoes_them() {
    let f = data("sgf/opening/5x5a3.sgf");
    let a = session(&format!(
        "loadsgf {0}\nshowboard\nundo\nundo\nloadsgf {0} 1\nshowboard\nloadsgf {0} 9\nshowboard\n",
        f.display()
    ));
    assert_eq!(a[0], "=");
    assert!(
        a[1].contains("Last move: black a3") && a[1].contains("White to play"),
        "{}",
        a[1]
    );
    assert_eq!(count_stones(&a[1], 5), (1, 0));
    assert_eq!(a[2], "=");
    assert!(a[3].starts_with("? "));
    assert_eq!(
        count_stones(&a[5], 5),
        (0, 0),
        "before move 1 the board is empty"
    );
    assert_eq!(a[7], a[1], "a move number past the end loads everything");
}

#[test]
fn setup_stones_cannot_be_undone() {
    let f = data("sgf/opening/6x6a1.sgf");
    let a = session(&format!("loadsgf {}\nundo\nshowboard\n", f.display()));
    assert!(a[1].starts_with("? "), "{}", a[1]);
    assert_eq!(count_stones(&a[2], 6), (1, 0));
    assert!(
        a[2].contains("White to play"),
        "one more Black stone than White: White moves"
    );
}

#[test]
fn unreadable_files_are_refused_and_change_nothing() {
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty.sgf", vec![]),
        ("binary.sgf", (0..=255u8).cycle().take(5000).collect()),
        ("truncated.sgf", b"(;FF[4]GM[11]SZ[5];B[a1];W[b".to_vec()),
        ("chess.sgf", b"(;FF[4]GM[1]SZ[9];B[aa])".to_vec()),
        ("big.sgf", b"(;FF[4]GM[11]SZ[30])".to_vec()),
        ("offboard.sgf", b"(;FF[4]GM[11]SZ[5];B[f1])".to_vec()),
        ("occupied.sgf", b"(;FF[4]GM[11]SZ[5];B[a1];W[a1])".to_vec()),
        ("nested.sgf", std::iter::repeat_n(b'(', 200_000).collect()),
        ("nul.sgf", b"(;FF[4]GM[11]\0SZ[5])".to_vec()),
    ];
    let mut input = String::from("boardsize 7\nplay b d4\nshowboard\n");
    for (name, bytes) in &cases {
        let p = tmp(name);
        std::fs::write(&p, bytes).unwrap();
        input.push_str(&format!("loadsgf {}\n", p.display()));
    }
    input.push_str(&format!(
        "loadsgf {}\n",
        tmp("does-not-exist.sgf").display()
    ));
    input.push_str(&format!("loadsgf {}\n", tmp_root().display()));
    input.push_str("showboard\n");
    let a = session(&input);
    let n = cases.len() + 2;
    for (i, e) in a[3..3 + n].iter().enumerate() {
        assert!(e.starts_with("? cannot"), "case {i}: {e}");
        assert_eq!(e.lines().count(), 1, "one-line reason: {e}");
    }
    assert_eq!(a[2], a[3 + n], "the game is unchanged");
}

#[test]
fn printsgf_round_trips_through_a_file() {
    let p = tmp("round.sgf");
    let a = session(&format!(
        "boardsize 6\nparam_game allow_swap 1\nplay b b3\nplay w swap-pieces\nplay b d4\nplay w a1\nprintsgf\nshowboard\nprintsgf {0}\nclear_board\nloadsgf {0}\nshowboard\nundo\nundo\nundo\nshowboard\n",
        p.display()
    ));
    assert_eq!(
        a[6],
        format!(
            "= (;FF[4]GM[11]AP[ferrohex:{}]SZ[6];B[b3];W[swap-pieces];B[d4];W[a1])",
            env!("CARGO_PKG_VERSION")
        )
    );
    assert_eq!(a[8], "=");
    assert_eq!(a[10], "=");
    assert_eq!(a[7], a[11], "save then load gives back the position");
    assert!(
        a[15].contains("Last move: black b3"),
        "undo goes back through the swap: {}",
        a[15]
    );
    let a = session(&format!(
        "printsgf {}\n",
        tmp_root().join("no/such/dir/x.sgf").display()
    ));
    assert!(a[0].starts_with("? cannot write"), "{}", a[0]);
}

#[test]
fn setup_positions_print_as_setup() {
    let f = data("sgf/endgame/simple-endgame03.sgf");
    let p = tmp("setup.sgf");
    let a = session(&format!(
        "loadsgf {0}\nprintsgf\nshowboard\nprintsgf {1}\nloadsgf {1}\nshowboard\n",
        f.display(),
        p.display()
    ));
    assert!(
        a[1].contains("AB[g2]") && a[1].contains("AW[f2]") && a[1].contains("PL[B]"),
        "{}",
        a[1]
    );
    assert_eq!(a[2], a[5]);
}
