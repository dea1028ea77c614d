//! The `ferrohex` binary: parses flags, sets up logging on stderr and hands
//! stdin/stdout to the HTP driver.

use std::io;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use ferrohex::engine::Engine;
use ferrohex::search::{Level, SearchParams};
use ferrohex::tools;

/// A Hex engine speaking HTP (the GTP dialect of Benzene) on stdin/stdout.
/// With no subcommand it runs the HTP loop; the flags below configure that
/// loop, and each subcommand has flags of its own.
#[derive(Parser, Debug)]
#[command(
    name = "ferrohex",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    tool: Option<Tool>,
    /// Search threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Seconds per move.
    #[arg(long, default_value_t = 10.0, value_parser = positive_seconds)]
    max_time: f64,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65536))]
    tt_mb: u64,
    /// Playing strength: easy, medium, hard or max.
    #[arg(long, default_value_t = Level::default())]
    level: Level,
    /// Safe mode, for input from untrusted sources (a bot relaying a game
    /// server): no command reads or writes files, `tt_mb` parameters are
    /// capped at 1024 MiB and `threads` at the number of cores.
    #[arg(long)]
    safe: bool,
    /// Log level on stderr (error, warn, info, debug, trace); overrides RUST_LOG.
    #[arg(long, value_name = "LEVEL")]
    log: Option<log::LevelFilter>,
}

#[derive(Subcommand, Debug)]
enum Tool {
    /// Run the fixed benchmark: evaluation speed, nodes per second, the signature.
    Bench(tools::bench::Args),
    /// Play a game against the engine in the terminal.
    Play(tools::play::Args),
    /// Play engines against each other.
    Match(Box<tools::matches::Args>),
    /// Run GTP regression files (.tst) against an HTP engine.
    Regress(tools::regress::Args),
    /// Draw a position or game as SVG.
    Render(tools::render::Args),
    /// Print the winner of a text diagram.
    Winner(tools::winner::Args),
}

fn positive_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 1.0e6 => Ok(v),
        _ => Err(format!("{s} is not a number of seconds above 0")),
    }
}

/// glibc gives every thread that allocates an arena of its own, up to
/// eight per core, and an arena keeps what it once held. With the solver
/// and verifier threads genmove starts each move, a 30-game soak against
/// Wolve and MoHex (176 MiB of tables) peaked at 343 MiB resident; with one
/// arena per core, at 276 MiB, at the same node rates. A `MALLOC_ARENA_MAX`
/// the user set is left as it is.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn limit_malloc_arenas() {
    unsafe extern "C" {
        fn mallopt(param: i32, value: i32) -> i32;
    }
    /// `M_ARENA_MAX` in glibc's malloc.h.
    const M_ARENA_MAX: i32 = -8;
    if std::env::var_os("MALLOC_ARENA_MAX").is_some() {
        return;
    }
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let arenas = i32::try_from(cores.max(2)).unwrap_or(i32::MAX);
    // SAFETY: mallopt only sets a limit of the allocator; it is called
    // before any other thread exists.
    unsafe {
        mallopt(M_ARENA_MAX, arenas);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn limit_malloc_arenas() {}

fn main() -> ExitCode {
    limit_malloc_arenas();
    let cli = Cli::parse();
    let mut logger =
        env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"));
    if let Some(level) = cli.log {
        logger.filter_level(level);
    }
    logger.target(env_logger::Target::Stderr).init();

    match cli.tool {
        Some(Tool::Bench(args)) => return tools::bench::run(args),
        Some(Tool::Play(args)) => return tools::play::run(args),
        Some(Tool::Match(args)) => return tools::matches::run(*args),
        Some(Tool::Regress(args)) => return tools::regress::run(args),
        Some(Tool::Render(args)) => return tools::render::run(args),
        Some(Tool::Winner(args)) => return tools::winner::run(args),
        None => {}
    }

    if let Err(e) = ferrohex::memory::check_table(cli.tt_mb as usize, "transposition table") {
        eprintln!("ferrohex: --tt-mb {}: {e}", cli.tt_mb);
        return ExitCode::from(2);
    }
    let params = SearchParams {
        threads: cli.threads,
        tt_mb: cli.tt_mb as usize,
        level: cli.level,
        ..SearchParams::default()
    };
    let mut engine = Engine::new(params, Duration::from_secs_f64(cli.max_time));
    if cli.safe {
        engine.set_safe();
    }
    let stdin = io::BufReader::new(io::stdin());
    match ferrohex::htp::driver::run(engine, stdin, io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed stdout means the controller went away: nothing to report to.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            log::error!("{e}");
            ExitCode::FAILURE
        }
    }
}
