//! `ferrohex regress`: runs GoGui/Benzene regression files (`.tst`)
//! against an HTP engine and reports each test.
//!
//! The format, as GoGui's gogui-regress reads it:
//! - a line `NN command args` is a test: it is sent with the id NN;
//! - the line right after it may be `#? [REGEX]`, the expected answer: the
//!   whole answer (after `=`, trimmed) must match REGEX (see
//!   [`regex`](self::regex) for the syntax); `[!REGEX]` expects an answer
//!   that does not match; a `*` after the bracket marks a known failure, so
//!   passing it is an "unexpected pass";
//! - a `?` answer fails the test whatever the pattern;
//! - any other line that is not blank or a `#` comment is a set-up
//!   command: its answer is not checked, but a failure is reported.
//!
//! Each file gets a fresh engine. Relative paths in `loadsgf` are resolved
//! against the file's folder. With `--timeout`, a command that does not
//! answer in time fails (its test, if it is one); the engine is restarted
//! and the set-up commands since the last `boardsize`, `clear_board` or
//! `loadsgf` are sent again, so the file continues.
//!
//! If the engine cannot be restarted (or fails the replay), the rest of the
//! file is skipped and reported as aborted.
//!
//! Exit status: 0 when every test not marked `*` passed (unexpected passes
//! are fine), 1 when at least one failed, 2 when a file could not be read or
//! parsed, the engine could not be started, or a file was aborted.

#[path = "regress_regex.rs"]
pub mod regex;

/// Prints a line of the report; a closed standard output (`| head`) is not
/// an error worth a panic.
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use super::matches::client::{Answer, Engine, HtpError, shell_quote};
use regex::Regex;

/// Run GoGui/Benzene regression files (.tst) against an HTP engine.
///
/// Prints one line per test (passed, FAILED, unexpected pass, failed
/// (expected)) and a closing line `N passed, M failed (U unexpected passes,
/// E expected failures)`. Exit status 0 when no test failed unexpectedly,
/// 1 otherwise, 2 on an unreadable file or an engine that does not start.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Shell command starting the HTP engine (run with `sh -c`). Default:
    /// this ferrohex binary.
    #[arg(long, value_name = "CMD")]
    engine: Option<String>,
    /// Seconds to wait for each answer; a command that takes longer fails,
    /// and the engine is restarted. Default: wait as long as it takes.
    #[arg(long, value_name = "S", value_parser = seconds)]
    timeout: Option<f64>,
    /// For the default engine: seconds per move (its --max-time).
    #[arg(long, value_name = "S", value_parser = seconds, conflicts_with = "engine")]
    max_time: Option<f64>,
    /// For the default engine: search threads (its --threads).
    #[arg(long, value_name = "N", conflicts_with = "engine")]
    threads: Option<usize>,
    /// Copy the command stream to standard error.
    #[arg(long, short)]
    verbose: bool,
    /// The regression files.
    #[arg(required = true, value_name = "FILES")]
    files: Vec<PathBuf>,
}

fn seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 1.0e6 => Ok(v),
        _ => Err(format!("{s} is not a number of seconds above 0")),
    }
}

/// What a test expects of its answer.
#[derive(Clone, Debug)]
pub struct Expectation {
    /// The text between the brackets, for reports.
    pub text: String,
    regex: Regex,
    negated: bool,
    /// Marked with `*`: the reference engine is known to fail it.
    pub known_failure: bool,
}

impl Expectation {
    /// Parses what follows `#?` on an expectation line; `None` when it is
    /// empty (the test then only needs a successful answer).
    pub fn parse(spec: &str) -> Result<Option<Expectation>, String> {
        let spec = spec.trim();
        if spec.is_empty() {
            return Ok(None);
        }
        let (spec, known_failure) = match spec.strip_suffix('*') {
            Some(s) => (s.trim_end(), true),
            None => (spec, false),
        };
        let inner = spec
            .strip_prefix('[')
            .and_then(|s| s.strip_suffix(']'))
            .ok_or_else(|| format!("expected answer {spec:?} is not in brackets"))?
            .trim();
        let (pattern, negated) = match inner.strip_prefix('!') {
            Some(p) => (p, true),
            None => (inner, false),
        };
        Ok(Some(Expectation {
            text: inner.to_string(),
            regex: Regex::new(pattern)?,
            negated,
            known_failure,
        }))
    }

    /// Whether a successful answer's text meets the expectation.
    pub fn accepts(&self, answer: &str) -> bool {
        self.regex.matches(answer) != self.negated
    }
}

