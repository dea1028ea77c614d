//! `ferrohex render`: a position or a game (an SGF file or a text diagram)
//! drawn as SVG by [`crate::present::svg`].

use std::process::ExitCode;

use crate::game::Game;
use crate::present::svg::{SvgOptions, svg};
use crate::present::textboard::{self, Letters};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game (an SGF file) or position (a text diagram, as `ferrohex
    /// winner` reads) to draw; `-` reads standard input.
    pub input: String,
    /// Where to write the SVG; `-` (the default) is standard output.
    #[arg(short, long, default_value = "-", value_name = "FILE")]
    pub output: String,
    /// Draw the position after the first N moves of the game (default: all).
    #[arg(long, value_name = "N")]
    pub r#move: Option<usize>,
    /// Write the column letters and row numbers around the board.
    #[arg(long)]
    pub coords: bool,
    /// Write each stone's move number on it.
    #[arg(long)]
    pub numbers: bool,
    /// The hexagons' size: the distance from a hexagon's centre to a corner,
    /// in pixels.
    #[arg(long, default_value_t = 24.0, value_name = "PX", value_parser = cell_size)]
    pub cell_size: f64,
    /// For diagrams: what X and O mean (`common`: O joins top and bottom,
    /// X left and right; `seed`: the reverse).
    #[arg(long, default_value_t = Letters::Common, value_name = "common|seed")]
    pub letters: Letters,
}

fn cell_size(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (2.0..=1000.0).contains(&v) => Ok(v),
        _ => Err(format!("{s} is not a size in pixels from 2 to 1000")),
    }
}

/// Reads an SGF game or a text diagram; `moves` cuts an SGF game after
/// that many moves.
pub fn load(text: &str, moves: Option<usize>, letters: Letters) -> Result<Game, String> {
    if text.trim_start().starts_with('(') {
        let record = crate::sgf::parse(text)?;
        let all = Game::from_sgf(&record, None, true)?;
        match moves {
            None => Ok(all),
            Some(n) if n > all.num_moves() => Err(format!(
                "--move {n}: the game has only {} move{}",
                all.num_moves(),
                if all.num_moves() == 1 { "" } else { "s" }
            )),
            Some(n) => Game::from_sgf(&record, Some(n + 1), true),
        }
    } else {
        if moves.is_some() {
            return Err("--move needs an SGF game; a diagram has no moves".into());
        }
        textboard::parse_game(text, letters)
    }
}

pub fn run(args: Args) -> ExitCode {
    let result = super::winner::read_input(&args.input)
        .and_then(|text| {
            load(&text, args.r#move, args.letters)
                .map_err(|e| format!("cannot load {}: {e}", args.input))
        })
        .and_then(|game| {
            let options = SvgOptions {
                coords: args.coords,
                numbers: args.numbers,
                cell_size: args.cell_size,
                ..SvgOptions::default()
            };
            let picture = svg(&game, &options);
            if args.output == "-" {
                use std::io::Write;
                let mut stdout = std::io::stdout().lock();
                stdout
                    .write_all(picture.as_bytes())
                    .and_then(|()| stdout.flush())
                    .map_err(|e| format!("cannot write the picture: {e}"))
            } else {
                std::fs::write(&args.output, picture)
                    .map_err(|e| format!("cannot write {}: {e}", args.output))
            }
        });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ferrohex render: {e}");
            ExitCode::FAILURE
        }
    }
}
