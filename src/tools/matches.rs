//! `ferrohex match`: plays two HTP engines against each other, refereed
//! here, and reports the score, the Elo difference and (with `--sprt`) a
//! sequential test; `ferrohex match --summarize` merges result files.
//!
//! The schedule: without `--openings`, `--games` games (default 2) from the
//! empty board, the engines taking Black in turn (engine 1 in even-numbered
//! games). With `--openings FILE` (one opening a line, moves separated by
//! spaces, `#` comments), each opening is played twice with the colours
//! swapped, in file order or shuffled with `--seed`; `--games N` then plays
//! the first N games of that schedule (repeating it if needed). Game i of
//! the schedule is the same in every run with the same arguments, which is
//! what `--shard K/N` relies on: it plays only the K-th (from 0) of N
//! contiguous slices.
//!
//! Time: with `--time T` each engine gets `time_settings 0 T 1` at the start
//! of a game and `time_left COLOR T 1` before each `genmove` (T seconds for
//! every move); a `genmove` that takes longer than 1.5 T + 1 s loses on
//! time. `--timeout S` sets that limit directly (also without `--time`).
//! Engine-specific settings go in `--setup1`/`--setup2` (`--setup` for
//! both): commands separated by `;`, sent when an engine starts or is
//! restarted.
//!
//! Exit status: 0 when the match was played (or summarized), 2 on bad
//! arguments, an unreadable file, or an engine that cannot be started, set
//! up, or told the board size.

pub mod client;
mod record;
mod referee;
mod stats;
mod summary;

pub use referee::parse_move;

/// Prints a line of the report; a closed standard output (`| head`) is not
/// an error worth a panic.
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}

macro_rules! out_raw {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($t)*);
    }};
}

use std::collections::BTreeSet;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use client::Engine;
use record::GameRecord;
use referee::{GameSpec, Played, Rules};
use summary::Summary;

/// Play two HTP engines against each other (or merge result files).
///
/// Examples:
///   ferrohex match "ferrohex --max-time 1" "wolve" --size 9 --openings 9x9-all-1ply --time 1
///   ferrohex match A B --shard 3/100 --results results-3.jsonl
///   ferrohex match --summarize results-*.jsonl
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The two engines' shell commands (run with `sh -c`); with
    /// --summarize, the result files to merge.
    #[arg(value_name = "CMD1 CMD2 | FILES", required = true)]
    args: Vec<String>,
    /// Merge --results files (JSON lines) into one table instead of playing.
    #[arg(long)]
    summarize: bool,
    /// Board size: N or WxH (W columns, H rows).
    #[arg(long, default_value = "11", value_parser = parse_size)]
    size: (usize, usize),
    /// Number of games (default: 2, or two per opening with --openings).
    #[arg(long, value_name = "N")]
    games: Option<usize>,
    /// Openings file: one opening a line, moves separated by spaces; each
    /// opening is played twice, colours swapped.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Seconds per move, sent as time_settings 0 T 1 and time_left COLOR T 1.
    #[arg(long, value_name = "T", value_parser = seconds)]
    time: Option<f64>,
    /// A genmove taking longer than this many seconds loses on time
    /// (default: 1.5 T + 1 with --time, no limit without).
    #[arg(long, value_name = "S", value_parser = seconds)]
    timeout: Option<f64>,
    /// Commands for both engines, separated by ';', sent at start-up.
    #[arg(long, value_name = "CMDS")]
    setup: Vec<String>,
    /// Commands for engine 1 only, separated by ';' (e.g. "param_ferrohex max_time 1").
    #[arg(long, value_name = "CMDS")]
    setup1: Vec<String>,
    /// Commands for engine 2 only, separated by ';'.
    #[arg(long, value_name = "CMDS")]
    setup2: Vec<String>,
    /// Name for engine 1 in reports (default: its answer to `name`).
    #[arg(long, value_name = "NAME")]
    name1: Option<String>,
    /// Name for engine 2 in reports (default: its answer to `name`).
    #[arg(long, value_name = "NAME")]
    name2: Option<String>,
    /// Games played at once, each job with its own pair of engine processes.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    jobs: u64,
    /// Write each game as FOLDER/game-NNNNN.sgf.
    #[arg(long, value_name = "FOLDER")]
    sgf_dir: Option<PathBuf>,
    /// Shuffle the openings with this seed (default: file order).
    #[arg(long)]
    seed: Option<u64>,
    /// Sequential probability ratio test of ELO0 against ELO1 (alpha = beta
    /// = 0.05); an unsharded match stops once it decides.
    #[arg(long, value_name = "ELO0,ELO1", value_parser = stats::parse_sprt)]
    sprt: Option<(f64, f64)>,
    /// Play only slice K (from 0) of N of the schedule.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<(usize, usize)>,
    /// Write one JSON line per game to this file.
    #[arg(long, value_name = "FILE")]
    results: Option<PathBuf>,
    /// Let White answer the first move with swap-pieces (turn it on in the
    /// engines too, e.g. --setup "param_game allow_swap 1").
    #[arg(long)]
    swap: bool,
    /// Copy the command streams to standard error.
    #[arg(long, short)]
    verbose: bool,
}

