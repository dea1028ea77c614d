//! SGF FF[4] GM[11]: reading and writing Hex game records the way Benzene
//! and HexGui do.
//!
//! Cells are written by name (`a1` top left, `k11`), not as Go-style letter
//! pairs; the swap move is `swap-pieces`, and a board that is not square has
//! `SZ[width:height]`. [`parse`] keeps only the main line of the first game
//! in the file (at every branching, the first variation) and reduces each
//! node to the properties that change the position: `AB`, `AW`, `AE`, `B`,
//! `W` and `PL`. Everything else (`C`, `PB`, `RE`, `AP`, ...) is skipped.
//!
//! The grammar is lexed with `nom`, one token at a time, and the tree is
//! walked by a loop with a depth counter, so deep nesting cannot overflow the
//! stack and the time taken is linear in the input.

use crate::board::{Color, MAX_SIZE};
use nom::branch::alt;
use nom::bytes::complete::{is_not, take_while, take_while1};
use nom::character::complete::{anychar, char};
use nom::combinator::recognize;
use nom::multi::many0_count;
use nom::sequence::pair;
use nom::{IResult, Parser};

/// The value of a `B[]` or `W[]` property.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgfMove {
    /// A stone on the cell, by its lowercase name as written, e.g. `f6`.
    Cell(String),
    /// The swap rule, `swap-pieces` (also read: `swap`).
    Swap,
    /// `resign` (also read: HexGui's `forfeit`).
    Resign,
    /// `pass`, or an empty value.
    Pass,
}

