//! Tables the user sizes under a memory limit, as a cluster job or a
//! container imposes: a size that cannot be had is refused with a reason,
//! the engine keeps playing, and a start-up size that cannot be had ends
//! the process with exit code 2 instead of an abort.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{answers, binary};

/// Runs the binary under `ulimit -v` (KiB) with `args`, `input` on stdin.
fn under_limit(kib: u64, args: &str, input: &str) -> std::process::Output {
    let script = format!("ulimit -v {kib} && exec \"$0\" {args}");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(binary())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sh");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().expect("wait")
}

#[test]
fn a_table_beyond_the_limit_is_refused_and_play_goes_on() {
    let input = "param_ferrohex tt_mb 8000\n\
                 param_dfpn tt_mb 8000\n\
                 boardsize 7\n\
                 play b d4\n\
                 genmove w\n\
                 param_ferrohex tt_mb 16\n\
                 param_ferrohex\n";
    let out = under_limit(4_000_000, "--max-time 0.2 --threads 1", input);
    assert!(out.status.success(), "{out:?}");
    let a = answers(&out.stdout);
    assert_eq!(a.len(), 7, "{a:?}");
    assert!(
        a[0].starts_with("? cannot allocate 8000 MiB for the transposition table"),
        "{}",
        a[0]
    );
    assert!(
        a[1].starts_with("? cannot allocate 12000 MiB for the solver's tables"),
        "{}",
        a[1]
    );
    assert!(a[4].starts_with("= ") && a[4].len() > 2, "a move: {}", a[4]);
    assert_eq!(a[5], "=");
    assert!(a[6].contains("tt_mb 16"), "{}", a[6]);
}

#[test]
fn a_startup_table_beyond_the_limit_exits_with_code_2() {
    let out = under_limit(4_000_000, "--tt-mb 8000", "");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot allocate 8000 MiB"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn numeric_parameters_name_their_range() {
    let a =
        common::session("param_ferrohex max_time 99999999999999999999\nparam_ferrohex width -1\n");
    assert!(a[0].contains("at most 1000000"), "{}", a[0]);
    assert!(a[1].contains("expected 0 to"), "{}", a[1]);
}