fn seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 1.0e6 => Ok(v),
        _ => Err(format!("{s} is not a number of seconds above 0")),
    }
}

fn parse_size(s: &str) -> Result<(usize, usize), String> {
    let (w, h) = match s.split_once(['x', 'X']) {
        Some((w, h)) => (w, h),
        None => (s, s),
    };
    let side = |x: &str| {
        x.trim()
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=crate::board::MAX_SIZE).contains(n))
            .ok_or_else(|| {
                format!(
                    "{s} is not a board size (N or WxH, each 1 to {})",
                    crate::board::MAX_SIZE
                )
            })
    };
    Ok((side(w)?, side(h)?))
}

fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("{s} is not a shard K/N with 0 <= K < N");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n) = (
        k.trim().parse::<usize>().map_err(|_| bad())?,
        n.trim().parse::<usize>().map_err(|_| bad())?,
    );
    if n == 0 || k >= n {
        return Err(bad());
    }
    Ok((k, n))
}

/// splitmix64: a small deterministic generator for shuffling openings.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    }
}

/// Reads an openings file: one opening a line, blank lines and `#`
/// comments skipped.
fn read_openings(path: &PathBuf, rules: &Rules) -> Result<Vec<Vec<String>>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut openings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let moves: Vec<String> = line
            .split_whitespace()
            .map(str::to_ascii_lowercase)
            .collect();
        referee::check_opening(rules, &moves)
            .map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
        openings.push(moves);
    }
    if openings.is_empty() {
        return Err(format!("{}: no openings", path.display()));
    }
    Ok(openings)
}

/// The whole schedule, the same for every shard.
fn schedule(
    openings: Option<Vec<Vec<String>>>,
    games: Option<usize>,
    seed: Option<u64>,
) -> Vec<GameSpec> {
    let mut openings = openings.unwrap_or_default();
    if let Some(seed) = seed {
        SplitMix(seed).shuffle(&mut openings);
    }
    let total = games.unwrap_or(if openings.is_empty() {
        2
    } else {
        2 * openings.len()
    });
    (0..total)
        .map(|i| GameSpec {
            index: i,
            seed,
            opening: if openings.is_empty() {
                Vec::new()
            } else {
                openings[(i / 2) % openings.len()].clone()
            },
            black: i % 2,
        })
        .collect()
}

/// The games of shard `k` of `n`: a contiguous slice.
fn shard_of(specs: Vec<GameSpec>, shard: Option<(usize, usize)>) -> Vec<GameSpec> {
    match shard {
        None => specs,
        Some((k, n)) => {
            let total = specs.len();
            let (from, to) = (k * total / n, (k + 1) * total / n);
            specs.into_iter().skip(from).take(to - from).collect()
        }
    }
}