/// One command of a regression file.
#[derive(Clone, Debug)]
pub struct Step {
    /// Line number in the file, from 1.
    pub line: usize,
    /// The id of a test; `None` for a set-up command.
    pub id: Option<u64>,
    /// The command without its id.
    pub command: String,
    pub expect: Option<Expectation>,
}

impl Step {
    fn is_test(&self) -> bool {
        self.id.is_some() || self.expect.is_some()
    }

    /// The test's name in reports: its id, or its line.
    fn label(&self) -> String {
        match self.id {
            Some(id) => id.to_string(),
            None => format!("line {}", self.line),
        }
    }
}

/// Reads the commands and expectations of a regression file.
pub fn parse_file(text: &str) -> Result<Vec<Step>, String> {
    let mut steps: Vec<Step> = Vec::new();
    // Whether the previous line was a command, which a `#?` line may follow.
    let mut after_command = false;
    for (n, raw) in text.lines().enumerate() {
        let line_no = n + 1;
        let line = raw.replace('\t', " ");
        let line = line.trim();
        if let Some(spec) = line.strip_prefix("#?") {
            let step = match steps.last_mut() {
                Some(step) if after_command => step,
                _ => {
                    return Err(format!(
                        "line {line_no}: expected answer without a command before it"
                    ));
                }
            };
            step.expect = Expectation::parse(spec).map_err(|e| format!("line {line_no}: {e}"))?;
            after_command = false;
            continue;
        }
        after_command = false;
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (id, command) = match line.split_once(' ') {
            Some((first, rest))
                if !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()) =>
            {
                let id = first
                    .parse::<u64>()
                    .map_err(|_| format!("line {line_no}: test id {first} is too large"))?;
                (Some(id), rest.trim().to_string())
            }
            _ => (None, line.to_string()),
        };
        steps.push(Step {
            line: line_no,
            id,
            command,
            expect: None,
        });
        after_command = true;
    }
    Ok(steps)
}

/// `command` with a relative `loadsgf` path made absolute against `dir`.
pub fn resolve_paths(command: &str, dir: &Path) -> String {
    let words: Vec<&str> = command.split_whitespace().collect();
    match words.as_slice() {
        [name, file, rest @ ..]
            if name.eq_ignore_ascii_case("loadsgf") && Path::new(file).is_relative() =>
        {
            let mut out = format!("{name} {}", dir.join(file).display());
            for w in rest {
                out.push(' ');
                out.push_str(w);
            }
            out
        }
        _ => command.to_string(),
    }
}

/// The commands that start a new game: after them, earlier set-up need not
/// be replayed on a restarted engine.
fn starts_new_game(command: &str) -> bool {
    let name = command
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    matches!(name.as_str(), "boardsize" | "clear_board" | "loadsgf")
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Passed,
    Failed,
    UnexpectedPass,
    ExpectedFailure,
}

impl Outcome {
    fn word(self) -> &'static str {
        match self {
            Outcome::Passed => "passed",
            Outcome::Failed => "FAILED",
            Outcome::UnexpectedPass => "unexpected pass",
            Outcome::ExpectedFailure => "failed (expected)",
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub passed: usize,
    pub failed: usize,
    pub unexpected_passes: usize,
    pub expected_failures: usize,
    pub setup_errors: usize,
    /// Files given up part-way because the engine could not be restarted.
    pub aborted: usize,
}

impl Counts {
    fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Passed => self.passed += 1,
            Outcome::Failed => self.failed += 1,
            Outcome::UnexpectedPass => {
                self.passed += 1;
                self.unexpected_passes += 1;
            }
            Outcome::ExpectedFailure => {
                self.failed += 1;
                self.expected_failures += 1;
            }
        }
    }

    fn merge(&mut self, o: &Counts) {
        self.passed += o.passed;
        self.failed += o.failed;
        self.unexpected_passes += o.unexpected_passes;
        self.expected_failures += o.expected_failures;
        self.setup_errors += o.setup_errors;
        self.aborted += o.aborted;
    }

    /// Failures of tests not marked `*`.
    pub fn unexpected_failures(&self) -> usize {
        self.failed - self.expected_failures
    }

    /// `N passed, M failed (U unexpected passes, E expected failures)`.
    pub fn line(&self) -> String {
        let mut s = format!(
            "{} passed, {} failed ({} unexpected {}, {} expected {})",
            self.passed,
            self.failed,
            self.unexpected_passes,
            plural(self.unexpected_passes, "pass", "passes"),
            self.expected_failures,
            plural(self.expected_failures, "failure", "failures"),
        );
        if self.aborted > 0 {
            s.push_str(&format!(
                ", {} {} aborted",
                self.aborted,
                plural(self.aborted, "file", "files")
            ));
        }
        if self.setup_errors > 0 {
            s.push_str(&format!(
                ", {} set-up {}",
                self.setup_errors,
                plural(self.setup_errors, "error", "errors")
            ));
        }
        s
    }
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// An answer on one line for a report: newlines shown as `\n`, long ones
/// cut short.
fn one_line(text: &str) -> String {
    const MAX: usize = 70;
    let flat = text.replace('\n', "\\n");
    if flat.chars().count() > MAX {
        let cut: String = flat.chars().take(MAX).collect();
        format!("{cut}...")
    } else {
        flat
    }
}

