//! The whole engine fed an arbitrary byte stream: never panics, and the
//! answer framing stays intact: exactly one `=`/`?` answer per command
//! line, each ending with a blank line and holding no blank line inside.
#![no_main]

use std::io::Cursor;
use std::time::Duration;

use ferrohex::engine::Engine;
use ferrohex::htp::command::Command;
use ferrohex::htp::parse::{is_interrupt, parse_line};
use ferrohex::search::SearchParams;
use libfuzzer_sys::fuzz_target;

/// The session starts on a small board, where a `genmove` takes a fraction
/// of a millisecond instead of the 5 ms the default 11x11 board's root
/// knowledge needs, and with a small solver table, whose pages a `genmove`
/// would otherwise fault in run after run; an input's own `boardsize` and
/// `param_dfpn` still reach every size.
const START: &[u8] = b"boardsize 5\nparam_dfpn tt_mb 1\n";
/// Answers to `START`.
const START_ANSWERS: usize = 2;

fuzz_target!(|data: &[u8]| {
    // Any file a command might still create lands in a scratch folder,
    // never in the working tree.
    static SCRATCH: std::sync::Once = std::sync::Once::new();
    SCRATCH.call_once(|| {
        let dir = std::env::temp_dir().join("ferrohex-fuzz-scratch");
        std::fs::create_dir_all(&dir).unwrap();
        std::env::set_current_dir(&dir).unwrap();
    });
    let text = String::from_utf8_lossy(data);
    // The answers the framing rules promise: those to `START`, then one per
    // command line.
    let mut expected = START_ANSWERS;
    for line in text.split_inclusive('\n') {
        let line = line.strip_suffix('\n').unwrap_or(line);
        if is_interrupt(line) {
            continue;
        }
        match parse_line(line) {
            None => {}
            // Writing files, and engine settings that would make a run
            // take seconds, are outside what this target exercises.
            Some(Ok(req))
                if matches!(
                    req.command,
                    Command::PrintSgf(Some(_))
                        | Command::ShowBoardSvg(Some(_))
                        | Command::ParamFerrohex(Some(_))
                ) =>
            {
                return;
            }
            Some(Ok(req)) if req.command == Command::Quit => {
                expected += 1;
                break;
            }
            Some(_) => expected += 1,
        }
    }
    let params = SearchParams {
        threads: 1,
        max_depth: Some(1),
        tt_mb: 1,
        ..SearchParams::default()
    };
    let engine = Engine::new(params, Duration::from_millis(5));
    let mut input = START.to_vec();
    input.extend_from_slice(data);
    let mut out = Vec::new();
    ferrohex::htp::driver::run(engine, Cursor::new(input), &mut out).unwrap();
    let out = String::from_utf8(out).expect("answers are UTF-8");
    assert!(out.is_empty() || out.ends_with("\n\n"));
    let answers: Vec<&str> = out.split_terminator("\n\n").collect();
    for a in &answers {
        assert!(a.starts_with('=') || a.starts_with('?'), "{a:?}");
    }
    assert_eq!(answers.len(), expected, "{out:?}");
});
