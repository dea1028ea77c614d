//! `ferrohex play`: a game of Hex against the engine in the terminal.
//!
//! The board is drawn after every move: in colour when standard output is a
//! terminal (and `NO_COLOR` is not set), otherwise exactly as `showboard`
//! draws it. Moves are typed as cells (`f6`); the commands are `undo`,
//! `hint`, `swap`, `resign`, `save FILE.sgf`, `board`, `help` and `quit`.
//! While the engine thinks, a spinner shows on whichever of standard output
//! and standard error is a terminal. Standard input may be a pipe: each
//! command read is then echoed after the prompt so the output reads as a
//! transcript.

use std::io::{self, BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Duration;

use crate::board::{Color, MAX_SIZE};
use crate::engine::Choice;
use crate::engine::{Engine, ParamGroup};
use crate::game::MoveArg;
use crate::game::{Game, Move};
use crate::htp::answer;
use crate::present::diagram::{Style, capitalised, rhombus};
use crate::search::{Level, SearchParams};
use crate::sgf::{SgfAction, SgfMove, SgfNode};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Board size: N for N x N, or WxH (W columns, H rows), each 1 to 26.
    #[arg(long, default_value = "11", value_parser = parse_size, value_name = "N|WxH")]
    pub size: BoardSize,
    /// Your colour: black (moves first, joins top and bottom) or white
    /// (joins left and right).
    #[arg(long, default_value = "black", value_parser = parse_color, value_name = "black|white")]
    pub color: Color,
    /// The engine's strength: easy, medium, hard, max (or baseline).
    #[arg(long, default_value_t = Level::Medium)]
    pub level: Level,
    /// Play with the swap rule: after Black's first stone, White may take
    /// it over (mirrored) instead of playing a stone.
    #[arg(long)]
    pub swap: bool,
    /// The engine's thinking time per move, in seconds.
    #[arg(long, default_value_t = 5.0, value_parser = seconds, value_name = "SECONDS")]
    pub max_time: f64,
    /// Search threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardSize {
    pub width: usize,
    pub height: usize,
}

fn parse_size(s: &str) -> Result<BoardSize, String> {
    let bad = || format!("{s} is not a board size: use N or WxH, each 1 to {MAX_SIZE}");
    let side = |t: &str| {
        t.trim()
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=MAX_SIZE).contains(n))
            .ok_or_else(bad)
    };
    match s.to_ascii_lowercase().split_once('x') {
        Some((w, h)) => Ok(BoardSize {
            width: side(w)?,
            height: side(h)?,
        }),
        None => side(s).map(|n| BoardSize {
            width: n,
            height: n,
        }),
    }
}

fn parse_color(s: &str) -> Result<Color, String> {
    Color::parse(s).ok_or_else(|| format!("{s} is not a colour: use black or white"))
}

fn seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 1.0e6 => Ok(v),
        _ => Err(format!("{s} is not a number of seconds above 0")),
    }
}

const HELP: &str = "\
Type a cell to play there: a column letter and a row number, such as f6
(a1 is the top-left corner). Commands:
  undo            take back your last move and the engine's reply
  hint            ask the engine for a move for you
  swap            (White, with --swap) take over Black's first stone
  resign          give up this game
  save FILE.sgf   write the game so far as SGF (HexGui and ferrohex read it)
  board           draw the board again
  help            this text
  quit            leave (asks again if the game is not saved)";

fn edges(c: Color) -> &'static str {
    match c {
        Color::Black => "top and bottom",
        Color::White => "left and right",
    }
}

/// Where the thinking spinner goes: a terminal, if either output is one.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Spinner {
    Stdout,
    Stderr,
    Off,
}

struct Session {
    engine: Engine,
    human: Color,
    /// Who resigned, once someone has.
    resigned: Option<Color>,
    /// The game's SGF at the last save, to know whether quitting loses
    /// anything.
    saved: Option<String>,
    quit_warned: bool,
    /// The end of the game has been announced.
    announced: bool,
    styled: bool,
    echo: bool,
    spinner: Spinner,
}

/// What a line of input asks for.
enum Input {
    Cell(String),
    Undo,
    Hint,
    Swap,
    Resign,
    Save(String),
    Board,
    Help,
    Quit,
    Nothing,
}

