//! What `ferrohex match` and `ferrohex regress` read from other programs,
//! on arbitrary bytes: a regression file (before the first NUL byte) and
//! an engine's output (after it). A referee must survive a broken
//! opponent: the output splits into answers or ends in a clear error, each
//! answer's move is read against the rules, and each of the file's
//! expectations judges each answer, without a panic.
#![no_main]

use ferrohex::game::Game;
use ferrohex::tools::matches::client::{Event, parse_answer, read_events};
use ferrohex::tools::matches::parse_move;
use ferrohex::tools::regress::parse_file;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (file, output) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (&data[..0], data),
    };
    let steps = parse_file(&String::from_utf8_lossy(file)).unwrap_or_default();
    let mut game = Game::new(11, 11).unwrap();
    read_events(output, |event| {
        if let Event::Answer(lines) = event
            && let Ok(answer) = parse_answer(&lines)
        {
            if let Some(mv) = parse_move(&game, &answer.text) {
                let _ = game.play(game.to_move(), mv);
            }
            for step in steps.iter().take(16) {
                if let Some(e) = &step.expect {
                    e.accepts(&answer.text);
                }
            }
        }
        true
    });
});
