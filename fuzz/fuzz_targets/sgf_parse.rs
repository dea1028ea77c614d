//! The SGF reader on arbitrary bytes: never panics; whatever it accepts
//! turns into a game or a one-line reason, and a game it builds writes out
//! and reads back to the same position.
#![no_main]

use ferrohex::game::Game;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match ferrohex::sgf::parse(&text) {
        Err(e) => assert!(!e.contains('\n')),
        Ok(record) => {
            if let Ok(game) = Game::from_sgf(&record, None, true) {
                let again = ferrohex::sgf::parse(&ferrohex::sgf::write(&game.to_sgf())).unwrap();
                let back = Game::from_sgf(&again, None, true).unwrap();
                assert_eq!(back.position(), game.position());
            }
        }
    }
});