fn parse_input(line: &str) -> Result<Input, String> {
    let line = line.trim();
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    let word = word.to_ascii_lowercase();
    let no_args = |input: Input| {
        if rest.is_empty() {
            Ok(input)
        } else {
            Err(format!("{word} takes no argument (type help)"))
        }
    };
    match word.as_str() {
        "" => Ok(Input::Nothing),
        "undo" | "u" => no_args(Input::Undo),
        "hint" => no_args(Input::Hint),
        "swap" | "swap-pieces" => no_args(Input::Swap),
        "resign" => no_args(Input::Resign),
        "board" | "show" | "showboard" => no_args(Input::Board),
        "help" | "h" | "?" => Ok(Input::Help),
        "quit" | "exit" | "q" => no_args(Input::Quit),
        "save" => {
            if rest.is_empty() {
                Err("usage: save FILE.sgf".into())
            } else {
                Ok(Input::Save(rest.to_string()))
            }
        }
        "play" if !rest.is_empty() && !rest.contains(char::is_whitespace) => {
            Ok(Input::Cell(rest.to_ascii_lowercase()))
        }
        w if rest.is_empty() && looks_like_cell(w) => Ok(Input::Cell(w.to_string())),
        _ => Err(format!("'{line}' is not a move or a command (type help)")),
    }
}

/// A letter and a number: a cell name, on this board or not.
fn looks_like_cell(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && chars.as_str().len() <= 3
        && !chars.as_str().is_empty()
        && chars.all(|c| c.is_ascii_digit())
}

impl Session {
    fn game(&self) -> &Game {
        self.engine.game()
    }

    fn engine_color(&self) -> Color {
        self.human.opponent()
    }

    fn over(&self) -> Option<Color> {
        self.game()
            .winner()
            .or_else(|| self.resigned.map(Color::opponent))
    }

    fn say(&self, text: &str) {
        let mut out = io::stdout().lock();
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }

    fn name(&self, c: Color) -> String {
        if c == self.human {
            format!("{} (you)", capitalised(c))
        } else {
            format!("{} (ferrohex)", capitalised(c))
        }
    }

    fn draw(&self) {
        let style = if self.styled {
            Style::Ansi
        } else {
            Style::Plain
        };
        let mut text = rhombus(self.game(), style);
        if let Some((c, mv)) = self.game().moves().last() {
            let what = match mv {
                Move::Cell(cell) => format!("played {}", self.game().geometry().name(cell)),
                Move::Swap => "swapped".into(),
            };
            text.push_str(&format!(
                "Move {}: {} {what}.\n",
                self.game().num_moves(),
                self.name(c)
            ));
        }
        if self.over().is_none() && self.game().to_move() == self.human {
            text.push_str(&format!("{} to play.\n", self.name(self.human)));
        }
        let mut out = io::stdout().lock();
        let _ = write!(out, "\n{text}");
        let _ = out.flush();
    }

    /// Runs a search with the spinner going; returns its choice.
    fn think(&mut self, color: Color, commit: bool) -> Result<Choice, String> {
        let done = AtomicBool::new(false);
        let depth = AtomicU32::new(0);
        let spinner = self.spinner;
        let engine = &mut self.engine;
        std::thread::scope(|s| {
            if spinner != Spinner::Off {
                s.spawn(|| spin(spinner, &done, &depth));
            }
            let result = engine.genmove(color, commit, &mut |report| {
                depth.store(report.depth, Ordering::Relaxed)
            });
            done.store(true, Ordering::Relaxed);
            result.map(|r| r.choice)
        })
    }

    fn announce_end(&mut self) {
        let Some(winner) = self.over() else { return };
        if self.announced {
            return;
        }
        self.announced = true;
        let how = match self.resigned {
            Some(loser) if loser == self.human => "you resigned.".to_string(),
            Some(_) => "ferrohex resigned.".to_string(),
            None if winner == self.human => format!("you joined {}. Well played!", edges(winner)),
            None => format!("ferrohex joined {}.", edges(winner)),
        };
        self.say(&format!("Game over: {} wins: {how}", self.name(winner)));
        self.say("Type undo to take moves back, save FILE.sgf to keep the game, or quit.");
    }

    /// The engine's turn: maybe swap, else search and play.
    fn engine_move(&mut self) {
        let me = self.engine_color();
        if self.wants_swap() && self.engine.play(me, MoveArg::Swap).is_ok() {
            self.say("ferrohex swaps: your first stone becomes White's, mirrored.");
            self.draw();
            return;
        }
        match self.think(me, true) {
            Ok(Choice::Resign) => {
                self.resigned = Some(me);
                self.say("ferrohex resigns.");
            }
            Ok(choice) => {
                let text = answer::choice(self.game().geometry(), choice);
                self.say(&format!("ferrohex plays {text}."));
                self.draw();
            }
            Err(e) => self.say(&format!("ferrohex cannot move: {e}")),
        }
    }

