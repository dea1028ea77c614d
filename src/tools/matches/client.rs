//! The controller's side of HTP: an engine started with `sh -c CMD`, one
//! command at a time, each answer awaited with an optional time limit.
//! Shared by `ferrohex match` and `ferrohex regress`.
//!
//! A reader thread owns the engine's standard output and hands over whole
//! answers (the lines up to the empty line), so a wait can give up after a
//! time limit without blocking on a read. The engine runs in a process
//! group of its own, so killing it also ends whatever `sh -c` started.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// One answer: `=` (ok) or `?` (failure), and its text without the status
/// character and id, trimmed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub ok: bool,
    pub text: String,
}

impl Answer {
    /// The answer as the engine wrote it, without the id: `= text` or
    /// `? text`.
    pub fn display(&self) -> String {
        let status = if self.ok { '=' } else { '?' };
        if self.text.is_empty() {
            status.to_string()
        } else {
            format!("{status} {}", self.text)
        }
    }
}

/// Why a command got no usable answer. After any of these the engine's
/// state is unknown and it should be restarted before it is used again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HtpError {
    /// No answer within the time limit (the engine has been killed).
    Timeout(Duration),
    /// The engine closed its output or could not be written to.
    Dead(String),
    /// Output that is not an HTP answer (not starting with `=` or `?`).
    Malformed(String),
}

impl std::fmt::Display for HtpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HtpError::Timeout(d) => write!(f, "no answer within {:.3} s", d.as_secs_f64()),
            HtpError::Dead(why) => write!(f, "the engine died ({why})"),
            HtpError::Malformed(text) => write!(f, "malformed answer {text:?}"),
        }
    }
}

/// What an engine's output holds, answer by answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The lines of one answer, without the closing empty line.
    Answer(Vec<String>),
    /// More than [`MAX_ANSWER_BYTES`] without an empty line: the engine is
    /// broken, and nothing after it is read.
    Oversized,
    /// End of the engine's output.
    Eof,
}

/// The most of one answer a controller keeps. An engine that writes more
/// without ending its answer (a runaway line, no newline at all) is
/// treated as broken instead of growing the controller's memory.
pub const MAX_ANSWER_BYTES: usize = 4 << 20;

/// Splits an engine's output into [`Event`]s, handing each to `send` until
/// it returns false. Lines are decoded lossily and lose their line ends;
/// the last event is [`Event::Eof`] or [`Event::Oversized`].
pub fn read_events(mut reader: impl BufRead, mut send: impl FnMut(Event) -> bool) {
    let mut lines: Vec<String> = Vec::new();
    let mut size = 0usize;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let room = (MAX_ANSWER_BYTES - size) as u64 + 1;
        match (&mut reader).take(room).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => {
                if !lines.is_empty() && !send(Event::Answer(std::mem::take(&mut lines))) {
                    return;
                }
                send(Event::Eof);
                return;
            }
            Ok(n) => size += n,
        }
        if size > MAX_ANSWER_BYTES {
            send(Event::Oversized);
            return;
        }
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim_end_matches(['\n', '\r']);
        if line.trim().is_empty() {
            size = 0;
            if !lines.is_empty() && !send(Event::Answer(std::mem::take(&mut lines))) {
                return;
            }
        } else {
            lines.push(line.to_string());
        }
    }
}

/// A running HTP engine.
pub struct Engine {
    command: String,
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    /// When set, the command stream is copied to standard error with this
    /// prefix.
    trace: Option<String>,
    broken: bool,
    killed: bool,
}

