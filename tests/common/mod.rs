//! Drives the real `ferrohex` binary over pipes.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Output, Stdio};
use std::time::{Duration, Instant};

pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_ferrohex")
}

/// A folder of test data shipped with the repository.
pub fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

/// Where the tests keep the files they write: Cargo's folder for them in
/// `target/`, so none are left in the system's temporary folder.
pub fn tmp_root() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
}

/// A fresh folder for files a test writes, its own per `name` and process
/// (tests of one file run in parallel).
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = tmp_root().join(format!("ferrohex-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the binary with exactly `args`, `input` on its stdin, and returns
/// its whole output.
pub fn run_with(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(binary())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start ferrohex");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from a thread so a large input cannot deadlock against a
    // full stdout pipe.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait for ferrohex");
    writer.join().unwrap();
    out
}

/// Runs the engine on `input` (fast settings unless `args` set them) and
/// returns its whole output.
pub fn run_raw(args: &[&str], input: &[u8]) -> Output {
    let mut all = vec![];
    if !args.contains(&"--max-time") {
        all.extend(["--max-time", "0.3"]);
    }
    if !args.contains(&"--threads") {
        all.extend(["--threads", "1"]);
    }
    all.extend_from_slice(args);
    run_with(&all, input)
}

/// Splits a stdout into answers: each is the text before its blank line.
/// Panics if the framing is broken (an answer not starting with = or ?).
pub fn answers(stdout: &[u8]) -> Vec<String> {
    let text = String::from_utf8(stdout.to_vec()).expect("stdout is UTF-8");
    assert!(
        text.is_empty() || text.ends_with("\n\n"),
        "output must end with a blank line: {text:?}"
    );
    let mut out = Vec::new();
    for block in text.split_terminator("\n\n") {
        assert!(
            block.starts_with('=') || block.starts_with('?'),
            "an answer must start with = or ?: {block:?} in {text:?}"
        );
        // Compared without the space every answer has after its mark.
        out.push(block.trim_end().to_string());
    }
    out
}

/// Runs a session; returns the answers. The engine must exit with status 0.
pub fn session(input: &str) -> Vec<String> {
    session_with(&[], input)
}

pub fn session_with(args: &[&str], input: &str) -> Vec<String> {
    let out = run_raw(args, input.as_bytes());
    assert!(
        out.status.success(),
        "exit status {:?}, stderr {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    answers(&out.stdout)
}

/// A long-lived engine for tests that must interleave input and output.
pub struct Engine {
    pub child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    pub fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(binary())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start ferrohex");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Engine {
            child,
            stdin,
            stdout,
        }
    }

    pub fn send(&mut self, line: &str) {
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Reads one answer (up to its blank line).
    pub fn answer(&mut self) -> String {
        let mut text = String::new();
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).unwrap();
            assert!(n > 0, "engine closed stdout; got so far {text:?}");
            if line == "\n" {
                return text.trim_end().to_string();
            }
            text.push_str(&line);
        }
    }

    pub fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.answer()
    }

    /// Closes stdin and waits; returns the exit status and anything left.
    pub fn finish(mut self) -> (std::process::ExitStatus, String) {
        drop(self.stdin);
        let mut rest = String::new();
        self.stdout.read_to_string(&mut rest).unwrap();
        (self.child.wait().unwrap(), rest)
    }
}

/// Times a closure.
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let v = f();
    (v, start.elapsed())
}

/// A small xorshift generator for reproducible random test positions.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Plain minimax with a memo of positions already solved: the winner of
/// `pos` with `to_move` to play. The memo is keyed by board size too (the
/// stone hashes of different sizes collide).
pub fn brute_memo(
    pos: &mut ferrohex::board::Position,
    to_move: ferrohex::board::Color,
    memo: &mut std::collections::HashMap<
        (usize, u64, ferrohex::board::Color),
        ferrohex::board::Color,
    >,
) -> ferrohex::board::Color {
    if let Some(w) = pos.winner() {
        return w;
    }
    let key = (pos.geometry().num_cells(), pos.hash(), to_move);
    if let Some(&w) = memo.get(&key) {
        return w;
    }
    let cells: Vec<ferrohex::board::Cell> = pos.empty_cells().iter().collect();
    let mut winner = to_move.opponent();
    for c in cells {
        pos.play(to_move, c);
        let w = brute_memo(pos, to_move.opponent(), memo);
        pos.unplay();
        if w == to_move {
            winner = to_move;
            break;
        }
    }
    memo.insert(key, winner);
    winner
}

/// A random position of `size` with `stones` stones (alternating colours,
/// Black first), without a winner; and the side to move by stone count.
pub fn random_position(
    rng: &mut Rng,
    size: usize,
    stones: usize,
) -> (ferrohex::board::Position, ferrohex::board::Color) {
    use ferrohex::board::{Color, Geometry, Position};
    loop {
        let mut pos = Position::new(std::sync::Arc::new(Geometry::new(size, size).unwrap()));
        let mut color = Color::Black;
        for _ in 0..stones {
            let empty: Vec<ferrohex::board::Cell> = pos.empty_cells().iter().collect();
            pos.play(color, empty[rng.below(empty.len())]);
            color = color.opponent();
        }
        if pos.winner().is_none() {
            return (pos, color);
        }
    }
}

/// A position from a diagram (`B` black, `W` white, `.` empty; rows top
/// first, indentation free).
pub fn diagram(text: &str) -> ferrohex::board::Position {
    use ferrohex::present::textboard::{Letters, parse_game};
    parse_game(text, Letters::Common)
        .expect("diagram")
        .position()
        .clone()
}

/// `play` lines for `moves` (cell names, space-separated), Black first
/// and the colours alternating.
pub fn alternate(moves: &str) -> String {
    let mut color = ['b', 'w'].iter().cycle();
    moves
        .split_whitespace()
        .map(|m| format!("play {} {m}\n", color.next().unwrap()))
        .collect()
}

/// `play` lines for Black's stones, then White's (cell names,
/// space-separated).
pub fn stones_input(black: &str, white: &str) -> String {
    let mut out = String::new();
    for (c, list) in [("b", black), ("w", white)] {
        for cell in list.split_whitespace() {
            out += &format!("play {c} {cell}\n");
        }
    }
    out
}
