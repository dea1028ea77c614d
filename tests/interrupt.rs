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