impl Engine {
    /// Starts `sh -c command`.
    pub fn start(command: &str) -> io::Result<Engine> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .process_group(0)
            .spawn()?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take();
        let (tx, events) = mpsc::channel();
        thread::spawn(move || {
            read_events(BufReader::new(stdout), |event| tx.send(event).is_ok());
        });
        Ok(Engine {
            command: command.to_string(),
            child,
            stdin,
            events,
            trace: None,
            broken: false,
            killed: false,
        })
    }

    /// Copies the command stream to standard error, each line after `prefix`.
    pub fn set_trace(&mut self, prefix: Option<String>) {
        self.trace = prefix;
    }

    pub fn command(&self) -> &str {
        &self.command
    }

    /// Whether a command failed in a way that leaves the engine unusable
    /// (timeout, death, malformed output) since it was started.
    pub fn is_broken(&self) -> bool {
        self.broken
    }

    /// Sends one command line and waits for its answer, at most `timeout`
    /// when given. On a timeout the engine is killed.
    pub fn send(&mut self, line: &str, timeout: Option<Duration>) -> Result<Answer, HtpError> {
        if let Some(prefix) = &self.trace {
            eprintln!("{prefix}> {line}");
        }
        let result = self.exchange(line, timeout);
        if let Some(prefix) = &self.trace {
            match &result {
                Ok(a) => eprintln!("{prefix}< {}", a.display().replace('\n', "\n  ")),
                Err(e) => eprintln!("{prefix}! {e}"),
            }
        }
        if result.is_err() {
            self.broken = true;
            if matches!(result, Err(HtpError::Timeout(_))) {
                self.kill();
            }
        }
        result
    }

    fn exchange(&mut self, line: &str, timeout: Option<Duration>) -> Result<Answer, HtpError> {
        if self.broken {
            return Err(HtpError::Dead(
                "it failed earlier and was not restarted".into(),
            ));
        }
        // An answer nobody asked for is a protocol error, and would shift
        // every later answer by one.
        if let Ok(event) = self.events.try_recv() {
            return match event {
                Event::Answer(lines) => Err(HtpError::Malformed(lines.join("\n"))),
                Event::Oversized => Err(oversized()),
                Event::Eof => Err(HtpError::Dead(self.exit_status())),
            };
        }
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| HtpError::Dead("input closed".into()))?;
        let write = stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| stdin.flush());
        if let Err(e) = write {
            return Err(HtpError::Dead(format!(
                "cannot write to it: {e}; {}",
                self.exit_status()
            )));
        }
        let event = match timeout {
            None => self.events.recv().unwrap_or(Event::Eof),
            Some(limit) => match self.events.recv_timeout(limit) {
                Ok(event) => event,
                Err(RecvTimeoutError::Timeout) => return Err(HtpError::Timeout(limit)),
                Err(RecvTimeoutError::Disconnected) => Event::Eof,
            },
        };
        match event {
            Event::Answer(lines) => parse_answer(&lines),
            Event::Oversized => Err(oversized()),
            Event::Eof => Err(HtpError::Dead(self.exit_status())),
        }
    }

    /// How the engine ended, waiting briefly for it to do so.
    fn exit_status(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return status.to_string(),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                Ok(None) => return "output closed".into(),
                Err(e) => return e.to_string(),
            }
        }
    }

    /// Kills the engine and everything in its process group.
    pub fn kill(&mut self) {
        self.stdin = None;
        if !self.killed {
            self.killed = true;
            // The group id is the shell's pid (process_group(0)); the group
            // outlives the shell while anything it started still runs.
            let _ = Command::new("sh")
                .arg("-c")
                .arg(format!("kill -s KILL -- -{} 2>/dev/null", self.child.id()))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Kills the engine and starts the same command again.
    pub fn restart(&mut self) -> io::Result<()> {
        self.kill();
        let trace = self.trace.take();
        *self = Engine::start(&self.command)?;
        self.trace = trace;
        Ok(())
    }

    /// Ends the engine politely: `quit`, then end of input; killed if it
    /// has not gone within `grace`.
    pub fn shutdown(&mut self, grace: Duration) {
        if !self.broken {
            let _ = self.exchange("quit", Some(grace));
        }
        self.stdin = None;
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            thread::sleep(Duration::from_millis(10));
        }
        // Also ends stray processes of a compound command.
        self.kill();
        self.broken = true;
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.shutdown(Duration::from_secs(2));
    }
}

/// The answer in `lines` (one HTP answer without its empty line).
pub fn parse_answer(lines: &[String]) -> Result<Answer, HtpError> {
    let first = lines.first().map(String::as_str).unwrap_or("");
    let ok = match first.chars().next() {
        Some('=') => true,
        Some('?') => false,
        _ => return Err(HtpError::Malformed(lines.join("\n"))),
    };
    let rest = first[1..].trim_start_matches(|c: char| c.is_ascii_digit());
    let mut text = rest.to_string();
    for line in &lines[1..] {
        text.push('\n');
        text.push_str(line);
    }
    Ok(Answer {
        ok,
        text: text.trim().to_string(),
    })
}