/// One position-changing property value of a node, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgfAction {
    /// `AB[cell]` / `AW[cell]`: a setup stone, one action per cell.
    Setup(Color, String),
    /// `AE[cell]`: clears a cell.
    Clear(String),
    /// `B[move]` / `W[move]`.
    Move(Color, SgfMove),
    /// `PL[B]` / `PL[W]`: the colour to move next.
    ToPlay(Color),
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SgfNode {
    pub actions: Vec<SgfAction>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfRecord {
    pub width: usize,
    pub height: usize,
    /// The main line, root node first. [`parse`] always gives at least one.
    pub nodes: Vec<SgfNode>,
}

/// The size Benzene and HexGui assume when `SZ` is missing.
const DEFAULT_SIZE: usize = 11;

const GM_HEX: u32 = 11;

/// Reads the first game of an SGF file. Errors are one lowercase line,
/// suitable to show a user.
pub fn parse(text: &str) -> Result<SgfRecord, String> {
    let raw = main_line(text)?;
    let props = || raw.iter().flat_map(|node| node.iter());

    for p in props() {
        match p.ident {
            "GM" => {
                let v = simple_text(p.values[0]);
                if v.parse::<u32>() != Ok(GM_HEX) {
                    return Err(format!("SGF game type {} is not Hex (GM[11])", show(&v)));
                }
            }
            "FF" => {
                let v = simple_text(p.values[0]);
                if !matches!(v.parse::<u32>(), Ok(1..=4)) {
                    return Err(format!(
                        "SGF version FF[{}] is not supported (1 to 4)",
                        show(&v)
                    ));
                }
            }
            _ => {}
        }
    }

    let mut size: Option<(String, (usize, usize))> = None;
    for p in props().filter(|p| p.ident == "SZ") {
        let v = simple_text(p.values[0]);
        let dims = parse_size(&v)?;
        match &size {
            None => size = Some((v, dims)),
            Some((first, d)) if *d != dims => {
                return Err(format!(
                    "SGF board size is given twice, as {} and {}",
                    show(first),
                    show(&v)
                ));
            }
            Some(_) => {}
        }
    }
    let (width, height) = size.map_or((DEFAULT_SIZE, DEFAULT_SIZE), |(_, d)| d);

    let mut nodes = Vec::with_capacity(raw.len());
    for raw_node in &raw {
        let mut actions = Vec::new();
        for p in raw_node {
            for &value in &p.values {
                let action = match p.ident {
                    "AB" => SgfAction::Setup(Color::Black, point(value, width, height)?),
                    "AW" => SgfAction::Setup(Color::White, point(value, width, height)?),
                    "AE" => SgfAction::Clear(point(value, width, height)?),
                    "B" => SgfAction::Move(Color::Black, sgf_move(value, width, height)?),
                    "W" => SgfAction::Move(Color::White, sgf_move(value, width, height)?),
                    "PL" => {
                        let v = simple_text(value);
                        match Color::parse(&v) {
                            Some(c) => SgfAction::ToPlay(c),
                            None => {
                                return Err(format!("SGF PL[{}] is not B or W", show(&v)));
                            }
                        }
                    }
                    _ => break,
                };
                actions.push(action);
            }
        }
        nodes.push(SgfNode { actions });
    }
    Ok(SgfRecord {
        width,
        height,
        nodes,
    })
}

/// Writes a record as one game tree on one line, ending in a newline. The
/// root node gets `FF`, `GM`, `AP` and `SZ` (`SZ[w:h]` when not square).
/// Within a node, the values of one property are gathered under it, the
/// properties in the order their first action comes.
pub fn write(record: &SgfRecord) -> String {
    let mut out = String::from("(;FF[4]GM[11]AP[ferrohex:");
    out.push_str(env!("CARGO_PKG_VERSION"));
    out.push_str("]SZ[");
    out.push_str(&record.width.to_string());
    if record.width != record.height {
        out.push(':');
        out.push_str(&record.height.to_string());
    }
    out.push(']');
    for (i, node) in record.nodes.iter().enumerate() {
        if i > 0 {
            out.push(';');
        }
        write_node(&mut out, node);
    }
    out.push_str(")\n");
    out
}

fn write_node(out: &mut String, node: &SgfNode) {
    let mut groups: Vec<(&'static str, Vec<&str>)> = Vec::new();
    for action in &node.actions {
        let (ident, value): (&'static str, &str) = match action {
            SgfAction::Setup(c, cell) => (if *c == Color::Black { "AB" } else { "AW" }, cell),
            SgfAction::Clear(cell) => ("AE", cell),
            SgfAction::Move(c, m) => (
                if *c == Color::Black { "B" } else { "W" },
                match m {
                    SgfMove::Cell(cell) => cell,
                    SgfMove::Swap => "swap-pieces",
                    SgfMove::Resign => "resign",
                    SgfMove::Pass => "pass",
                },
            ),
            SgfAction::ToPlay(c) => ("PL", if *c == Color::Black { "B" } else { "W" }),
        };
        match groups.iter_mut().find(|(id, _)| *id == ident) {
            Some((_, values)) => values.push(value),
            None => groups.push((ident, vec![value])),
        }
    }
    for (ident, values) in groups {
        out.push_str(ident);
        for v in values {
            out.push('[');
            for c in v.chars() {
                if c == ']' || c == '\\' {
                    out.push('\\');
                }
                out.push(c);
            }
            out.push(']');
        }
    }
}

// ---------------------------------------------------------------------------
// Lexing and the tree walk.

/// A property as written: its identifier and its raw (still escaped) values,
/// of which there is at least one.
struct RawProp<'a> {
    ident: &'a str,
    values: Vec<&'a str>,
}

type RawNode<'a> = Vec<RawProp<'a>>;

fn ws(i: &str) -> IResult<&str, &str> {
    take_while(char::is_whitespace).parse(i)
}

fn prop_ident(i: &str) -> IResult<&str, &str> {
    take_while1(|c: char| c.is_ascii_alphabetic()).parse(i)
}

/// The inside of a value up to, not including, its closing `]`: any text in
/// which `\` escapes the next character.
fn value_body(i: &str) -> IResult<&str, &str> {
    recognize(many0_count(alt((
        is_not("\\]"),
        recognize(pair(char('\\'), anychar)),
    ))))
    .parse(i)
}

/// Where the walk stands: just after `(` (a node must follow), inside a node
/// (properties, `;`, `(` or `)` may follow), or just after a `)` closing a
/// variation (only `(` or `)` may follow).
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    TreeStart,
    InNode,
    AfterTree,
}

