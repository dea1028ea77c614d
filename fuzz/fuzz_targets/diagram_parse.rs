//! The text-diagram reader on arbitrary bytes: never panics; a diagram it
//! reads either becomes a game or is refused with a one-line reason, and a
//! game's showboard picture reads back to the same position.
#![no_main]

use ferrohex::present::textboard::{Letters, parse, parse_game};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for letters in [Letters::Common, Letters::Seed] {
        match parse(&text, letters) {
            Err(e) => assert!(!e.contains('\n'), "{e:?}"),
            Ok(diagram) => {
                let _ = diagram.winner();
                if let Ok(game) = parse_game(&text, letters) {
                    let picture = ferrohex::present::diagram::showboard(&game);
                    let again = parse_game(&picture, letters).expect("showboard reads back");
                    assert_eq!(again.position(), game.position());
                }
            }
        }
    }
});