fn default_engine(args: &Args) -> Result<String, String> {
    let exe =
        std::env::current_exe().map_err(|e| format!("cannot find the ferrohex binary: {e}"))?;
    let mut cmd = shell_quote(&exe.to_string_lossy());
    if let Some(t) = args.max_time {
        cmd.push_str(&format!(" --max-time {t}"));
    }
    if let Some(n) = args.threads {
        cmd.push_str(&format!(" --threads {n}"));
    }
    Ok(cmd)
}

/// Runs one file; `Err` when it cannot be read or parsed, or the engine
/// does not start.
fn run_file(
    path: &Path,
    engine_cmd: &str,
    timeout: Option<Duration>,
    verbose: bool,
) -> Result<Counts, String> {
    let text = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let steps = parse_file(&String::from_utf8_lossy(&text))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let dir = path
        .parent()
        .map(|p| {
            if p.as_os_str().is_empty() {
                Path::new(".")
            } else {
                p
            }
        })
        .unwrap_or(Path::new("."));
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    out!("== {}", path.display());
    // Per-test lines name the file without its folder; the header has it.
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut engine =
        Engine::start(engine_cmd).map_err(|e| format!("cannot start {engine_cmd:?}: {e}"))?;
    if verbose {
        engine.set_trace(Some(String::new()));
    }
    let started = Instant::now();
    let mut counts = Counts::default();
    // Set-up commands since the game was last reset, for a restarted engine.
    let mut replay: Vec<String> = Vec::new();
    for step in &steps {
        let command = resolve_paths(&step.command, &dir);
        if starts_new_game(&command) {
            replay.clear();
        }
        let line = match step.id {
            Some(id) => format!("{id} {command}"),
            None => command.clone(),
        };
        let t = Instant::now();
        let result = engine.send(&line, timeout);
        let elapsed = t.elapsed().as_secs_f64();
        let mut aborted = None;
        let restarted = match &result {
            Err(e) => match restart(&mut engine, &replay, timeout, e) {
                Ok(how) => how,
                Err(why) => {
                    aborted = Some(why);
                    "the rest of the file is skipped".into()
                }
            },
            Ok(_) => String::new(),
        };
        let succeeded = matches!(result, Ok(Answer { ok: true, .. }));
        if succeeded && (!step.is_test() || starts_new_game(&command)) {
            replay.push(command.clone());
        }
        let answer = match &result {
            Ok(a) => one_line(&a.display()),
            Err(e) => format!("({e}; {restarted})"),
        };
        if !step.is_test() {
            if !succeeded {
                counts.setup_errors += 1;
                out!(
                    "{name} line {}: set-up command failed: {} => {}",
                    step.line,
                    step.command,
                    answer
                );
            }
        } else {
            report_test(&name, step, &result, elapsed, &answer, &mut counts);
        }
        if let Some(why) = aborted {
            counts.aborted += 1;
            out!("{name}: aborted: {why}");
            break;
        }
    }
    drop(engine);
    out!(
        "{name}: {} in {:.1} s",
        counts.line(),
        started.elapsed().as_secs_f64()
    );
    Ok(counts)
}

/// Judges a test's answer, counts it and prints its line.
fn report_test(
    name: &str,
    step: &Step,
    result: &Result<Answer, HtpError>,
    elapsed: f64,
    answer: &str,
    counts: &mut Counts,
) {
    let pass = match (result, &step.expect) {
        (Ok(a), Some(e)) => a.ok && e.accepts(&a.text),
        (Ok(a), None) => a.ok,
        (Err(_), _) => false,
    };
    let known_failure = step.expect.as_ref().is_some_and(|e| e.known_failure);
    let outcome = match (pass, known_failure) {
        (true, false) => Outcome::Passed,
        (false, false) => Outcome::Failed,
        (true, true) => Outcome::UnexpectedPass,
        (false, true) => Outcome::ExpectedFailure,
    };
    counts.add(outcome);
    let expected = match &step.expect {
        Some(e) => format!("[{}]{}", e.text, if e.known_failure { "*" } else { "" }),
        None => "success".into(),
    };
    out!(
        "{name} {:>5} {:<17} {} => {}  expected {}  {:.2} s",
        step.label(),
        outcome.word(),
        step.command,
        answer,
        expected,
        elapsed
    );
}