/// Walks the first game tree in `text` and returns the properties of its
/// main-line nodes; the other variations are checked for syntax only.
fn main_line(text: &str) -> Result<Vec<RawNode<'_>>, String> {
    let start = game_start(text).ok_or_else(|| "not an SGF file".to_string())?;
    let line_of = |rest: &str| text[..text.len() - rest.len()].matches('\n').count() + 1;
    let syntax =
        |rest: &str, what: &str| format!("SGF syntax error at line {}: {what}", line_of(rest));
    let truncated = |what: char| format!("SGF truncated: missing '{what}'");

    // Past the opening '('.
    let mut rest = &text[start + 1..];
    let mut depth = 1usize;
    let mut state = State::TreeStart;
    let mut main_done = false;
    let mut nodes: Vec<RawNode> = Vec::new();

    loop {
        rest = ws(rest).map_or(rest, |(r, _)| r);
        let Some(c) = rest.chars().next() else {
            return Err(truncated(')'));
        };
        match (c, state) {
            (';', State::TreeStart | State::InNode) => {
                rest = &rest[1..];
                if !main_done {
                    nodes.push(Vec::new());
                }
                state = State::InNode;
            }
            ('(', State::InNode | State::AfterTree) => {
                rest = &rest[1..];
                depth += 1;
                state = State::TreeStart;
            }
            (')', State::InNode | State::AfterTree) => {
                rest = &rest[1..];
                depth -= 1;
                // Everything before the first ')' is the main line.
                main_done = true;
                if depth == 0 {
                    break;
                }
                state = State::AfterTree;
            }
            (_, State::InNode) if c.is_ascii_alphabetic() => {
                let (r, ident) = prop_ident(rest).map_err(|_| syntax(rest, "bad property"))?;
                rest = r;
                let mut values = Vec::new();
                loop {
                    let after_ws = ws(rest).map_or(rest, |(r, _)| r);
                    let Some(body) = after_ws.strip_prefix('[') else {
                        break;
                    };
                    let (r, value) = value_body(body).map_err(|_| truncated(']'))?;
                    let Some(r) = r.strip_prefix(']') else {
                        // The body stops only at ']', at the end, or at a
                        // lone '\' ending the text.
                        return Err(truncated(']'));
                    };
                    values.push(value);
                    rest = r;
                }
                if values.is_empty() {
                    return Err(syntax(
                        rest,
                        &format!("property {} has no value", show(ident)),
                    ));
                }
                if !main_done && let Some(node) = nodes.last_mut() {
                    node.push(RawProp { ident, values });
                }
            }
            (_, State::TreeStart) => return Err(syntax(rest, "expected ';' after '('")),
            (_, State::AfterTree) if c == ';' || c.is_ascii_alphabetic() => {
                return Err(syntax(rest, "a node follows a variation"));
            }
            _ => return Err(syntax(rest, &format!("unexpected {}", describe(c)))),
        }
    }
    Ok(nodes)
}

/// The byte offset of the first `(` followed, after any whitespace, by `;`.
/// Text before it (mail headers, a byte-order mark) is skipped, as HexGui
/// does.
fn game_start(text: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find('(') {
        let open = from + i;
        let after = &text[open + 1..];
        let after = after.trim_start();
        if after.starts_with(';') {
            return Some(open);
        }
        // Whatever followed the '(' and its whitespace is not ';', so the
        // next '(' can be no earlier than that: the scan stays linear.
        from = text.len() - after.len();
    }
    None
}

// ---------------------------------------------------------------------------
// Values.

/// A value unescaped: `\` followed by a line break is removed, `\x` is `x`;
/// then trimmed.
fn simple_text(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\r') => {
                chars.next_if_eq(&'\n');
            }
            Some('\n') => {
                chars.next_if_eq(&'\r');
            }
            Some(e) => out.push(e),
            None => {}
        }
    }
    out.trim().to_string()
}

/// `n` or `w:h`, each side 1 to 26.
fn parse_size(v: &str) -> Result<(usize, usize), String> {
    let side = |s: &str| -> Option<usize> {
        let s = s.trim();
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(s.parse().unwrap_or(usize::MAX))
    };
    let dims = match v.split_once(':') {
        None => side(v).map(|n| (n, n)),
        Some((w, h)) => side(w).zip(side(h)),
    };
    let Some((w, h)) = dims else {
        return Err(format!("SGF board size {} is malformed", show(v)));
    };
    if !(1..=MAX_SIZE).contains(&w) || !(1..=MAX_SIZE).contains(&h) {
        return Err(format!(
            "SGF board size {} is not supported (1 to {MAX_SIZE})",
            show(v)
        ));
    }
    Ok((w, h))
}

/// A cell, lowercase and canonical (`a1`), on the board. Besides names,
/// reads the Go-style letter pairs of Little Golem (`ba` is `b1`), as HexGui
/// does.
fn point(raw: &str, width: usize, height: usize) -> Result<String, String> {
    let v = simple_text(raw).to_ascii_lowercase();
    match cell_coords(&v) {
        Some(coords) => on_board(coords, width, height),
        None => Err(format!("SGF value {} is not a cell", show(&v))),
    }
}

