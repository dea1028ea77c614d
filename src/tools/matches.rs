//! `ferrohex matches` (being written; see issue 6).

use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> ExitCode {
    eprintln!("ferrohex: this subcommand is not built yet");
    ExitCode::FAILURE
}
