//! The referee: plays one game between two engines, keeping its own board.
//!
//! It sends `boardsize` and `clear_board` to both engines, the opening
//! moves to both with `play`, then asks the side to move for `genmove` and
//! passes the answer on to the other with `play` (a swap as the position it
//! makes: see [`tell_swap`]). The referee's board (the
//! library's [`Game`]) judges every move. A game is lost by the engine that
//! answers with an illegal move, something that is not a move, a `?`
//! answer (to `genmove`, or to a legal `play`), no answer within the
//! per-move limit, or end of output; `resign` ends the game too.

use std::time::{Duration, Instant};

use super::client::{Engine, HtpError};
use super::record::{GameRecord, MoveTimes, Reason};
use crate::board::Color;
use crate::game::{Game, Move};

/// How the games are played.
#[derive(Clone, Debug)]
pub struct Rules {
    pub width: usize,
    pub height: usize,
    /// `--time`: seconds per move, sent with `time_settings 0 T 1` and
    /// `time_left COLOR T 1` before each `genmove`.
    pub time: Option<f64>,
    /// The longest a `genmove` may take before it loses on time.
    pub move_limit: Option<Duration>,
    /// Whether the referee accepts `swap-pieces` as White's first move.
    pub allow_swap: bool,
    /// Per engine, the commands sent after it starts (and restarts).
    pub setup: [Vec<String>; 2],
}

impl Rules {
    /// The limit for commands other than `genmove`.
    fn control_limit(&self) -> Duration {
        Duration::from_secs(60).max(self.move_limit.unwrap_or_default())
    }

    pub fn size_name(&self) -> String {
        format!("{}x{}", self.width, self.height)
    }

    fn boardsize_command(&self) -> String {
        if self.width == self.height {
            format!("boardsize {}", self.width)
        } else {
            format!("boardsize {} {}", self.width, self.height)
        }
    }
}

/// One game of the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSpec {
    pub index: usize,
    /// The `--seed` the schedule was shuffled with.
    pub seed: Option<u64>,
    /// Opening moves, Black first, as written in the openings file.
    pub opening: Vec<String>,
    /// Which engine (0 for the first, 1 for the second) plays Black.
    pub black: usize,
}

/// A finished game: the record and the moves for an SGF file.
pub struct Played {
    pub record: GameRecord,
    pub moves: Vec<(Color, String)>,
}

/// Parses a move as an engine or an openings file writes it.
pub fn parse_move(game: &Game, text: &str) -> Option<Move> {
    let t = text.trim().to_ascii_lowercase();
    if t == "swap-pieces" || t == "swap" {
        return Some(Move::Swap);
    }
    game.geometry().parse_cell(&t).map(Move::Cell)
}

fn move_name(game: &Game, mv: Move) -> String {
    match mv {
        Move::Cell(c) => game.geometry().name(c),
        Move::Swap => "swap-pieces".into(),
    }
}

/// Checks an opening against the rules; returns it as moves.
pub fn check_opening(rules: &Rules, opening: &[String]) -> Result<(), String> {
    let mut game = Game::new(rules.width, rules.height)?;
    game.allow_swap = rules.allow_swap;
    for text in opening {
        let color = game.to_move();
        let mv = parse_move(&game, text)
            .ok_or_else(|| format!("{text} is not a move on a {} board", rules.size_name()))?;
        game.play(color, mv)
            .map_err(|e| format!("{color} {text}: {e}"))?;
        if game.winner().is_some() {
            return Err("the opening ends the game".into());
        }
    }
    Ok(())
}

/// Starts an engine's process again if it failed, and sends its set-up.
/// An error here is fatal for the match: the engine cannot be used.
pub fn ensure_ready(
    engine: &mut Engine,
    setup: &[String],
    label: &str,
    limit: Duration,
) -> Result<(), String> {
    if !engine.is_broken() {
        return Ok(());
    }
    engine
        .restart()
        .map_err(|e| format!("cannot restart {label} ({}): {e}", engine.command()))?;
    send_setup(engine, setup, label, limit)
}

/// Sends the `--setup` commands; any failure is fatal.
pub fn send_setup(
    engine: &mut Engine,
    setup: &[String],
    label: &str,
    limit: Duration,
) -> Result<(), String> {
    for cmd in setup {
        match engine.send(cmd, Some(limit)) {
            Ok(a) if a.ok => {}
            Ok(a) => {
                return Err(format!(
                    "{label} refuses set-up command {cmd:?}: {}",
                    a.display()
                ));
            }
            Err(e) => return Err(format!("{label} fails set-up command {cmd:?}: {e}")),
        }
    }
    Ok(())
}

