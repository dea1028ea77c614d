//! Self-play soak: many short games at random sizes through the real
//! binary, with undo and `# interrupt` mixed in. Every answer is checked
//! by a referee that keeps its own board.
//!
//! CI runs a small budget. The long mode is for measuring:
//! `FERROHEX_SOAK_GAMES=1000 cargo test --release --test soak -- --nocapture`
//! plays that many games and also holds answers to the time budget plus
//! 50 ms and resident memory to its tables plus 160 MiB. (In CI only gross
//! delays, over a second, fail: the test machine's load must not decide the
//! result.)

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

/// What the engine may hold besides its tables, in MiB (protocol.md,
/// Memory): the soak against Wolve and MoHex peaked at about 130 MiB above
/// its 176 MiB of tables, after growing as the tables filled.
const BESIDE_TABLES_MIB: u64 = 160;

/// The resident memory allowed with `--tt-mb tt_mb` and the solver's
/// default table: the search's table, the connection search's 16 MiB, the
/// solver's 64 and the verifier's 32, and [`BESIDE_TABLES_MIB`].
fn resident_bound_kib(tt_mb: u64) -> u64 {
    (tt_mb + 16 + 64 + 32 + BESIDE_TABLES_MIB) * 1024
}

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Asks `genmove COLOR`, sending `# interrupt` after `interrupt` when
/// given; counts the answer in `t`, late when it took more than `allowed`.
fn timed_genmove(
    e: &mut Engine,
    t: &mut Tally,
    color: &str,
    interrupt: Option<Duration>,
    allowed: Duration,
    where_: &str,
) -> String {
    let start = Instant::now();
    e.send(&format!("genmove {color}"));
    if let Some(after) = interrupt {
        std::thread::sleep(after);
        e.send("# interrupt");
        t.interrupts += 1;
    }
    let answer = e.answer();
    let took = start.elapsed();
    t.worst = t.worst.max(took);
    if took > allowed {
        t.late += 1;
        eprintln!("late: {took:?} ({where_})");
    }
    answer
}

/// What every soak must end with: the engine still answering and exiting
/// cleanly with nothing left on its output, no illegal move, no answer
/// later than `allowed`, and all `games` played.
fn end_checks(mut e: Engine, t: &Tally, games: usize, allowed: &str) {
    assert_eq!(e.ask("name"), "= ferrohex", "still answering");
    let (status, rest) = e.finish();
    assert!(
        status.success(),
        "exit status {status:?} (a panic exits non-zero)"
    );
    assert!(rest.is_empty());
    assert_eq!(t.illegal, 0);
    assert_eq!(
        t.late, 0,
        "answers later than {allowed}; worst {:?}",
        t.worst
    );
    assert_eq!(t.games, games);
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
            let interrupt = (rng.below(5) == 0).then_some(Duration::ZERO);
            let where_ = format!("{size}x{size} after {} moves", referee.num_moves());
            let answer = timed_genmove(&mut e, &mut t, name, interrupt, allowed, &where_);
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
    eprintln!("soak: {t:?}, rss after warm-up {rss_after_warmup:?} KiB, at end {rss_end:?} KiB");
    end_checks(e, &t, games, &format!("{allowed:?}"));
    if let (true, Some(b)) = (long, rss_end) {
        let bound = resident_bound_kib(16);
        assert!(b <= bound, "resident memory {b} KiB, above {bound} KiB");
    }
}

/// An opponent engine for [`anchor_soak`]: its command and the set-up that
/// gives it `secs` a move.
fn anchor(dir: &str, which: usize, secs: f64) -> (String, String, Vec<String>) {
    if which == 0 {
        (
            "Wolve".into(),
            format!("{dir}/benzene/wolve --quiet --use-logfile 0"),
            vec![format!("param_wolve max_time {secs}")],
        )
    } else {
        (
            "MoHex".into(),
            format!("{dir}/benzene/mohex --quiet --use-logfile 0"),
            vec![
                format!("param_mohex max_time {secs}"),
                "param_mohex num_threads 1".into(),
            ],
        )
    }
}