    /// Whether the engine, as White, takes over Black's first stone: it
    /// does when the stone is off the board's outer ring (such openings are
    /// strong for the player who owns them).
    fn wants_swap(&self) -> bool {
        let game = self.game();
        if !game.allow_swap
            || self.engine_color() != Color::White
            || !game.setup_stones().is_empty()
        {
            return false;
        }
        let moves: Vec<(Color, Move)> = game.moves().collect();
        let [(Color::Black, Move::Cell(cell))] = moves.as_slice() else {
            return false;
        };
        let g = game.geometry();
        if g.mirror(*cell).is_none() {
            return false;
        }
        let (c, r) = g.coords(*cell);
        c > 0 && r > 0 && c + 1 < g.width() && r + 1 < g.height()
    }

    fn human_cell(&mut self, name: &str) {
        let color = self.human;
        let g = self.game().geometry();
        let Some(cell) = g.parse_cell(name) else {
            self.say(&format!(
                "{name} is off the {}x{} board (columns a to {}, rows 1 to {}).",
                g.width(),
                g.height(),
                (b'a' + g.width() as u8 - 1) as char,
                g.height()
            ));
            return;
        };
        if let Some(owner) = self.game().position().stone(cell) {
            self.say(&format!(
                "{name} is occupied by a {owner} stone; choose an empty cell."
            ));
            return;
        }
        let (col, row) = g.coords(cell);
        match self.engine.play(color, MoveArg::Cell { col, row }) {
            Ok(()) => self.draw(),
            Err(e) => self.say(&format!("cannot play {name}: {e}")),
        }
    }

    /// Takes back a resignation, or the moves up to and including the
    /// human's last one.
    fn undo(&mut self) {
        if self.resigned.take().is_some() {
            self.announced = false;
            self.say("Resignation taken back.");
            self.draw();
            return;
        }
        let colors: Vec<Color> = self.game().moves().map(|(c, _)| c).collect();
        let Some(i) = colors.iter().rposition(|&c| c == self.human) else {
            self.say("There is no move of yours to take back.");
            return;
        };
        for _ in i..colors.len() {
            if self.engine.undo().is_err() {
                break;
            }
        }
        self.announced = false;
        let n = colors.len() - i;
        self.say(&format!(
            "Took back {n} move{}.",
            if n == 1 { "" } else { "s" }
        ));
        self.draw();
    }

    /// The game as SGF, a resignation included.
    fn sgf(&self) -> String {
        let mut record = self.game().to_sgf();
        if let Some(loser) = self.resigned {
            record.nodes.push(SgfNode {
                actions: vec![SgfAction::Move(loser, SgfMove::Resign)],
            });
        }
        crate::sgf::write(&record)
    }

    fn save(&mut self, path: &str) {
        let text = self.sgf();
        match std::fs::write(path, &text) {
            Ok(()) => {
                let n = self.game().num_moves();
                self.say(&format!(
                    "Saved the game ({n} move{}) to {path}.",
                    if n == 1 { "" } else { "s" }
                ));
                self.saved = Some(text);
            }
            Err(e) => self.say(&format!("cannot write {path}: {e}")),
        }
    }

    fn unsaved(&self) -> bool {
        self.game().num_moves() > 0 && self.saved.as_deref() != Some(self.sgf().as_str())
    }

    fn prompt(&self) {
        let text = if self.over().is_some() {
            "game over> ".to_string()
        } else {
            format!("{}> ", self.name(self.human).to_ascii_lowercase())
        };
        let mut out = io::stdout().lock();
        let _ = write!(out, "{text}");
        let _ = out.flush();
    }

    /// Handles one line; false to leave.
    fn handle(&mut self, line: &str) -> bool {
        let input = match parse_input(line) {
            Ok(i) => i,
            Err(e) => {
                self.say(&e);
                return true;
            }
        };
        if !matches!(input, Input::Quit | Input::Nothing) {
            self.quit_warned = false;
        }
        match input {
            Input::Nothing => {}
            Input::Help => self.say(HELP),
            Input::Board => self.draw(),
            Input::Quit => {
                if self.unsaved() && !self.quit_warned {
                    self.quit_warned = true;
                    self.say("The game is not saved: type quit again to leave anyway, or save FILE.sgf first.");
                    return true;
                }
                self.say("Goodbye.");
                return false;
            }
            Input::Save(path) => self.save(&path),
            Input::Undo => self.undo(),
            _ if self.over().is_some() => {
                self.say("The game is over: undo, save FILE.sgf or quit.");
            }
            Input::Cell(name) => self.human_cell(&name),
            Input::Hint => match self.think(self.human, false) {
                Ok(Choice::Resign) => self.say("Hint: every move loses now; you could resign."),
                Ok(choice) => {
                    let text = answer::choice(self.game().geometry(), choice);
                    self.say(&format!("Hint: {text}"))
                }
                Err(e) => self.say(&format!("no hint: {e}")),
            },
            Input::Swap => match self.engine.play(self.human, MoveArg::Swap) {
                Ok(()) => {
                    self.say("You swap: Black's first stone becomes yours, mirrored.");
                    self.draw();
                }
                Err(e) if e.contains("not allowed") => self
                    .say("The swap rule is off in this game (start with --swap to play with it)."),
                Err(e) => self.say(&format!("cannot swap: {e}")),
            },
            Input::Resign => {
                self.resigned = Some(self.human);
            }
        }
        true
    }
}