/// A lost game: who lost (0 or 1), why, and the details.
struct Loss(usize, Reason, String);

fn failure(e: &HtpError) -> Reason {
    match e {
        HtpError::Timeout(_) => Reason::Timeout,
        HtpError::Dead(_) => Reason::Crash,
        HtpError::Malformed(_) => Reason::Malformed,
    }
}

/// Plays one game. `Err` only for problems that stop the whole match (an
/// engine that cannot be restarted, refuses its set-up or the board size).
pub fn play_game(
    engines: &mut [Engine; 2],
    names: &[String; 2],
    spec: &GameSpec,
    rules: &Rules,
) -> Result<Played, String> {
    let control = rules.control_limit();
    for (i, engine) in engines.iter_mut().enumerate() {
        ensure_ready(engine, &rules.setup[i], &names[i], control)?;
    }
    let mut game = Game::new(rules.width, rules.height)?;
    game.allow_swap = rules.allow_swap;
    let mut track = Track {
        game,
        times: [MoveTimes::default(); 2],
        moves: Vec::new(),
    };
    let engine_of = |color: Color| match color {
        Color::Black => spec.black,
        Color::White => 1 - spec.black,
    };
    let result = run(engines, names, spec, rules, &mut track, engine_of)?;
    let Track { game, times, moves } = track;
    let (winner, reason, detail) = match result {
        Ok(()) => {
            let color = game.winner().expect("a finished game has a winner");
            (engine_of(color), Reason::Connection, String::new())
        }
        Err(Loss(loser, reason, detail)) => (1 - loser, reason, detail),
    };
    Ok(Played {
        record: GameRecord {
            game: spec.index,
            seed: spec.seed,
            names: names.clone(),
            size: rules.size_name(),
            opening: spec.opening.join(" "),
            black: spec.black + 1,
            winner: winner + 1,
            reason,
            detail,
            moves: moves.len(),
            times,
        },
        moves,
    })
}

/// What a game leaves behind as it is played: the referee's own board,
/// each side's move times, the moves as the engines wrote them.
struct Track {
    game: Game,
    times: [MoveTimes; 2],
    moves: Vec<(Color, String)>,
}

/// The game itself: `Ok(Ok(()))` when a side has connected, `Ok(Err(loss))`
/// when it ended otherwise.
fn run(
    engines: &mut [Engine; 2],
    names: &[String; 2],
    spec: &GameSpec,
    rules: &Rules,
    track: &mut Track,
    engine_of: impl Fn(Color) -> usize,
) -> Result<Result<(), Loss>, String> {
    let Track { game, times, moves } = track;
    let control = rules.control_limit();
    // New game on both engines.
    let mut start = vec![rules.boardsize_command(), "clear_board".to_string()];
    if let Some(t) = rules.time {
        start.push(format!("time_settings 0 {t} 1"));
    }
    for (i, engine) in engines.iter_mut().enumerate() {
        for cmd in &start {
            match engine.send(cmd, Some(control)) {
                Ok(a) if a.ok => {}
                // Time commands are optional in GTP: an engine without them
                // plays by its own settings.
                Ok(_) if cmd.starts_with("time_settings") => {}
                Ok(a) => return Err(format!("{} refuses {cmd:?}: {}", names[i], a.display())),
                Err(e) => return Ok(Err(Loss(i, failure(&e), format!("{cmd}: {e}")))),
            }
        }
    }
    // The opening, sent to both.
    for text in &spec.opening {
        let color = game.to_move();
        let mv = parse_move(game, text).ok_or_else(|| format!("bad opening move {text}"))?;
        game.play(color, mv)
            .map_err(|e| format!("bad opening move {text}: {e}"))?;
        moves.push((color, move_name(game, mv)));
        if let Err(loss) = relay(engines, None, game, color, mv, control) {
            return Ok(Err(loss));
        }
    }
    while game.winner().is_none() {
        let color = game.to_move();
        let e = engine_of(color);
        let engine = &mut engines[e];
        if let Some(t) = rules.time {
            match engine.send(&format!("time_left {color} {t} 1"), Some(control)) {
                Ok(_) => {}
                Err(err) => return Ok(Err(Loss(e, failure(&err), format!("time_left: {err}")))),
            }
        }
        let started = Instant::now();
        let answer = engine.send(&format!("genmove {color}"), rules.move_limit);
        let took = started.elapsed().as_secs_f64();
        let answer = match answer {
            Ok(a) => {
                times[e].add(took);
                a
            }
            Err(err) => {
                return Ok(Err(Loss(
                    e,
                    failure(&err),
                    format!("genmove {color}: {err}"),
                )));
            }
        };
        if !answer.ok {
            return Ok(Err(Loss(
                e,
                Reason::Error,
                format!("genmove {color}: {}", answer.display()),
            )));
        }
        if answer.text.eq_ignore_ascii_case("resign") {
            return Ok(Err(Loss(e, Reason::Resign, String::new())));
        }
        let Some(mv) = parse_move(game, &answer.text) else {
            return Ok(Err(Loss(
                e,
                Reason::Malformed,
                format!("genmove {color}: {:?} is not a move", answer.text),
            )));
        };
        if let Err(why) = game.play(color, mv) {
            return Ok(Err(Loss(
                e,
                Reason::Illegal,
                format!("{color} {}: {why}", answer.text),
            )));
        }
        moves.push((color, move_name(game, mv)));
        if let Err(loss) = relay(engines, Some(e), game, color, mv, control) {
            return Ok(Err(loss));
        }
    }
    Ok(Ok(()))
}

