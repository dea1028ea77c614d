//! Self-play soak: many short games at random sizes through the real
//! binary, with undo and `# interrupt` mixed in. Every answer is checked
//! by a referee that keeps its own board.
//!
//! CI runs a small budget. The long mode is for measuring:
//! `FERROHEX_SOAK_GAMES=1000 cargo test --release --test soak -- --nocapture`
//! plays that many games and also holds answers to the time budget plus
//! 50 ms and resident memory to no growth. (In CI only gross delays, over a
//! second, fail: the test machine's load must not decide the result.)

mod common;
use common::{Engine, Rng};
use ferrohex::board::Color;
use ferrohex::game::{Game, Move};
use std::time::{Duration, Instant};

#[derive(Default, Debug)]
struct Tally {
    games: usize,
    moves: usize,
    undos: usize,
    interrupts: usize,
    illegal: usize,
    late: usize,
    worst: Duration,
}

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn self_play_soak() {
    let games: usize = std::env::var("FERROHEX_SOAK_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12);
    let long = games > 12;
    let budget = Duration::from_millis(40);
    let allowed = if long {
        budget + Duration::from_millis(50)
    } else {
        budget + Duration::from_secs(1)
    };
    let mut e = Engine::start(&["--max-time", "0.04", "--threads", "2", "--tt-mb", "16"]);
    let pid = e.child.id();
    let mut rng = Rng(0x5eed_0000_0000_0001 ^ games as u64);
    let mut t = Tally::default();
    let mut rss_after_warmup = None;
    for g in 0..games {
        let size = 2 + rng.below(12);
        assert_eq!(e.ask(&format!("boardsize {size}")), "=");
        let mut referee = Game::new(size, size).unwrap();
        while referee.winner().is_none() {
            let color = referee.to_move();
            let name = if color == Color::Black { "b" } else { "w" };
            let interrupt = rng.below(5) == 0;
            let start = Instant::now();
            e.send(&format!("genmove {name}"));
            if interrupt {
                e.send("# interrupt");
                t.interrupts += 1;
            }
            let answer = e.answer();
            let took = start.elapsed();
            t.worst = t.worst.max(took);
            if took > allowed {
                t.late += 1;
                eprintln!(
                    "late: {took:?} on {size}x{size} after {} moves",
                    referee.moves().count()
                );
            }
            let legal = answer
                .strip_prefix("= ")
                .and_then(|c| referee.geometry().parse_cell(c))
                .is_some_and(|c| referee.play(color, Move::Cell(c)).is_ok());
            if !legal {
                t.illegal += 1;
                eprintln!("illegal answer {answer:?} in game {g}");
                break;
            }
            t.moves += 1;
            if referee.winner().is_none() && rng.below(10) == 0 {
                assert_eq!(e.ask("undo"), "=");
                referee.undo().unwrap();
                t.undos += 1;
            }
        }
        let score = e.ask("final_score");
        let expect = match referee.winner() {
            Some(Color::Black) => "= B+",
            Some(Color::White) => "= W+",
            None => "",
        };
        assert_eq!(score, expect, "engine and referee agree on the winner");
        t.games += 1;
        if g == games / 10 {
            rss_after_warmup = rss_kib(pid);
        }
    }
    let rss_end = rss_kib(pid);
    assert_eq!(e.ask("name"), "= ferrohex", "still answering");
    let (status, rest) = e.finish();
    eprintln!("soak: {t:?}, rss after warm-up {rss_after_warmup:?} KiB, at end {rss_end:?} KiB");
    assert!(
        status.success(),
        "exit status {status:?} (a panic exits non-zero)"
    );
    assert!(rest.is_empty());
    assert_eq!(t.illegal, 0);
    assert_eq!(
        t.late, 0,
        "answers later than {allowed:?}; worst {:?}",
        t.worst
    );
    assert_eq!(t.games, games);
    if let (true, Some(a), Some(b)) = (long, rss_after_warmup, rss_end) {
        assert!(
            b <= a + 8 * 1024,
            "resident memory grew from {a} KiB to {b} KiB"
        );
    }
}