fn split_commands(list: &[String]) -> Vec<String> {
    list.iter()
        .flat_map(|s| s.split(';'))
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

/// Starts an engine and sends its set-up.
fn start_engine(
    command: &str,
    setup: &[String],
    label: &str,
    verbose: bool,
) -> Result<Engine, String> {
    let mut engine =
        Engine::start(command).map_err(|e| format!("cannot start {label} ({command}): {e}"))?;
    if verbose {
        engine.set_trace(Some(format!("[{label}] ")));
    }
    referee::send_setup(&mut engine, setup, label, Duration::from_secs(60))?;
    Ok(engine)
}

/// The engines' names: `--name1`/`--name2`, else their `name` answers,
/// made distinct when equal. Asking also checks that each engine speaks
/// HTP at all; one that does not is a fatal error.
fn engine_names(args: &Args, engines: &mut [Engine; 2]) -> Result<[String; 2], String> {
    let given = [&args.name1, &args.name2];
    let mut names = [String::new(), String::new()];
    for (i, engine) in engines.iter_mut().enumerate() {
        let answer = engine
            .send("name", Some(Duration::from_secs(60)))
            .map_err(|e| {
                format!(
                    "engine {} ({}) does not answer name: {e}",
                    i + 1,
                    engine.command()
                )
            })?;
        names[i] = match given[i] {
            Some(n) => n.clone(),
            None if answer.ok && !answer.text.is_empty() => {
                answer.text.lines().next().unwrap_or("").trim().to_string()
            }
            None => format!("engine{}", i + 1),
        };
    }
    if names[0] == names[1] {
        for (i, n) in names.iter_mut().enumerate() {
            n.push_str(&format!("#{}", i + 1));
        }
    }
    Ok(names)
}

enum Message {
    Done(Box<Played>),
    Fatal(String),
}

pub fn run(args: Args) -> ExitCode {
    let result = if args.summarize {
        summarize(&args)
    } else {
        play(args)
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ferrohex match: {e}");
            ExitCode::from(2)
        }
    }
}

fn summarize(args: &Args) -> Result<(), String> {
    let mut records: Vec<GameRecord> = Vec::new();
    let mut seen = BTreeSet::new();
    for file in &args.args {
        let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let r = GameRecord::from_json(line).map_err(|e| format!("{file}:{}: {e}", n + 1))?;
            // Shards of one match share its schedule; matches with other
            // seeds are other games.
            if !seen.insert((r.seed, r.game)) {
                eprintln!(
                    "ferrohex match: {file}:{}: game {} was already read; skipped",
                    n + 1,
                    r.game
                );
                continue;
            }
            if let Some(first) = records.first()
                && first.names != r.names
            {
                eprintln!(
                    "ferrohex match: {file}:{}: engines {:?} differ from {:?}",
                    n + 1,
                    r.names,
                    first.names
                );
            }
            records.push(r);
        }
    }
    let names = records
        .first()
        .map(|r| r.names.clone())
        .unwrap_or_else(|| ["engine1".into(), "engine2".into()]);
    let mut summary = Summary::new(names);
    for r in &records {
        summary.add(r);
    }
    out_raw!("{}", summary.table(args.sprt));
    Ok(())
}