/// Sends `play COLOR MOVE` to engine `i`; a refusal or failure loses.
fn tell(
    engine: &mut Engine,
    i: usize,
    color: Color,
    name: &str,
    limit: Duration,
) -> Result<(), Loss> {
    order(engine, i, &format!("play {color} {name}"), limit)
}

/// Sends `cmd` to engine `i`; a refusal or failure loses.
fn order(engine: &mut Engine, i: usize, cmd: &str, limit: Duration) -> Result<(), Loss> {
    match engine.send(cmd, Some(limit)) {
        Ok(a) if a.ok => Ok(()),
        Ok(a) => Err(Loss(i, Reason::Refused, format!("{cmd}: {}", a.display()))),
        Err(e) => Err(Loss(i, failure(&e), format!("{cmd}: {e}"))),
    }
}

/// Passes `color`'s move `mv` (already on `game`) on: to every engine but
/// the one that made it (`mover`; none for an opening move), except that a
/// swap goes to both as the position it makes ([`tell_swap`]).
fn relay(
    engines: &mut [Engine; 2],
    mover: Option<usize>,
    game: &Game,
    color: Color,
    mv: Move,
    limit: Duration,
) -> Result<(), Loss> {
    let name = move_name(game, mv);
    for (i, engine) in engines.iter_mut().enumerate() {
        if mv == Move::Swap {
            tell_swap(engine, i, game, limit)?;
        } else if mover != Some(i) {
            tell(engine, i, color, &name, limit)?;
        }
    }
    Ok(())
}

/// Passes a swap on to engine `i` as the position it makes: `clear_board`,
/// then `play white` the mirrored stone, Black to move. Engines disagree
/// on what `swap-pieces` does to their board (Benzene's keep the stone
/// Black and give White the move: the same game in a mirror, with the
/// colours' names exchanged), so `play white swap-pieces` would leave two
/// engines of different conventions on different boards; the position
/// itself means the same to every engine.
fn tell_swap(engine: &mut Engine, i: usize, game: &Game, limit: Duration) -> Result<(), Loss> {
    order(engine, i, "clear_board", limit)?;
    let stone = game
        .position()
        .placed()
        .next()
        .map(|(_, c)| game.geometry().name(c))
        .expect("a swap leaves one stone");
    tell(engine, i, Color::White, &stone, limit)
}

