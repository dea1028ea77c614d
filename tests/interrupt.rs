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

/// The solver's proof stops the search through the search's own early
/// stop, not the user's interrupt: a caller that does not clear the
/// interrupt between moves (as `ferrohex play` calls the engine) must not
/// find its next search stopped before it starts.
#[test]
fn a_proof_does_not_raise_the_interrupt() {
    use ferrohex::board::Color;
    use ferrohex::search::SearchParams;
    use std::sync::atomic::Ordering;
    let params = SearchParams {
        threads: 2,
        ..SearchParams::default()
    };
    // 36 empty cells: the solver runs beside the search and proves the
    // first player's win long before the search's 30 s are up.
    let mut engine = ferrohex::engine::Engine::new(params, Duration::from_secs(30));
    engine.boardsize(6, 6).unwrap();
    let (first, took) = timed(|| engine.genmove(Color::Black, true, &mut |_| {}).unwrap());
    assert!(
        took < Duration::from_secs(25),
        "the proof stopped the search"
    );
    assert!(
        !engine.stop_flag().load(Ordering::SeqCst),
        "the proof left the interrupt raised"
    );
    // And the next search runs: White's reply is a real search's (a move
    // found with the search's depth reports, not the stopped search's
    // first-ordered cell at depth 0).
    let mut depths = 0;
    let second = engine
        .genmove(Color::White, true, &mut |_| depths += 1)
        .unwrap();
    assert!(depths > 0, "the second search reported no depth");
    assert_ne!(first.choice, second.choice);
}