fn sgf_move(raw: &str, width: usize, height: usize) -> Result<SgfMove, String> {
    let v = simple_text(raw).to_ascii_lowercase();
    match v.as_str() {
        "" | "pass" => Ok(SgfMove::Pass),
        "swap-pieces" | "swap" => Ok(SgfMove::Swap),
        "resign" | "forfeit" => Ok(SgfMove::Resign),
        "swap-sides" => Err("SGF move swap-sides is not supported (only swap-pieces)".to_string()),
        _ => match cell_coords(&v) {
            Some(coords) => on_board(coords, width, height).map(SgfMove::Cell),
            None => Err(format!(
                "SGF move {} is not a cell, swap-pieces, resign or pass",
                show(&v)
            )),
        },
    }
}

/// (column, row), both from 0, of a lowercase `a1`-style name or Go-style
/// pair; `None` when malformed.
fn cell_coords(v: &str) -> Option<(usize, usize)> {
    let b = v.as_bytes();
    let (&letter, tail) = b.split_first()?;
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let col = (letter - b'a') as usize;
    if let [second] = tail
        && second.is_ascii_lowercase()
    {
        return Some((col, (second - b'a') as usize));
    }
    if tail.is_empty() || tail.len() > 3 || !tail.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let row: usize = std::str::from_utf8(tail).ok()?.parse().ok()?;
    Some((col, row.checked_sub(1)?))
}

fn on_board((col, row): (usize, usize), width: usize, height: usize) -> Result<String, String> {
    let name = format!("{}{}", (b'a' + col as u8) as char, row + 1);
    if col < width && row < height {
        Ok(name)
    } else {
        Err(format!("SGF cell {name} is off the {width}x{height} board"))
    }
}

/// Text from the file made safe for a one-line message: escaped, shortened.
fn show(v: &str) -> String {
    const MAX: usize = 24;
    let mut s: String = v.chars().take(MAX).flat_map(char::escape_debug).collect();
    if v.chars().nth(MAX).is_some() {
        s.push_str("...");
    }
    if s.is_empty() { "''".to_string() } else { s }
}

