//! `# interrupt` (HexGui's Stop button) ends a long search promptly.

mod common;
use common::*;
use std::time::{Duration, Instant};

#[test]
fn interrupt_during_genmove_answers_a_move_promptly() {
    let mut e = Engine::start(&["--max-time", "600", "--threads", "2"]);
    assert_eq!(e.ask("gogui-interrupt"), "=");
    assert_eq!(e.ask("boardsize 13"), "=");
    assert_eq!(e.ask("play b g7"), "=");
    e.send("genmove w");
    std::thread::sleep(Duration::from_millis(500));
    let start = Instant::now();
    e.send("# interrupt");
    let answer = e.answer();
    // A 600-second search stopped by the interrupt: far sooner than its budget.
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "took {:?}",
        start.elapsed()
    );
    let cell = answer.strip_prefix("= ").expect("a move");
    assert_ne!(cell, "g7");
    assert!(
        e.ask("showboard")
            .contains(&format!("Last move: white {cell}"))
    );
    // The engine keeps working afterwards, and the interrupt is spent.
    assert_eq!(e.ask("param_ferrohex max_depth 1"), "=");
    assert!(e.ask("genmove b").starts_with("= "));
    assert_eq!(e.ask("name"), "= ferrohex");
    let (status, rest) = e.finish();
    assert!(status.success());
    assert!(rest.is_empty());
}

/// When the search stops early (here at its depth limit) the solver gets
/// the rest of the move's time; an interrupt still ends that wait at once.
#[test]
fn interrupt_ends_the_wait_for_the_solver() {
    let mut e = Engine::start(&["--max-time", "600"]);
    assert_eq!(e.ask("boardsize 8"), "=");
    assert_eq!(e.ask("param_ferrohex max_depth 1"), "=");
    assert_eq!(e.ask("play b d5"), "=");
    assert_eq!(e.ask("play w e4"), "=");
    // 62 empty cells: the solver runs beside the search, and an 8x8
    // middle game is far beyond it in a few seconds.
    let sent = Instant::now();
    e.send("genmove b");
    std::thread::sleep(Duration::from_millis(1500));
    let start = Instant::now();
    e.send("# interrupt");
    let answer = e.answer();
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "took {:?}",
        start.elapsed()
    );
    // The depth-1 search alone takes milliseconds: the answer waited.
    assert!(sent.elapsed() >= Duration::from_millis(1500));
    assert!(answer.starts_with("= "), "{answer}");
    assert_eq!(e.ask("name"), "= ferrohex");
    let (status, _) = e.finish();
    assert!(status.success());
}
