//! The HTP grammar on arbitrary lines: never panics, and every line is
//! either nothing (blank/comment) or one command or one reason.
#![no_main]

use ferrohex::htp::parse::{clean, parse_line};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for line in text.split('\n') {
        let parsed = parse_line(line);
        assert_eq!(parsed.is_none(), clean(line).is_none());
        if let Some(Err(f)) = parsed {
            assert!(!f.message.is_empty());
            assert!(!f.message.contains('\n'));
        }
    }
});
