//! `ferrohex winner FILE`: who has won the position in a text diagram.
//!
//! The diagram is read by [`crate::present::textboard`] (rows of `.`, `X`, `O`, `B`,
//! `W`, or ferrohex's own `showboard` picture). The answer is one line on
//! standard output: the winner's letter as the diagram writes it (`X`, `O`,
//! `B` or `W`), or `none`; with `--names`, `black`, `white` or `none`
//! (ferrohex's colours: Black joins top and bottom, White left and right).
//! The exit status is 0 when someone has won, 1 when nobody has, 2 when the
//! diagram cannot be read.

use std::io::Read;
use std::process::ExitCode;

use crate::board::Color;
use crate::present::textboard::{self, Diagram, Letters};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The diagram file; `-` reads standard input.
    pub file: String,
    /// What X and O mean: `common` (O joins top and bottom, X joins left
    /// and right, as in the usual test data) or `seed` (the reverse). B and
    /// W are always Black (top-bottom) and White (left-right).
    #[arg(long, default_value_t = Letters::Common, value_name = "common|seed")]
    pub letters: Letters,
    /// Print `black`, `white` or `none` instead of the winner's letter.
    #[arg(long)]
    pub names: bool,
}

/// The diagram file's text; `-` is standard input.
pub fn read_input(file: &str) -> Result<String, String> {
    const MAX_BYTES: u64 = 4 << 20;
    let mut bytes = Vec::new();
    let result = if file == "-" {
        std::io::stdin()
            .lock()
            .take(MAX_BYTES + 1)
            .read_to_end(&mut bytes)
    } else {
        std::fs::File::open(file).and_then(|f| f.take(MAX_BYTES + 1).read_to_end(&mut bytes))
    };
    result.map_err(|e| format!("cannot read {file}: {e}"))?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(format!("cannot read {file}: files over 4 MiB are refused"));
    }
    String::from_utf8(bytes).map_err(|_| format!("cannot read {file}: it is not UTF-8 text"))
}

/// The line `ferrohex winner` prints for a diagram.
pub fn answer(diagram: &Diagram, names: bool) -> String {
    match diagram.winner() {
        None => "none".into(),
        Some(color) if names => color.name().into(),
        Some(color) => winner_letter(diagram, color).to_string(),
    }
}

/// The letter the winner's stones are written with: the one most used in
/// its winning chain (a diagram could mix `O` and `B`).
fn winner_letter(diagram: &Diagram, color: Color) -> char {
    let chain = diagram.winning_chain(color).unwrap_or_default();
    let mut counts: Vec<(char, usize)> = Vec::new();
    for &(col, row) in &chain {
        if let Some(s) = diagram.stone(col, row) {
            match counts.iter_mut().find(|(l, _)| *l == s.letter) {
                Some((_, n)) => *n += 1,
                None => counts.push((s.letter, 1)),
            }
        }
    }
    counts
        .iter()
        .max_by_key(|(_, n)| *n)
        .map_or(color.letter(), |(l, _)| *l)
}

pub fn run(args: Args) -> ExitCode {
    let diagram = read_input(&args.file).and_then(|text| {
        textboard::parse(&text, args.letters)
            .map_err(|e| format!("cannot read the diagram in {}: {e}", args.file))
    });
    match diagram {
        Ok(d) => {
            println!("{}", answer(&d, args.names));
            if d.winner().is_some() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("ferrohex winner: {e}");
            ExitCode::from(2)
        }
    }
}