fn play(args: Args) -> Result<(), String> {
    if args.args.len() != 2 {
        return Err(format!(
            "expected two engine commands, got {} (use --summarize to merge result files)",
            args.args.len()
        ));
    }
    let (width, height) = args.size;
    let common = split_commands(&args.setup);
    let setup = [
        [common.clone(), split_commands(&args.setup1)].concat(),
        [common, split_commands(&args.setup2)].concat(),
    ];
    let rules = Rules {
        width,
        height,
        time: args.time,
        move_limit: args
            .timeout
            .or(args.time.map(|t| 1.5 * t + 1.0))
            .map(Duration::from_secs_f64),
        allow_swap: args.swap,
        setup,
    };
    let openings = match &args.openings {
        Some(path) => Some(read_openings(path, &rules)?),
        None => None,
    };
    let specs = shard_of(schedule(openings, args.games, args.seed), args.shard);
    let mut results = match &args.results {
        Some(path) => {
            Some(BufWriter::new(File::create(path).map_err(|e| {
                format!("cannot write {}: {e}", path.display())
            })?))
        }
        None => None,
    };
    if let Some(dir) = &args.sgf_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }

    // The first pair of engines tells their names and plays in job 0.
    let labels = ["engine 1".to_string(), "engine 2".to_string()];
    let mut first = [
        start_engine(&args.args[0], &rules.setup[0], &labels[0], args.verbose)?,
        start_engine(&args.args[1], &rules.setup[1], &labels[1], args.verbose)?,
    ];
    let names = engine_names(&args, &mut first)?;
    let shard_text = match args.shard {
        Some((k, n)) => format!(" (shard {k}/{n})"),
        None => String::new(),
    };
    out!(
        "{} vs {}: {} games on {}x{}{shard_text}, {} at once",
        names[0],
        names[1],
        specs.len(),
        width,
        height,
        args.jobs
    );

    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Message>();
    let jobs = (args.jobs as usize).min(specs.len()).max(1);
    let mut summary = Summary::new(names.clone());
    let mut fatal: Option<String> = None;
    let started = Instant::now();
    let mut first = Some(first);
    std::thread::scope(|scope| {
        for job in 0..jobs {
            let tx = tx.clone();
            let engines = if job == 0 { first.take() } else { None };
            let (specs, rules, names, next, stop, args) =
                (&specs, &rules, &names, &next, &stop, &args);
            scope.spawn(move || {
                let mut engines = match engines {
                    Some(e) => e,
                    None => {
                        let start = |i: usize| {
                            start_engine(
                                &args.args[i],
                                &rules.setup[i],
                                &format!("{} (job {job})", names[i]),
                                args.verbose,
                            )
                        };
                        match start(0).and_then(|a| Ok([a, start(1)?])) {
                            Ok(e) => e,
                            Err(e) => {
                                let _ = tx.send(Message::Fatal(e));
                                return;
                            }
                        }
                    }
                };
                while !stop.load(Ordering::SeqCst) {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(spec) = specs.get(i) else { break };
                    match referee::play_game(&mut engines, names, spec, rules) {
                        Ok(played) => {
                            if tx.send(Message::Done(Box::new(played))).is_err() {
                                break;
                            }
                        }
                        Err(e) => {
                            let _ = tx.send(Message::Fatal(e));
                            break;
                        }
                    }
                }
            });
        }
        drop(tx);
        let mut done = 0;
        for message in rx {
            match message {
                Message::Fatal(e) => {
                    stop.store(true, Ordering::SeqCst);
                    fatal.get_or_insert(e);
                }
                Message::Done(played) => {
                    done += 1;
                    let r = &played.record;
                    summary.add(r);
                    if let Some(out) = results.as_mut() {
                        let written = writeln!(out, "{}", r.to_json()).and_then(|()| out.flush());
                        if let Err(e) = written {
                            stop.store(true, Ordering::SeqCst);
                            fatal.get_or_insert(format!("cannot write the results: {e}"));
                        }
                    }
                    if let Some(dir) = &args.sgf_dir {
                        let path = dir.join(format!("game-{:05}.sgf", r.game));
                        if let Err(e) = std::fs::write(&path, referee::sgf(&played, &rules)) {
                            eprintln!("ferrohex match: cannot write {}: {e}", path.display());
                        }
                    }
                    out!(
                        "[{done}/{}] {} | {}",
                        specs.len(),
                        progress(r),
                        summary.score_line()
                    );
                    if let Some(bounds) = args.sprt {
                        let t = summary.sprt(bounds);
                        if t.verdict != stats::Verdict::Continue
                            && args.shard.is_none()
                            && !stop.load(Ordering::SeqCst)
                        {
                            out!(
                                "SPRT decided after {done} games (LLR {:.2}); stopping",
                                t.llr
                            );
                            stop.store(true, Ordering::SeqCst);
                        }
                    }
                }
            }
        }
    });
    out!("");
    out_raw!("{}", summary.table(args.sprt));
    out!("Played in {:.1} s", started.elapsed().as_secs_f64());
    match fatal {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// One game for the progress line.
fn progress(r: &GameRecord) -> String {
    let (b, w) = (r.black - 1, 2 - r.black);
    let mut s = format!("game {}: {} (B) vs {} (W)", r.game, r.names[b], r.names[w]);
    if !r.opening.is_empty() {
        s.push_str(&format!(", opening {}", r.opening));
    }
    let color = if r.winner_is_black() {
        "black"
    } else {
        "white"
    };
    s.push_str(&format!(
        ": {} wins as {color} ({}) after {} move{}",
        r.names[r.winner - 1],
        r.reason.name(),
        r.moves,
        if r.moves == 1 { "" } else { "s" }
    ));
    if !r.detail.is_empty() {
        s.push_str(&format!(" [{}]", r.detail.replace('\n', " ")));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ops(lines: &[&str]) -> Option<Vec<Vec<String>>> {
        Some(
            lines
                .iter()
                .map(|l| l.split_whitespace().map(String::from).collect())
                .collect(),
        )
    }

    #[test]
    fn schedules_pair_openings_with_swapped_colours() {
        let s = schedule(ops(&["a1", "b2 c3"]), None, None);
        assert_eq!(s.len(), 4);
        assert_eq!((s[0].opening.join(" "), s[0].black), ("a1".into(), 0));
        assert_eq!((s[1].opening.join(" "), s[1].black), ("a1".into(), 1));
        assert_eq!((s[3].opening.join(" "), s[3].black), ("b2 c3".into(), 1));
        assert_eq!(
            schedule(ops(&["a1", "b2"]), Some(5), None)[4].opening,
            vec!["a1"]
        );
        let plain = schedule(None, Some(3), None);
        assert_eq!(
            plain.iter().map(|g| g.black).collect::<Vec<_>>(),
            vec![0, 1, 0]
        );
        assert_eq!(schedule(None, None, None).len(), 2);
        let many: Vec<String> = (1..=9).map(|i| format!("a{i}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let a = schedule(ops(&many), None, Some(7));
        assert_eq!(a, schedule(ops(&many), None, Some(7)));
        assert_ne!(a, schedule(ops(&many), None, None));
    }

    #[test]
    fn shards_cover_the_schedule_once() {
        let all = schedule(None, Some(10), None);
        let mut seen = Vec::new();
        for k in 0..3 {
            seen.extend(
                shard_of(all.clone(), Some((k, 3)))
                    .into_iter()
                    .map(|g| g.index),
            );
        }
        assert_eq!(seen, (0..10).collect::<Vec<_>>());
        assert_eq!(parse_shard("3/100"), Ok((3, 100)));
        assert!(
            parse_shard("100/100").is_err()
                && parse_shard("1/0").is_err()
                && parse_shard("x").is_err()
        );
    }

    #[test]
    fn sizes_and_setup_lists() {
        assert_eq!(parse_size("7"), Ok((7, 7)));
        assert_eq!(parse_size("4x5"), Ok((4, 5)));
        assert!(parse_size("27").is_err() && parse_size("0x3").is_err());
        assert_eq!(
            split_commands(&["a 1; b 2;".into(), "c".into()]),
            vec!["a 1".to_string(), "b 2".into(), "c".into()]
        );
    }
}
