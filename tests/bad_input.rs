//! A corpus of bad input: each line gets one clear `? reason` answer, the
//! engine keeps running, and the game, clocks and parameters are unchanged.

mod common;
use common::*;
use std::path::PathBuf;

fn tmp(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = tmp_root().join(format!("ferrohex-bad-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// (input line, a phrase the `?` answer must contain)
fn corpus() -> Vec<(Vec<u8>, &'static str)> {
    let sgf = |name: &str, bytes: &[u8]| tmp(name, bytes).display().to_string();
    let good = sgf("good.sgf", b"(;FF[4]GM[11]SZ[5];B[a1])");
    let enormous = {
        let mut v = b"(;FF[4]GM[11]SZ[5]C[".to_vec();
        v.extend(std::iter::repeat_n(b'x', 17 << 20));
        v.extend_from_slice(b"])");
        sgf("enormous.sgf", &v)
    };
    let nested = sgf("nested.sgf", &[b'('; 100_000]);
    let deep_tree = {
        let mut v = Vec::new();
        for _ in 0..50_000 {
            v.extend_from_slice(b"(;");
        }
        v.extend_from_slice(b"B[zz]");
        v.extend(std::iter::repeat_n(b')', 50_000));
        sgf("deep.sgf", &v)
    };
    let text: Vec<(String, &str)> = vec![
        ("frobnicate".into(), "unknown command"),
        ("play".into(), "wrong number of arguments"),
        ("play b".into(), "wrong number of arguments"),
        ("play b c3 d4".into(), "wrong number of arguments"),
        ("genmove".into(), "wrong number of arguments"),
        ("genmove b w".into(), "wrong number of arguments"),
        ("reg_genmove".into(), "wrong number of arguments"),
        ("boardsize".into(), "wrong number of arguments"),
        ("boardsize 0".into(), "not supported"),
        ("boardsize 27".into(), "not supported"),
        ("boardsize 27 5".into(), "not supported"),
        ("boardsize 5 27".into(), "not supported"),
        ("boardsize 5 0".into(), "not supported"),
        ("boardsize -1".into(), "invalid board size"),
        ("boardsize 99999999999999999999999999".into(), "too large"),
        ("boardsize 1.5".into(), "invalid board size"),
        ("boardsize 1 2 3".into(), "wrong number of arguments"),
        ("boardsize x y".into(), "invalid board width"),
        ("play x c3".into(), "invalid color"),
        ("play blue c3".into(), "invalid color"),
        ("play b z99".into(), "off the"),
        ("play b a0".into(), "invalid move"),
        ("play b a-1".into(), "invalid move"),
        ("play b 1a".into(), "invalid move"),
        ("play b l1".into(), "off the 11x11 board"),
        ("play b a12".into(), "off the 11x11 board"),
        ("play b a99999999999999999999".into(), "invalid move"),
        ("play w f6".into(), "occupied"),
        ("play B F6".into(), "occupied"),
        ("play w swap-pieces".into(), "not allowed"),
        ("play b pass".into(), "invalid move"),
        ("play b resign".into(), "invalid move"),
        ("genmove x".into(), "invalid color"),
        ("reg_genmove purple".into(), "invalid color"),
        ("undo 1".into(), "wrong number of arguments"),
        ("showboard now".into(), "wrong number of arguments"),
        ("clear_board please".into(), "wrong number of arguments"),
        ("final_score".into(), "not over"),
        ("final_score b".into(), "wrong number of arguments"),
        ("all_legal_moves".into(), "wrong number of arguments"),
        ("all_legal_moves q".into(), "invalid color"),
        ("loadsgf".into(), "wrong number of arguments"),
        ("loadsgf /no/such/file.sgf".into(), "cannot read"),
        (format!("loadsgf {}", tmp_root().display()), "directory"),
        (format!("loadsgf {}", sgf("empty.sgf", b"")), "cannot load"),
        (
            format!(
                "loadsgf {}",
                sgf("truncated.sgf", b"(;FF[4]GM[11]SZ[5];B[a1];W[b")
            ),
            "cannot load",
        ),
        (
            format!(
                "loadsgf {}",
                sgf(
                    "binary.sgf",
                    &(0..=255u8).cycle().take(10_000).collect::<Vec<_>>()
                )
            ),
            "cannot load",
        ),
        (format!("loadsgf {nested}"), "cannot load"),
        (format!("loadsgf {deep_tree}"), "cannot load"),
        (format!("loadsgf {enormous}"), "over 16 MiB"),
        (
            format!("loadsgf {}", sgf("go.sgf", b"(;FF[4]GM[1]SZ[19];B[dd])")),
            "cannot load",
        ),
        (
            format!("loadsgf {}", sgf("size30.sgf", b"(;FF[4]GM[11]SZ[30])")),
            "cannot load",
        ),
        (
            format!(
                "loadsgf {}",
                sgf("illegal.sgf", b"(;FF[4]GM[11]SZ[5];B[a1];W[a1])")
            ),
            "illegal",
        ),
        (format!("loadsgf {good} 0"), "move number"),
        (format!("loadsgf {good} -3"), "invalid move number"),
        (format!("loadsgf {good} x"), "invalid move number"),
        (format!("loadsgf {good} 1 2"), "wrong number of arguments"),
        ("loadsgf /dev/zero".into(), "not a regular file"),
        ("printsgf /no/such/dir/x.sgf".into(), "cannot write"),
        ("printsgf a b".into(), "wrong number of arguments"),
        ("time_left".into(), "wrong number of arguments"),
        ("time_left b".into(), "wrong number of arguments"),
        ("time_left b -5".into(), "invalid time"),
        ("time_left b abc".into(), "invalid time"),
        ("time_left b inf".into(), "invalid time"),
        ("time_left b 10 -1".into(), "invalid stone count"),
        ("time_left q 10".into(), "invalid color"),
        ("time_settings 1 2".into(), "wrong number of arguments"),
        ("time_settings -1 0 0".into(), "invalid main time"),
        ("time_settings 1e99 0 0".into(), "invalid main time"),
        ("time_settings 10 5 x".into(), "invalid byo-yomi stones"),
        ("param_game allow_swap 7".into(), "invalid value"),
        ("param_game nope 1".into(), "unknown parameter"),
        ("param_game allow_swap".into(), "wrong number of arguments"),
        ("param_ferrohex max_time -1".into(), "invalid max_time"),
        ("param_ferrohex max_time abc".into(), "invalid max_time"),
        ("param_ferrohex max_time 0".into(), "invalid max_time"),
        ("param_ferrohex threads -1".into(), "invalid threads"),
        ("param_ferrohex tt_mb 0".into(), "invalid tt_mb"),
        ("param_ferrohex tt_mb 99999999".into(), "invalid tt_mb"),
        (
            "param_ferrohex max_depth 1 2".into(),
            "wrong number of arguments",
        ),
        ("param_ferrohex level superhuman".into(), "unknown level"),
        ("param_ferrohex resign maybe".into(), "invalid value"),
        ("param_ferrohex bogus 3".into(), "unknown parameter"),
        ("known_command".into(), "wrong number of arguments"),
        ("name extra".into(), "wrong number of arguments"),
        ("protocol_version 2".into(), "wrong number of arguments"),
        ("99999999999999999999 name".into(), "too large"),
        ("12".into(), "missing command"),
        ("12 frobnicate".into(), "unknown command"),
        (format!("play b {}", "a".repeat(1 << 20)), "invalid move"),
        ("gogui-interrupt now".into(), "wrong number of arguments"),
        (
            "hexgui-analyze_commands x".into(),
            "wrong number of arguments",
        ),
    ];
    let mut out: Vec<(Vec<u8>, &str)> =
        text.into_iter().map(|(t, e)| (t.into_bytes(), e)).collect();
    out.push((b"foo\0bar".to_vec(), "unknown command: foobar"));
    out.push((b"play b \xff\xfe".to_vec(), "invalid move"));
    out.push((b"\xc3\x28 name".to_vec(), "unknown command"));
    out.push((vec![b'x'; 5 << 20], "line too long"));
    out.push((b"name\rversion\r".to_vec(), "unknown command: nameversion"));
    out
}

#[test]
fn every_bad_line_gets_a_clear_error_and_changes_nothing() {
    let cases = corpus();
    assert!(cases.len() >= 60, "{} cases", cases.len());
    let mut input =
        b"boardsize 11\nplay b f6\nplay w e7\ntime_settings 300 10 5\ntime_left b 100 0\n".to_vec();
    let state = b"showboard\nprintsgf\nparam_game\nparam_ferrohex\n";
    input.extend_from_slice(state);
    for (line, _) in &cases {
        input.extend_from_slice(line);
        input.push(b'\n');
        input.extend_from_slice(state);
    }
    input.extend_from_slice(b"name\n");
    let out = run_raw(&[], &input);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let a = answers(&out.stdout);
    assert_eq!(
        a.len(),
        5 + 4 + cases.len() * 5 + 1,
        "one answer per command"
    );
    let before = &a[5..9];
    for (i, (line, expect)) in cases.iter().enumerate() {
        let at = 9 + i * 5;
        let shown = String::from_utf8_lossy(&line[..line.len().min(60)]).to_string();
        assert!(a[at].starts_with('?'), "{shown:?} answered {:?}", a[at]);
        assert!(
            a[at].contains(expect),
            "{shown:?}: {:?} lacks {expect:?}",
            a[at]
        );
        assert_eq!(a[at].lines().count(), 1, "{shown:?}: one-line reason");
        assert_eq!(&a[at + 1..at + 5], before, "{shown:?} changed the state");
    }
    assert_eq!(a.last().unwrap(), "= ferrohex", "the engine keeps running");
}

#[test]
fn refusals_that_need_a_particular_game() {
    let a = session(
        "boardsize 3\nundo\nplay b a1\nplay b a2\nplay b a3\nplay w b1\ngenmove w\nshowboard\nundo\nundo\nundo\nundo\nundo\n",
    );
    assert!(a[1].contains("no move to undo"));
    assert!(
        a[5].contains("game is over"),
        "play after the win: {}",
        a[5]
    );
    assert!(
        a[6].contains("game is over"),
        "genmove after the win: {}",
        a[6]
    );
    assert!(a[7].contains("Game over: black has won."));
    assert_eq!(&a[8..11], ["=", "=", "="]);
    assert!(a[12].contains("no move to undo"));
    let a = session(
        "boardsize 5\nparam_game allow_swap 1\nplay b c2\nplay w d4\nplay w swap-pieces\nplay b e5\nplay w swap\n",
    );
    assert!(a[4].contains("second move"), "{}", a[4]);
    assert!(a[6].contains("second move"), "{}", a[6]);
}