/// Draws a spinner until `done`, then wipes it.
fn spin(to: Spinner, done: &AtomicBool, depth: &AtomicU32) {
    let frames = ['|', '/', '-', '\\'];
    let write = |text: &str| match to {
        Spinner::Stdout => {
            let mut o = io::stdout().lock();
            let _ = write!(o, "{text}");
            let _ = o.flush();
        }
        Spinner::Stderr => {
            let mut e = io::stderr().lock();
            let _ = write!(e, "{text}");
            let _ = e.flush();
        }
        Spinner::Off => {}
    };
    let mut i = 0;
    // Quick searches finish before anything is drawn.
    std::thread::sleep(Duration::from_millis(150));
    while !done.load(Ordering::Relaxed) {
        let d = depth.load(Ordering::Relaxed);
        let detail = if d > 0 {
            format!(" (depth {d})")
        } else {
            String::new()
        };
        write(&format!(
            "\r\x1b[2K{} ferrohex is thinking{detail}...",
            frames[i % frames.len()]
        ));
        i += 1;
        for _ in 0..10 {
            if done.load(Ordering::Relaxed) {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    if i > 0 {
        write("\r\x1b[2K");
    }
}

pub fn run(args: Args) -> ExitCode {
    let params = SearchParams {
        threads: args.threads,
        level: args.level,
        ..SearchParams::default()
    };
    let mut engine = Engine::new(params, Duration::from_secs_f64(args.max_time));
    if let Err(e) = engine.boardsize(args.size.width, args.size.height) {
        eprintln!("ferrohex play: {e}");
        return ExitCode::FAILURE;
    }
    if args.swap
        && let Err(e) = engine.set_param(ParamGroup::Game, "allow_swap", "1")
    {
        eprintln!("ferrohex play: {e}");
        return ExitCode::FAILURE;
    }
    let stdout_tty = io::stdout().is_terminal();
    let spinner = if stdout_tty {
        Spinner::Stdout
    } else if io::stderr().is_terminal() {
        Spinner::Stderr
    } else {
        Spinner::Off
    };
    let mut session = Session {
        engine,
        human: args.color,
        resigned: None,
        saved: None,
        quit_warned: false,
        announced: false,
        styled: stdout_tty && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        echo: !io::stdin().is_terminal(),
        spinner,
    };
    let (w, h) = (args.size.width, args.size.height);
    let human = args.color;
    session.say(&format!(
        "ferrohex play: Hex on a {w}x{h} board. You are {} and join {}; ferrohex is {} and joins {}.",
        capitalised(human),
        edges(human),
        capitalised(human.opponent()),
        edges(human.opponent()),
    ));
    session.say(&format!(
        "Black moves first. Swap rule {}. Level {}, {} s per engine move. Type a cell such as {}, or help.",
        if args.swap { "on" } else { "off" },
        args.level,
        args.max_time,
        session.game().geometry().name(
            session
                .game()
                .geometry()
                .cell_at((w - 1) / 2, (h - 1) / 2)
                .expect("the centre is on the board")
        ),
    ));
    session.draw();

    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        if session.over().is_some() {
            session.announce_end();
        } else if session.game().to_move() != session.human {
            session.engine_move();
            continue;
        }
        session.prompt();
        let line = match lines.next() {
            Some(Ok(line)) => line,
            Some(Err(e)) => {
                session.say("");
                eprintln!("ferrohex play: cannot read input: {e}");
                return ExitCode::FAILURE;
            }
            None => {
                session.say("");
                if session.unsaved() {
                    // Nothing is lost: the record goes to the transcript.
                    session
                        .say("End of input: leaving; the game was not saved. Here it is as SGF:");
                    session.say(session.sgf().trim_end());
                } else {
                    session.say("End of input: goodbye.");
                }
                return ExitCode::SUCCESS;
            }
        };
        if session.echo {
            session.say(line.trim_end());
        }
        if !session.handle(&line) {
            return ExitCode::SUCCESS;
        }
    }
}