fn describe(c: char) -> String {
    if c.is_ascii_graphic() {
        format!("'{c}'")
    } else {
        format!("character U+{:04X}", c as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::path::Path;

    fn count(record: &SgfRecord, f: impl Fn(&SgfAction) -> bool) -> usize {
        record
            .nodes
            .iter()
            .flat_map(|n| n.actions.iter())
            .filter(|a| f(a))
            .count()
    }

    fn setups(record: &SgfRecord, color: Color) -> usize {
        count(
            record,
            |a| matches!(a, SgfAction::Setup(c, _) if *c == color),
        )
    }

    fn sgf_files() -> Vec<std::path::PathBuf> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sgf");
        let mut out = Vec::new();
        let mut dirs = vec![root];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "sgf") {
                    out.push(path);
                }
            }
        }
        out.sort();
        out
    }

    /// Every stored file parses; its size and stone counts agree with a
    /// plain count of the bracketed cells in the text.
    #[test]
    fn all_data_files_parse() {
        let files = sgf_files();
        assert!(files.len() >= 50, "only {} files", files.len());
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            let r = parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let sz: usize = text
                .split("SZ[")
                .nth(1)
                .unwrap()
                .split(']')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            assert_eq!((r.width, r.height), (sz, sz), "{}", path.display());
            // Cells written in the file, by colour: values after AB up to AW
            // and so on are counted by walking the text by hand.
            let mut expect = [0usize; 2];
            let mut current: Option<usize> = None;
            let mut chars = text.chars().peekable();
            let mut ident = String::new();
            while let Some(c) = chars.next() {
                if c.is_ascii_uppercase() {
                    ident.push(c);
                } else if c == '[' {
                    if !ident.is_empty() {
                        current = match ident.as_str() {
                            "AB" => Some(0),
                            "AW" => Some(1),
                            _ => None,
                        };
                        ident.clear();
                    }
                    if let Some(i) = current {
                        expect[i] += 1;
                    }
                    for c in chars.by_ref() {
                        if c == ']' {
                            break;
                        }
                    }
                } else if !c.is_whitespace() {
                    ident.clear();
                    current = None;
                }
            }
            assert_eq!(setups(&r, Color::Black), expect[0], "{}", path.display());
            assert_eq!(setups(&r, Color::White), expect[1], "{}", path.display());
            for a in r.nodes.iter().flat_map(|n| &n.actions) {
                if let SgfAction::Setup(_, cell) | SgfAction::Move(_, SgfMove::Cell(cell)) = a {
                    let g = crate::board::Geometry::new(r.width, r.height).unwrap();
                    let c = g.parse_cell(cell).expect(cell);
                    assert_eq!(&g.name(c), cell);
                }
            }
            assert_eq!(parse(&write(&r)), Ok(r), "{}", path.display());
        }
    }

    fn data(name: &str) -> SgfRecord {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/sgf")
            .join(name);
        parse(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn known_files() {
        let r = data("endgame/close-endgame02.sgf");
        assert_eq!((r.width, r.height), (11, 11));
        assert_eq!(r.nodes.len(), 2);
        assert!(r.nodes[0].actions.is_empty());
        assert_eq!(setups(&r, Color::Black), 13);
        assert_eq!(setups(&r, Color::White), 13);
        assert_eq!(
            r.nodes[1].actions[0],
            SgfAction::Setup(Color::Black, "j2".into())
        );
        assert_eq!(
            r.nodes[1].actions.last(),
            Some(&SgfAction::ToPlay(Color::Black))
        );

        let r = data("endgame/close-endgame01.sgf");
        assert_eq!(setups(&r, Color::Black), 28);
        assert_eq!(setups(&r, Color::White), 28);
        assert_eq!(count(&r, |a| matches!(a, SgfAction::ToPlay(_))), 0);

        let r = data("endgame/simple-endgame03.sgf");
        assert_eq!((r.width, r.height), (8, 8));
        assert_eq!(
            r.nodes[1].actions,
            vec![
                SgfAction::Setup(Color::Black, "g2".into()),
                SgfAction::Setup(Color::Black, "f4".into()),
                SgfAction::Setup(Color::White, "f2".into()),
                SgfAction::Setup(Color::White, "f3".into()),
                SgfAction::ToPlay(Color::Black),
            ]
        );

        let r = data("opening/5x5a3.sgf");
        assert_eq!((r.width, r.height), (5, 5));
        assert_eq!(
            r.nodes[1].actions,
            vec![SgfAction::Move(Color::Black, SgfMove::Cell("a3".into()))]
        );

        let r = data("opening/7x7.sgf");
        assert_eq!((r.width, r.height), (7, 7));
        assert_eq!(r.nodes, vec![SgfNode::default(), SgfNode::default()]);
    }

    #[test]
    fn moves_and_special_values() {
        let r = parse(
            "(;FF[4]GM[11]SZ[11];B[f6];W[swap-pieces];B[SWAP];W[resign];B[];W[pass];B[ forfeit ];W[K11])",
        )
        .unwrap();
        let moves: Vec<_> = r.nodes[1..]
            .iter()
            .map(|n| match &n.actions[..] {
                [SgfAction::Move(c, m)] => (*c, m.clone()),
                other => panic!("{other:?}"),
            })
            .collect();
        use Color::{Black as B, White as W};
        assert_eq!(
            moves,
            vec![
                (B, SgfMove::Cell("f6".into())),
                (W, SgfMove::Swap),
                (B, SgfMove::Swap),
                (W, SgfMove::Resign),
                (B, SgfMove::Pass),
                (W, SgfMove::Pass),
                (B, SgfMove::Resign),
                (W, SgfMove::Cell("k11".into())),
            ]
        );
    }

    #[test]
    fn sizes() {
        let r = parse("(;FF[4]GM[11]SZ[5:7];B[e7])").unwrap();
        assert_eq!((r.width, r.height), (5, 7));
        assert!(write(&r).contains("SZ[5:7]"));
        assert!(
            parse("(;SZ[5:7];B[f1])")
                .unwrap_err()
                .contains("off the 5x7 board")
        );
        // No SZ: 11. No GM, no FF: fine.
        let r = parse("(;B[k11])").unwrap();
        assert_eq!((r.width, r.height), (11, 11));
        assert_eq!(parse("(;SZ[ 13 ])").unwrap().width, 13);
        assert_eq!(parse("(;SZ[1];B[a1])").unwrap().width, 1);
        assert_eq!(parse("(;SZ[26];B[z26])").unwrap().width, 26);
        // SZ after the stones in the same node still applies to them.
        assert_eq!(parse("(;AB[m13]SZ[13])").unwrap().width, 13);
    }

    #[test]
    fn syntax_tolerance() {
        // Whitespace everywhere, escapes, comments with brackets, unknown
        // and old-style properties, a byte-order mark and junk before the
        // game, a second game after it.
        let text = "\u{feff}junk (x) \n( ; FF [4] \r\n GM[11]\tSZ\n[6] C[a comment \\] with ( ; ) \\\\ and\nnewlines]\n\
                    PB[someone]AddBlack[a1] AB\n[a1]\n[b2] ; B [c3] C[] ; W[ d4 ] ) (;GM[1])";
        let r = parse(text).unwrap();
        assert_eq!(r.width, 6);
        assert_eq!(
            r.nodes,
            vec![
                SgfNode {
                    actions: vec![
                        SgfAction::Setup(Color::Black, "a1".into()),
                        SgfAction::Setup(Color::Black, "b2".into()),
                    ]
                },
                SgfNode {
                    actions: vec![SgfAction::Move(Color::Black, SgfMove::Cell("c3".into()))]
                },
                SgfNode {
                    actions: vec![SgfAction::Move(Color::White, SgfMove::Cell("d4".into()))]
                },
            ]
        );
        // A '\' before a line break joins the lines.
        let r = parse("(;AB[a\\\n1][b\\\r\n2])").unwrap();
        assert_eq!(
            r.nodes[0].actions,
            vec![
                SgfAction::Setup(Color::Black, "a1".into()),
                SgfAction::Setup(Color::Black, "b2".into()),
            ]
        );
        // Go-style pairs as written by Little Golem, and AE.
        let r = parse("(;SZ[13];W[mf];B[swap];AE[ba])").unwrap();
        assert_eq!(
            r.nodes[1].actions,
            vec![SgfAction::Move(Color::White, SgfMove::Cell("m6".into()))]
        );
        assert_eq!(r.nodes[3].actions, vec![SgfAction::Clear("b1".into())]);
        assert_eq!(
            parse("(;AB[a01])").unwrap().nodes[0].actions[0],
            SgfAction::Setup(Color::Black, "a1".into())
        );
    }

    #[test]
    fn variations_take_the_first() {
        let r = parse("(;SZ[5];B[a1](;W[b1];B[c1](;W[d1])(;W[e1]))(;W[a2];B[a3]))").unwrap();
        let cells: Vec<_> = r
            .nodes
            .iter()
            .flat_map(|n| &n.actions)
            .map(|a| match a {
                SgfAction::Move(_, SgfMove::Cell(c)) => c.as_str(),
                _ => panic!(),
            })
            .collect();
        assert_eq!(cells, ["a1", "b1", "c1", "d1"]);
        // Later variations are not interpreted, but must be well formed.
        assert!(parse("(;B[a1](;W[b1])(;W[zz99]))").is_ok());
        assert!(
            parse("(;B[a1](;W[b1])(;W[b2]")
                .unwrap_err()
                .contains("missing ')'")
        );
        assert!(
            parse("(;B[a1](;W[b1]);W[b2])")
                .unwrap_err()
                .contains("syntax error")
        );
    }

    #[test]
    fn deep_nesting_is_iterative() {
        let n = 100_000;
        let open = "(".repeat(n);
        assert_eq!(parse(&open), Err("not an SGF file".to_string()));
        assert!(
            parse(&format!("(;{open}"))
                .unwrap_err()
                .contains("expected ';'")
        );
        let text = format!("(;{}{}", "(;".repeat(n), ")".repeat(n + 1));
        assert_eq!(parse(&text).unwrap().nodes.len(), n + 1);
        let text = format!("(;B[a1]{}", "(;W[b1])".repeat(n)) + ")";
        assert_eq!(parse(&text).unwrap().nodes.len(), 2);
        let unclosed = format!("(;{}", "(;".repeat(n));
        assert_eq!(
            parse(&unclosed),
            Err("SGF truncated: missing ')'".to_string())
        );
    }

    #[test]
    fn big_inputs_are_linear() {
        let start = std::time::Instant::now();
        let n = 2_000_000;
        let comment = format!("(;C[{}];B[a1])", "x\\]".repeat(n));
        assert_eq!(parse(&comment).unwrap().nodes.len(), 2);
        let moves = format!("(;{})", ";B[a1]".repeat(n / 4));
        assert_eq!(parse(&moves).unwrap().nodes.len(), n / 4 + 1);
        let parens = "( ".repeat(n);
        assert!(parse(&parens).is_err());
        let values = format!("(;AB{})", "[a1]".repeat(n / 4));
        assert_eq!(parse(&values).unwrap().nodes[0].actions.len(), n / 4);
        assert!(start.elapsed().as_secs() < 60, "{:?}", start.elapsed());
    }

    #[test]
    fn errors() {
        let cases: &[(&str, &str)] = &[
            ("", "not an SGF file"),
            ("   \n", "not an SGF file"),
            ("\0\0\0\u{1}", "not an SGF file"),
            ("hello world", "not an SGF file"),
            ("(;FF[4]GM[1]SZ[19])", "SGF game type 1 is not Hex (GM[11])"),
            ("(;GM[go])", "SGF game type go is not Hex (GM[11])"),
            ("(;GM[11 1])", "SGF game type 11 1 is not Hex (GM[11])"),
            ("(;SZ[30])", "SGF board size 30 is not supported (1 to 26)"),
            ("(;SZ[0])", "SGF board size 0 is not supported (1 to 26)"),
            (
                "(;SZ[5:27])",
                "SGF board size 5:27 is not supported (1 to 26)",
            ),
            (
                "(;SZ[99999999999999999999999])",
                "SGF board size 99999999999999999999999 is not supported (1 to 26)",
            ),
            ("(;SZ[11x11])", "SGF board size 11x11 is malformed"),
            ("(;SZ[])", "SGF board size '' is malformed"),
            (
                "(;SZ[11];SZ[13])",
                "SGF board size is given twice, as 11 and 13",
            ),
            ("(;FF[5])", "SGF version FF[5] is not supported (1 to 4)"),
            ("(;B[z9])", "SGF cell z9 is off the 11x11 board"),
            ("(;SZ[9];AB[a10])", "SGF cell a10 is off the 9x9 board"),
            ("(;AW[a0])", "SGF value a0 is not a cell"),
            ("(;AW[])", "SGF value '' is not a cell"),
            ("(;AE[hello])", "SGF value hello is not a cell"),
            (
                "(;B[hello])",
                "SGF move hello is not a cell, swap-pieces, resign or pass",
            ),
            (
                "(;W[swap-sides])",
                "SGF move swap-sides is not supported (only swap-pieces)",
            ),
            ("(;PL[X])", "SGF PL[X] is not B or W"),
            ("(;FF[4]GM[11]SZ[11];B[a1]", "SGF truncated: missing ')'"),
            ("(;", "SGF truncated: missing ')'"),
            ("(;FF[4", "SGF truncated: missing ']'"),
            ("(;C[abc\\", "SGF truncated: missing ']'"),
            ("(;C[abc\\]", "SGF truncated: missing ']'"),
            (
                "(;FF)",
                "SGF syntax error at line 1: property FF has no value",
            ),
            ("(;\nB[a1] 7)", "SGF syntax error at line 2: unexpected '7'"),
            (
                "(;B[a1]\0)",
                "SGF syntax error at line 1: unexpected character U+0000",
            ),
            (
                "(;B[a1]()",
                "SGF syntax error at line 1: expected ';' after '('",
            ),
        ];
        for (text, want) in cases {
            assert_eq!(parse(text), Err(want.to_string()), "{text:?}");
        }
        // Messages quote at most a short, escaped piece of the file.
        let e = parse(&format!("(;B[{}\n\u{1}])", "q".repeat(100))).unwrap_err();
        assert!(!e.contains('\n') && e.len() < 100, "{e}");
    }

    #[test]
    fn write_format() {
        let r = SgfRecord {
            width: 11,
            height: 11,
            nodes: vec![
                SgfNode::default(),
                SgfNode {
                    actions: vec![SgfAction::Move(Color::Black, SgfMove::Cell("f6".into()))],
                },
                SgfNode {
                    actions: vec![SgfAction::Move(Color::White, SgfMove::Swap)],
                },
            ],
        };
        let v = env!("CARGO_PKG_VERSION");
        assert_eq!(
            write(&r),
            format!("(;FF[4]GM[11]AP[ferrohex:{v}]SZ[11];B[f6];W[swap-pieces])\n")
        );
        let r = SgfRecord {
            width: 4,
            height: 3,
            nodes: vec![SgfNode {
                actions: vec![
                    SgfAction::Setup(Color::Black, "a1".into()),
                    SgfAction::Setup(Color::White, "b1".into()),
                    SgfAction::Setup(Color::Black, "c1".into()),
                    SgfAction::ToPlay(Color::White),
                ],
            }],
        };
        assert_eq!(
            write(&r),
            format!("(;FF[4]GM[11]AP[ferrohex:{v}]SZ[4:3]AB[a1][c1]AW[b1]PL[W])\n")
        );
        // With no nodes the root is still written.
        let empty = SgfRecord {
            width: 3,
            height: 3,
            nodes: vec![],
        };
        assert_eq!(
            parse(&write(&empty)).unwrap().nodes,
            vec![SgfNode::default()]
        );
    }

    fn arb_cell(w: usize, h: usize) -> impl Strategy<Value = String> {
        (0..w, 0..h).prop_map(|(c, r)| format!("{}{}", (b'a' + c as u8) as char, r + 1))
    }

    fn arb_color() -> impl Strategy<Value = Color> {
        prop_oneof![Just(Color::Black), Just(Color::White)]
    }

    fn arb_record() -> impl Strategy<Value = SgfRecord> {
        (1..=26usize, 1..=26usize).prop_flat_map(|(w, h)| {
            let action = prop_oneof![
                (arb_color(), arb_cell(w, h)).prop_map(|(c, s)| SgfAction::Setup(c, s)),
                arb_cell(w, h).prop_map(SgfAction::Clear),
                arb_color().prop_map(SgfAction::ToPlay),
                (
                    arb_color(),
                    prop_oneof![
                        arb_cell(w, h).prop_map(SgfMove::Cell),
                        Just(SgfMove::Swap),
                        Just(SgfMove::Resign),
                        Just(SgfMove::Pass),
                    ]
                )
                    .prop_map(|(c, m)| SgfAction::Move(c, m)),
            ];
            // Actions sorted by kind so that each property's values are
            // together, as the writer gathers them.
            let node = prop::collection::vec(action, 0..6).prop_map(|mut actions| {
                let key = |a: &SgfAction| match a {
                    SgfAction::Setup(Color::Black, _) => 0,
                    SgfAction::Setup(Color::White, _) => 1,
                    SgfAction::Clear(_) => 2,
                    SgfAction::Move(Color::Black, _) => 3,
                    SgfAction::Move(Color::White, _) => 4,
                    SgfAction::ToPlay(_) => 5,
                };
                actions.sort_by_key(key);
                SgfNode { actions }
            });
            prop::collection::vec(node, 1..8).prop_map(move |nodes| SgfRecord {
                width: w,
                height: h,
                nodes,
            })
        })
    }

    /// Pieces of SGF, so that random text reaches deep into the parser.
    fn arb_sgfish() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            Just("(".to_string()),
            Just(")".to_string()),
            Just(";".to_string()),
            Just("(;".to_string()),
            Just("[".to_string()),
            Just("]".to_string()),
            Just("\\".to_string()),
            Just(" \n".to_string()),
            Just("AB".to_string()),
            Just("W".to_string()),
            Just("SZ[".to_string()),
            Just("GM[11]".to_string()),
            Just("PL[".to_string()),
            Just("5:3]".to_string()),
            Just("swap-pieces]".to_string()),
            "[a-z]{1,2}[0-9]{0,3}\\]?",
            any::<char>().prop_map(String::from),
        ];
        prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
    }

    proptest! {
        #[test]
        fn round_trip(r in arb_record()) {
            let text = write(&r);
            prop_assert_eq!(parse(&text), Ok(r));
        }

        #[test]
        fn never_panics_on_strings(s in any::<String>()) {
            let _ = parse(&s);
        }

        #[test]
        fn never_panics_on_bytes(b in prop::collection::vec(any::<u8>(), 0..300)) {
            let _ = parse(&String::from_utf8_lossy(&b));
        }

        #[test]
        fn never_panics_on_sgfish(s in arb_sgfish()) {
            if let Err(e) = parse(&s) {
                prop_assert!(!e.contains('\n'), "{}", e);
                prop_assert!(e.starts_with("SGF ") || e == "not an SGF file", "{}", e);
            }
        }

        #[test]
        fn never_panics_after_a_good_prefix(s in any::<String>()) {
            let _ = parse(&format!("(;FF[4]GM[11]SZ[7];B[a1]{s}"));
            let _ = parse(&format!("(;FF[4]GM[11]SZ[7];B[{s}])"));
            let _ = parse(&format!("(;SZ[{s}])"));
        }
    }
}
