//! Unit tests of the SGF reader and writer.

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