/// The game as an SGF record with players, result and a comment.
pub fn sgf(played: &Played, rules: &Rules) -> String {
    let r = &played.record;
    let esc = |s: &str| s.replace('\\', "\\\\").replace(']', "\\]");
    let (black, white) = if r.black == 1 {
        (&r.names[0], &r.names[1])
    } else {
        (&r.names[1], &r.names[0])
    };
    let size = if rules.width == rules.height {
        rules.width.to_string()
    } else {
        format!("{}:{}", rules.width, rules.height)
    };
    let mut comment = format!("game {}", r.game);
    if !r.opening.is_empty() {
        comment.push_str(&format!(", opening {}", r.opening));
    }
    comment.push_str(&format!(", {}", r.reason.name()));
    if !r.detail.is_empty() {
        comment.push_str(&format!(": {}", r.detail));
    }
    let mut s = format!(
        "(;FF[4]GM[11]AP[ferrohex:{}]SZ[{size}]PB[{}]PW[{}]RE[{}]GN[game {}]GC[{}]",
        env!("CARGO_PKG_VERSION"),
        esc(black),
        esc(white),
        r.sgf_result(),
        r.game,
        esc(&comment)
    );
    for (color, name) in &played.moves {
        s.push_str(&format!(";{}[{name}]", color.letter()));
    }
    s.push_str(")\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(size: usize) -> Rules {
        Rules {
            width: size,
            height: size,
            time: None,
            move_limit: Some(Duration::from_secs(5)),
            allow_swap: false,
            setup: [Vec::new(), Vec::new()],
        }
    }

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn openings_are_checked() {
        assert!(check_opening(&rules(7), &words("a1 b2 C3")).is_ok());
        assert!(check_opening(&rules(7), &words("a1 a1")).is_err());
        assert!(check_opening(&rules(7), &words("h1")).is_err());
        assert!(check_opening(&rules(7), &words("a1 swap-pieces")).is_err());
        let mut swap = rules(7);
        swap.allow_swap = true;
        assert!(check_opening(&swap, &words("a1 swap-pieces")).is_ok());
        assert!(check_opening(&rules(1), &words("a1")).is_err());
    }

    /// An engine written in sh that answers every genmove with `a1`.
    fn stubborn() -> Engine {
        Engine::start(
            "while read c; do case $c in genmove*) echo '= a1';; *) echo '=';; esac; echo; done",
        )
        .unwrap()
    }

    #[test]
    fn an_occupied_cell_loses() {
        let mut engines = [stubborn(), stubborn()];
        let names = ["one".to_string(), "two".to_string()];
        let spec = GameSpec {
            index: 3,
            seed: None,
            opening: Vec::new(),
            black: 1,
        };
        let played = play_game(&mut engines, &names, &spec, &rules(3)).unwrap();
        let r = &played.record;
        assert_eq!((r.black, r.winner, r.reason), (2, 2, Reason::Illegal));
        assert_eq!(r.moves, 1);
        assert!(r.detail.contains("occupied"), "{}", r.detail);
        assert_eq!(r.times[1].moves, 1);
        assert_eq!(r.times[0].moves, 1);
        let text = sgf(&played, &rules(3));
        assert!(text.starts_with("(;FF[4]GM[11]"), "{text}");
        assert!(
            text.contains("PB[two]PW[one]RE[B+Forfeit]") && text.contains(";B[a1])"),
            "{text}"
        );
    }

    #[test]
    fn a_swap_reaches_both_engines_as_its_position() {
        let dir = std::env::temp_dir().join(format!("ferrohex-swap-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = |i: usize| dir.join(format!("engine{i}.log"));
        let recording = |i: usize| {
            Engine::start(&format!(
                "while read c; do echo \"$c\" >> '{}'; case $c in genmove*) echo '= a1';; *) echo '=';; esac; echo; done",
                log(i).display()
            ))
            .unwrap()
        };
        let mut engines = [recording(0), recording(1)];
        let names = ["one".to_string(), "two".to_string()];
        let spec = GameSpec {
            index: 0,
            seed: None,
            opening: words("c2 swap-pieces"),
            black: 0,
        };
        let mut swap = rules(5);
        swap.allow_swap = true;
        let played = play_game(&mut engines, &names, &spec, &swap).unwrap();
        // Black a1 after the swap, then White's a1 is on a stone.
        assert_eq!(played.record.reason, Reason::Illegal);
        drop(engines);
        for i in 0..2 {
            let text = std::fs::read_to_string(log(i)).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            let at = lines.iter().position(|l| *l == "play black c2").unwrap();
            assert_eq!(
                lines[at + 1..at + 3],
                ["clear_board", "play white b3"],
                "{text}"
            );
            assert!(!text.contains("swap-pieces"), "{text}");
        }
        let text = sgf(&played, &swap);
        assert!(text.contains(";B[c2];W[swap-pieces];B[a1]"), "{text}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