/// Sets `opp` to the referee's position by plain moves (after a swap the
/// mirrored White stone is its first move: Benzene keeps a swapped stone
/// Black with White to move, the same game seen in a mirror, so `swap-pieces`
/// itself would leave the two engines on different boards).
fn replay(opp: &mut Client, game: &Game) -> bool {
    let size = game.geometry().width();
    if !opp
        .send(&format!("boardsize {size}"), Some(ANCHOR_SLOW))
        .is_ok_and(|a| a.ok)
    {
        return false;
    }
    let stones: Vec<(Color, String)> = game
        .position()
        .placed()
        .map(|(color, c)| (color, game.geometry().name(c)))
        .collect();
    stones.iter().all(|(color, cell)| {
        let c = if *color == Color::Black { "b" } else { "w" };
        opp.send(&format!("play {c} {cell}"), Some(ANCHOR_SLOW))
            .is_ok_and(|a| a.ok)
    })
}

use ferrohex::tools::matches::client::Engine as Client;
/// How long an anchor may take over anything but `genmove`.
const ANCHOR_SLOW: Duration = Duration::from_secs(30);

/// A soak against Wolve and MoHex (`../shared/anchors`, installed by its
/// `setup.sh`): `FERROHEX_ANCHORS=~/.cache/hex-anchors
/// FERROHEX_SOAK_GAMES=200 cargo test --release --test soak -- --ignored
/// --nocapture anchor_soak` (`FERROHEX_SOAK_SEED=N` for another schedule).
/// Games on 9x9, 11x11 and 13x13, ferrohex at 0.2 to 1 s a move and the
/// anchor at 0.2 s, the swap rule on, with `# interrupt` and `undo` mixed in; every
/// answer of ferrohex is checked by the referee, held to the move's time
/// plus 50 ms, and its resident memory to its tables plus 160 MiB. An
/// anchor that crashes (they do, in positions their solver has proved
/// lost) or resigns loses the game and is restarted.
#[test]
#[ignore = "needs the reference engines: set FERROHEX_ANCHORS"]
fn anchor_soak() {
    let dir = std::env::var("FERROHEX_ANCHORS").expect("FERROHEX_ANCHORS: the anchors' folder");
    let games: usize = std::env::var("FERROHEX_SOAK_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let mut e = Engine::start(&["--threads", "1", "--tt-mb", "64"]);
    let pid = e.child.id();
    assert_eq!(e.ask("param_game allow_swap 1"), "=");
    // FERROHEX_SOAK_SEED: another schedule, for runs side by side.
    let seed: u64 = std::env::var("FERROHEX_SOAK_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut rng =
        Rng(0x5eed_0000_0000_00a7 ^ games as u64 ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let soak_start = Instant::now();
    let mut t = Tally::default();
    let (mut swaps, mut opponent_losses, mut ferrohex_wins) = (0, 0, 0);
    let mut rss_max = 0;
    for g in 0..games {
        let size = [9, 11, 13][rng.below(3)];
        let secs = [0.2, 0.2, 0.2, 0.2, 0.3, 0.5, 0.5, 1.0][rng.below(8)];
        let budget = Duration::from_secs_f64(secs);
        let allowed = budget + Duration::from_millis(50);
        // The anchor plays at 0.2 s a move whatever ferrohex's time: the
        // soak is about ferrohex's answers, and the games go twice as fast.
        let (name, cmd, setup) = anchor(&dir, g % 4 / 2, 0.2);
        let mut opp = Client::start(&cmd).expect("start the anchor");
        for line in setup
            .iter()
            .chain(std::iter::once(&"param_game allow_swap 1".to_string()))
        {
            assert!(
                opp.send(line, Some(ANCHOR_SLOW)).is_ok_and(|a| a.ok),
                "{name}: {line}"
            );
        }
        assert_eq!(e.ask(&format!("boardsize {size}")), "=");
        assert_eq!(e.ask(&format!("param_ferrohex max_time {secs}")), "=");
        let mut referee = Game::new(size, size).unwrap();
        referee.allow_swap = true;
        assert!(replay(&mut opp, &referee));
        let ours = if g % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let mut forfeit = None;
        while referee.winner().is_none() && forfeit.is_none() {
            let color = referee.to_move();
            let cname = if color == Color::Black { "b" } else { "w" };
            if color == ours {
                let interrupt =
                    (rng.below(8) == 0).then(|| budget.mul_f64(rng.below(100) as f64 / 200.0));
                let where_ = format!(
                    "{budget:?} a move on {size}x{size} after {} moves",
                    referee.num_moves()
                );
                let answer = timed_genmove(&mut e, &mut t, cname, interrupt, allowed, &where_);
                let mv = answer
                    .strip_prefix("= ")
                    .and_then(|a| ferrohex::tools::matches::parse_move(&referee, a));
                let legal = mv.is_some_and(|m| referee.play(color, m).is_ok());
                if !legal {
                    t.illegal += 1;
                    eprintln!("illegal answer {answer:?} in game {g}");
                    break;
                }
                t.moves += 1;
                if mv == Some(Move::Swap) {
                    swaps += 1;
                }
                let told = if mv == Some(Move::Swap) {
                    replay(&mut opp, &referee)
                } else {
                    let cell = answer.trim_start_matches("= ").to_string();
                    opp.send(&format!("play {cname} {cell}"), Some(ANCHOR_SLOW))
                        .is_ok_and(|a| a.ok)
                };
                if !told {
                    forfeit = Some(format!("{name} refused or died on our move {answer}"));
                }
            } else {
                let limit = budget * 4 + Duration::from_secs(5);
                let answer = opp.send(&format!("genmove {cname}"), Some(limit));
                let mv = match &answer {
                    Ok(a) if a.ok => ferrohex::tools::matches::parse_move(&referee, &a.text),
                    _ => None,
                };
                match mv {
                    Some(m) if referee.play(color, m).is_ok() => {
                        if m == Move::Swap {
                            swaps += 1;
                            // Our own swap code: the same position as the
                            // referee's.
                            assert_eq!(e.ask("play w swap-pieces"), "=");
                            // The anchor's board: the mirrored stone.
                            if !replay(&mut opp, &referee) {
                                forfeit = Some(format!("{name} died after its swap"));
                            }
                        } else {
                            let cell = referee.geometry().name(referee.last_move_cell().unwrap());
                            assert_eq!(e.ask(&format!("play {cname} {cell}")), "=", "{cell}");
                        }
                    }
                    _ => forfeit = Some(format!("{name}: {answer:?}")),
                }
            }
            // Take back the last two moves now and then (not the swap).
            if forfeit.is_none()
                && referee.winner().is_none()
                && referee.num_moves() > 4
                && rng.below(12) == 0
            {
                for _ in 0..2 {
                    assert_eq!(e.ask("undo"), "=");
                    referee.undo().unwrap();
                    if !opp.send("undo", Some(ANCHOR_SLOW)).is_ok_and(|a| a.ok) {
                        forfeit = Some(format!("{name} refused undo"));
                    }
                }
                t.undos += 1;
            }
        }
        if let Some(why) = &forfeit {
            opponent_losses += 1;
            ferrohex_wins += 1;
            eprintln!("game {g}: {name} forfeits ({why})");
        } else if t.illegal == 0 {
            let expect = match referee.winner() {
                Some(Color::Black) => "= B+",
                _ => "= W+",
            };
            assert_eq!(
                e.ask("final_score"),
                expect,
                "engine and referee agree on the winner"
            );
            if referee.winner() == Some(ours) {
                ferrohex_wins += 1;
            }
        } else {
            break;
        }
        opp.shutdown(Duration::from_secs(2));
        t.games += 1;
        eprintln!(
            "game {g}: {size}x{size}, {secs} s, ferrohex {} against {name}: {} after {} moves; {ferrohex_wins} of {} won, rss {:?} KiB, {:.0} s",
            if ours == Color::Black {
                "black"
            } else {
                "white"
            },
            match forfeit {
                Some(_) => "forfeit".to_string(),
                None => format!("{:?} wins", referee.winner().unwrap()),
            },
            referee.num_moves(),
            t.games,
            rss_kib(pid),
            soak_start.elapsed().as_secs_f64()
        );
        rss_max = rss_max.max(rss_kib(pid).unwrap_or(0));
    }
    let rss_end = rss_kib(pid);
    eprintln!(
        "anchor soak: {t:?}, {swaps} swaps, {opponent_losses} anchor forfeits, ferrohex won {ferrohex_wins}; resident memory at most {rss_max} KiB, at the end {rss_end:?} KiB"
    );
    end_checks(e, &t, games, "the move's time + 50 ms");
    let bound = resident_bound_kib(64);
    assert!(
        rss_max <= bound,
        "resident memory {rss_max} KiB, above {bound} KiB"
    );
}
