//! Safe mode (`--safe`, `param_game safe 1`), for a bot relaying commands
//! from people it does not know: no command touches a file, tables and
//! threads are capped, each refusal says why, and the game goes on.

mod common;

use common::{data, scratch_dir, session_with};

/// The commands that read or write files.
fn file_commands(sgf_in: &str, sgf_out: &str, svg_out: &str, board_in: &str) -> String {
    format!("loadsgf {sgf_in}\nprintsgf {sgf_out}\nshowboard-svg {svg_out}\nloadboard {board_in}\n")
}

#[test]
fn safe_mode_touches_no_file_and_play_goes_on() {
    let sgf_in = data("sgf/opening/5x5a3.sgf");
    let board_in = data("diagrams/connect-empty.txt");
    assert!(sgf_in.exists() && board_in.exists(), "test data");
    let dir = scratch_dir("safe-files");
    let (sgf_out, svg_out) = (dir.join("out.sgf"), dir.join("out.svg"));
    let files = file_commands(
        sgf_in.to_str().unwrap(),
        sgf_out.to_str().unwrap(),
        svg_out.to_str().unwrap(),
        board_in.to_str().unwrap(),
    );
    let input = format!("boardsize 5\nplay b c3\n{files}printsgf\nshowboard-svg\ngenmove w\n");
    let a = session_with(&["--safe"], &input);
    assert_eq!(a.len(), 9, "{a:?}");
    for answer in &a[2..6] {
        assert!(
            answer.starts_with("? safe mode: files are off limits"),
            "{answer}"
        );
    }
    assert!(!sgf_out.exists() && !svg_out.exists(), "no file written");
    // The position is the one played, not a loaded one.
    assert!(
        a[6].contains(";B[c3])") && a[6].contains("SZ[5]"),
        "{}",
        a[6]
    );
    assert!(
        a[7].starts_with("= <?xml") && a[7].contains("<svg"),
        "{}",
        a[7]
    );
    assert!(a[8].starts_with("= ") && a[8].len() > 2, "{}", a[8]);

    // Without safe mode the same commands work.
    let a = session_with(&[], &format!("boardsize 5\nplay b c3\n{files}"));
    assert!(a.iter().all(|x| x.starts_with('=')), "{a:?}");
    assert!(sgf_out.exists() && svg_out.exists());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn safe_mode_caps_tables_and_threads() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let input = format!(
        "param_ferrohex tt_mb 2048\nparam_dfpn tt_mb 4096\nparam_ferrohex threads {}\n\
         param_ferrohex tt_mb 32\nparam_dfpn tt_mb 32\nparam_ferrohex threads {cores}\n\
         param_ferrohex\nparam_dfpn\n",
        cores + 1
    );
    let a = session_with(&["--safe"], &input);
    assert_eq!(a.len(), 8, "{a:?}");
    assert_eq!(
        a[0],
        "? invalid tt_mb: 2048 (expected 1 to 1024 in safe mode)"
    );
    assert_eq!(
        a[1],
        "? invalid tt_mb: 4096 (expected 1 to 1024 in safe mode)"
    );
    assert_eq!(
        a[2],
        format!(
            "? invalid threads: {} (expected 0 to {cores} in safe mode: one per core)",
            cores + 1
        )
    );
    assert_eq!(&a[3..6], ["=", "=", "="]);
    assert!(
        a[6].contains("tt_mb 32") && a[6].contains(&format!("threads {cores}")),
        "{}",
        a[6]
    );
    assert!(a[7].contains("tt_mb 32"), "{}", a[7]);
    // The same sizes are fine without safe mode.
    let a = session_with(&[], "param_ferrohex tt_mb 2048\nparam_ferrohex tt_mb 64\n");
    assert_eq!(a, ["=", "="]);
}

#[test]
fn a_bot_can_turn_safe_mode_on_but_nobody_can_turn_it_off() {
    let dir = scratch_dir("safe-late");
    let out = dir.join("late.sgf");
    let input = format!(
        "param_game\nprintsgf {0}\nparam_game safe 1\nparam_game safe 0\nprintsgf {0}\nparam_game\n",
        out.display()
    );
    let a = session_with(&[], &input);
    assert_eq!(a.len(), 6, "{a:?}");
    assert!(a[0].contains("[bool] safe 0"), "{}", a[0]);
    assert_eq!(a[1], "=");
    std::fs::remove_file(&out).unwrap();
    assert_eq!(a[2], "=");
    assert_eq!(a[3], "? safe mode cannot be turned off");
    assert!(
        a[4].starts_with("? safe mode: files are off limits"),
        "{}",
        a[4]
    );
    assert!(!out.exists(), "no file after safe mode went on");
    assert!(a[5].contains("[bool] safe 1"), "{}", a[5]);
    let _ = std::fs::remove_dir_all(dir);
}