/// Restarts the engine after `error` and replays the set-up; says what was
/// done, for the report.
fn restart(
    engine: &mut Engine,
    replay: &[String],
    timeout: Option<Duration>,
    error: &HtpError,
) -> Result<String, String> {
    log::warn!("{error}: restarting {:?}", engine.command());
    engine
        .restart()
        .map_err(|e| format!("cannot restart {:?}: {e}", engine.command()))?;
    for command in replay {
        match engine.send(command, timeout) {
            Ok(a) if a.ok => {}
            Ok(a) => log::warn!(
                "replaying {command:?} on the restarted engine: {}",
                a.display()
            ),
            Err(e) => return Err(format!("the restarted engine fails too ({command}: {e})")),
        }
    }
    Ok(if replay.is_empty() {
        "engine restarted".to_string()
    } else {
        format!(
            "engine restarted, {} set-up commands replayed",
            replay.len()
        )
    })
}

pub fn run(args: Args) -> ExitCode {
    let engine = match &args.engine {
        Some(cmd) => cmd.clone(),
        None => match default_engine(&args) {
            Ok(cmd) => cmd,
            Err(e) => {
                eprintln!("ferrohex regress: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let timeout = args.timeout.map(Duration::from_secs_f64);
    let mut total = Counts::default();
    let mut broken_files = 0;
    for file in &args.files {
        match run_file(file, &engine, timeout, args.verbose) {
            Ok(counts) => total.merge(&counts),
            Err(e) => {
                broken_files += 1;
                out!("{}: not run: {e}", file.display());
                eprintln!("ferrohex regress: {e}");
            }
        }
    }
    let mut closing = total.line();
    if broken_files > 0 {
        closing.push_str(&format!(
            ", {broken_files} {} not run",
            plural(broken_files, "file", "files")
        ));
    }
    out!("{closing}");
    if broken_files > 0 || total.aborted > 0 {
        ExitCode::from(2)
    } else if total.unexpected_failures() > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_read_as_gogui_does() {
        let text = "# comment\n\nboardsize 3\n10 play b a1\n#? []\n\n20\tgenmove w\n#? [b2|c1]*\n30 name\n\
                    loadsgf sgf/x.sgf 3\n40 final_score\n#? [!W\\+]\n";
        let steps = parse_file(text).unwrap();
        assert_eq!(steps.len(), 6);
        assert_eq!(
            (steps[0].id, steps[0].command.as_str()),
            (None, "boardsize 3")
        );
        assert_eq!(
            (steps[1].id, steps[1].command.as_str()),
            (Some(10), "play b a1")
        );
        let e = steps[1].expect.as_ref().unwrap();
        assert!(e.accepts("") && !e.accepts("x") && !e.known_failure);
        let e = steps[2].expect.as_ref().unwrap();
        assert_eq!(steps[2].command, "genmove w");
        assert!(e.known_failure && e.accepts("c1") && !e.accepts("a1"));
        assert!(steps[3].expect.is_none() && steps[3].is_test());
        assert!(!steps[4].is_test());
        let e = steps[5].expect.as_ref().unwrap();
        assert!(e.accepts("B+") && !e.accepts("W+"));
        assert_eq!(e.text, "!W\\+");
    }

    #[test]
    fn malformed_files_are_refused() {
        assert!(parse_file("#? [x]\n").is_err());
        assert!(parse_file("10 name\n\n#? [x]\n").is_err());
        assert!(parse_file("10 name\n#? x\n").is_err());
        assert!(parse_file("10 name\n#? [(]\n").is_err());
    }

    #[test]
    fn loadsgf_paths_are_resolved_against_the_file() {
        let dir = Path::new("/data/regress");
        assert_eq!(
            resolve_paths("loadsgf sgf/a.sgf 4", dir),
            "loadsgf /data/regress/sgf/a.sgf 4"
        );
        assert_eq!(resolve_paths("loadsgf /x/a.sgf", dir), "loadsgf /x/a.sgf");
        assert_eq!(resolve_paths("genmove b", dir), "genmove b");
    }

    #[test]
    fn counts_read_as_one_line() {
        let mut c = Counts::default();
        for o in [
            Outcome::Passed,
            Outcome::Passed,
            Outcome::Failed,
            Outcome::UnexpectedPass,
            Outcome::ExpectedFailure,
        ] {
            c.add(o);
        }
        assert_eq!(
            c.line(),
            "3 passed, 2 failed (1 unexpected pass, 1 expected failure)"
        );
        assert_eq!(c.unexpected_failures(), 1);
    }
}
