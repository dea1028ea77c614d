//! Answer framing, in exactly one place: `=` or `?`, the echoed id, a
//! space, the text, and the blank line that ends every answer.

/// Formats one answer. The text never contains an empty line (that would end
/// the answer early for the controller), so any are removed here; a text
/// starting with a newline (a diagram) keeps that first line break.
pub fn format(id: Option<u64>, result: &Result<String, String>) -> String {
    let (mark, text) = match result {
        Ok(t) => ('=', t.as_str()),
        Err(t) => ('?', t.as_str()),
    };
    let mut out = String::with_capacity(text.len() + 8);
    out.push(mark);
    if let Some(id) = id {
        out.push_str(&id.to_string());
    }
    let mut lines = text.split('\n').map(|l| l.trim_end_matches('\r'));
    // Always a space after the mark, even for an empty answer: HexGui
    // recognises answers by their first two characters, `= ` or `? `.
    out.push(' ');
    out.push_str(lines.next().unwrap_or(""));
    for l in lines.filter(|l| !l.trim().is_empty()) {
        out.push('\n');
        out.push_str(l);
    }
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::format;

    #[test]
    fn framing() {
        assert_eq!(format(None, &Ok(String::new())), "= \n\n");
        assert_eq!(format(Some(12), &Ok("e5".into())), "=12 e5\n\n");
        assert_eq!(format(Some(3), &Err("bad".into())), "?3 bad\n\n");
        assert_eq!(
            format(None, &Ok("\n a b\n\n1 . .\n".into())),
            "= \n a b\n1 . .\n\n"
        );
    }
}