fn oversized() -> HtpError {
    HtpError::Malformed(format!(
        "an answer of more than {} MiB",
        MAX_ANSWER_BYTES >> 20
    ))
}

/// `s` quoted for `sh`, so that a path with spaces or quotes survives.
pub fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@%".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn answers_lose_status_and_id() {
        assert_eq!(
            parse_answer(&lines(&["=12 ferrohex"])).unwrap(),
            Answer {
                ok: true,
                text: "ferrohex".into()
            }
        );
        assert_eq!(
            parse_answer(&lines(&["="])).unwrap(),
            Answer {
                ok: true,
                text: String::new()
            }
        );
        let a = parse_answer(&lines(&["? unknown command: x"])).unwrap();
        assert!(!a.ok);
        assert_eq!(a.text, "unknown command: x");
        let board = parse_answer(&lines(&["= ", "  a b", "1 . . 1"])).unwrap();
        assert_eq!(board.text, "a b\n1 . . 1");
        assert!(matches!(
            parse_answer(&lines(&["c3"])),
            Err(HtpError::Malformed(_))
        ));
    }

    #[test]
    fn quoting_for_the_shell() {
        assert_eq!(shell_quote("/usr/bin/ferrohex"), "/usr/bin/ferrohex");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }

    #[test]
    fn talks_to_a_shell_engine_and_notices_death_and_silence() {
        let script = "while read l; do case $l in quit) echo '='; echo; exit;; \
                      hang*) sleep 5;; die*) exit 3;; *) echo \"= got $l\"; echo;; esac; done";
        let mut e = Engine::start(script).unwrap();
        let a = e.send("7 name", Some(Duration::from_secs(5))).unwrap();
        assert_eq!(a.text, "got 7 name");
        let t = Instant::now();
        assert_eq!(
            e.send("hang", Some(Duration::from_millis(200))),
            Err(HtpError::Timeout(Duration::from_millis(200)))
        );
        assert!(t.elapsed() < Duration::from_secs(3));
        assert!(e.is_broken());
        e.restart().unwrap();
        assert!(e.send("name", None).unwrap().ok);
        assert!(matches!(e.send("die", None), Err(HtpError::Dead(_))));
    }

    fn events(bytes: &[u8]) -> Vec<Event> {
        let mut out = Vec::new();
        read_events(bytes, |e| {
            out.push(e);
            true
        });
        out
    }

    #[test]
    fn output_splits_into_answers_at_empty_lines() {
        let a = |v: &[&str]| Event::Answer(lines(v));
        assert_eq!(
            events(b"= a\r\n\r\n= b\nc\n \n\n\n? d"),
            [a(&["= a"]), a(&["= b", "c"]), a(&["? d"]), Event::Eof]
        );
        assert_eq!(events(b""), [Event::Eof]);
        // Invalid UTF-8 is kept, replaced.
        assert_eq!(events(b"= \xff\n\n"), [a(&["= \u{fffd}"]), Event::Eof]);
    }

    #[test]
    fn a_runaway_answer_is_cut_off_not_kept() {
        let long = vec![b'x'; MAX_ANSWER_BYTES + 10];
        assert_eq!(events(&long), [Event::Oversized]);
        // The limit is per answer: many answers may add up to more.
        let mut many = Vec::new();
        for _ in 0..3 {
            many.extend(vec![b'y'; MAX_ANSWER_BYTES / 2]);
            many.extend(b"\n\n");
        }
        assert_eq!(events(&many).len(), 4);
        // An engine that never ends its line breaks, and the controller
        // goes on.
        let mut e = Engine::start("read l; yes = | tr -d '\\n'").unwrap();
        let r = e.send("name", Some(Duration::from_secs(20)));
        assert!(
            matches!(&r, Err(HtpError::Malformed(m)) if m.contains("more than 4 MiB")),
            "{r:?}"
        );
        assert!(e.is_broken());
        e.kill();
    }
}
