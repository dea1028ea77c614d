//! `ferrohex render`: SVG pictures of SGF games and text diagrams, through
//! the real binary. Each picture is checked to be well-formed XML (a small
//! checker below, no dependency), and its hexagons, stones, move numbers,
//! last-move mark, winning chain and coordinates are counted.

mod common;

use std::path::PathBuf;
use std::process::Output;

use ferrohex::board::Color;
use ferrohex::sgf::SgfAction;

fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

fn scratch(name: &str) -> PathBuf {
    let dir = common::tmp_root().join(format!("ferrohex-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn run(args: &[&str], input: &str) -> Output {
    common::run_with(args, input.as_bytes())
}

/// Renders to standard output; panics unless it succeeds.
fn render(args: &[&str]) -> String {
    let mut all = vec!["render"];
    all.extend_from_slice(args);
    let out = run(&all, "");
    assert!(
        out.status.success(),
        "render {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = String::from_utf8(out.stdout).unwrap();
    check_well_formed(&svg);
    svg
}

/// A minimal XML well-formedness check: one root element `svg`, every tag
/// closed in order, attributes quoted and not repeated, no stray `<` or
/// `&` in text, no blank lines (the picture must fit in an HTP answer).
fn check_well_formed(xml: &str) {
    assert!(xml.is_ascii(), "the picture is ASCII");
    assert!(!xml.contains("\n\n"), "no blank lines");
    let rest = xml.strip_prefix("<?xml").expect("an XML declaration first");
    let mut s = &rest[rest.find("?>").expect("declaration closed") + 2..];
    let mut stack: Vec<String> = Vec::new();
    let mut roots = 0;
    while !s.is_empty() {
        let lt = s.find('<').unwrap_or(s.len());
        let text = &s[..lt];
        if stack.is_empty() {
            assert!(text.trim().is_empty(), "text outside the root: {text:?}");
        }
        check_text(text);
        s = &s[lt..];
        if s.is_empty() {
            break;
        }
        if let Some(r) = s.strip_prefix("<!--") {
            let end = r.find("-->").expect("comment closed");
            s = &r[end + 3..];
            continue;
        }
        let gt = s.find('>').expect("tag closed");
        let tag = &s[1..gt];
        s = &s[gt + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            let open = stack
                .pop()
                .unwrap_or_else(|| panic!("</{name}> closes nothing"));
            assert_eq!(open, name.trim(), "tags nest");
            continue;
        }
        let (body, empty) = match tag.strip_suffix('/') {
            Some(b) => (b, true),
            None => (tag, false),
        };
        let name_end = body.find(char::is_whitespace).unwrap_or(body.len());
        let name = &body[..name_end];
        assert!(
            !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == ':' || c == '-'),
            "tag name {name:?}"
        );
        check_attributes(&body[name_end..]);
        if stack.is_empty() {
            roots += 1;
            assert_eq!(name, "svg", "the root is <svg>");
        }
        if !empty {
            stack.push(name.to_string());
        }
    }
    assert!(stack.is_empty(), "unclosed tags: {stack:?}");
    assert_eq!(roots, 1, "one root element");
}

fn check_text(text: &str) {
    let mut t = text;
    while let Some(amp) = t.find('&') {
        let semi = t[amp..].find(';').expect("entity ends with ;");
        let entity = &t[amp + 1..amp + semi];
        assert!(
            ["lt", "gt", "amp", "quot", "apos"].contains(&entity) || entity.starts_with('#'),
            "entity {entity}"
        );
        t = &t[amp + semi..];
    }
    assert!(!text.contains('>'), "stray > in {text:?}");
}

fn check_attributes(mut s: &str) {
    let mut seen: Vec<&str> = Vec::new();
    loop {
        s = s.trim_start();
        if s.is_empty() {
            return;
        }
        let eq = s.find('=').expect("attribute has a value");
        let name = s[..eq].trim();
        assert!(
            !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == ':'),
            "attribute {name:?}"
        );
        assert!(!seen.contains(&name), "attribute {name} repeated");
        seen.push(name);
        let after = s[eq + 1..].trim_start();
        let quote = after.chars().next().expect("value");
        assert!(quote == '"' || quote == '\'', "value quoted");
        let end = after[1..].find(quote).expect("value closed") + 1;
        let value = &after[1..end];
        assert!(!value.contains('<'), "< in a value");
        check_text(value);
        s = &after[end + 1..];
    }
}

fn count(svg: &str, needle: &str) -> usize {
    svg.matches(needle).count()
}

fn stones(svg: &str) -> (usize, usize) {
    (
        count(svg, r#"class="stone black"#),
        count(svg, r#"class="stone white"#),
    )
}

/// A 5x5 game Black wins down column c (c1..c5, with a side stone b3),
/// while White plays along row 2 and at e5.
const GAME: &str =
    "(;FF[4]GM[11]SZ[5];B[c1];W[a2];B[c2];W[b2];B[c3];W[d2];B[b3];W[e5];B[c4];W[a4];B[c5])";

#[test]
fn a_setup_position_from_sgf() {
    let sgf = data("sgf/endgame/close-endgame01.sgf");
    let record = ferrohex::sgf::parse(&std::fs::read_to_string(&sgf).unwrap()).unwrap();
    let setup = |color| {
        let actions = record.nodes.iter().flat_map(|n| &n.actions);
        actions
            .filter(|a| matches!(a, SgfAction::Setup(c, _) if *c == color))
            .count()
    };
    let svg = render(&[sgf.to_str().unwrap()]);
    assert_eq!(
        count(&svg, "<polygon"),
        121,
        "one hexagon per cell of 11x11"
    );
    assert_eq!(stones(&svg), (setup(Color::Black), setup(Color::White)));
    assert_eq!(count(&svg, r#"class="edge black""#), 2);
    assert_eq!(count(&svg, r#"class="edge white""#), 2);
    assert_eq!(
        count(&svg, r#"class="last""#),
        0,
        "set-up stones have no last move"
    );
    assert_eq!(count(&svg, "<text"), 0, "no coordinates unless asked");
}

#[test]
fn a_won_game_with_numbers_coords_and_chain() {
    let path = scratch("won.sgf");
    std::fs::write(&path, GAME).unwrap();
    let out = scratch("won.svg");
    let mut args = vec![
        "render",
        path.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ];
    args.extend(["--numbers", "--coords"]);
    let result = run(&args, "");
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    assert!(result.stdout.is_empty(), "the picture goes to the file");
    let svg = std::fs::read_to_string(&out).unwrap();
    check_well_formed(&svg);
    assert_eq!(count(&svg, "<polygon"), 25);
    assert_eq!(stones(&svg), (6, 5));
    assert_eq!(count(&svg, r#"class="number""#), 11, "one number per move");
    for n in 1..=11 {
        assert!(svg.contains(&format!(">{n}</text>")), "move {n}");
    }
    // The last move, c5 (move 11), has the red rim.
    assert_eq!(count(&svg, " last\""), 1);
    // The winning group: c1 c2 c3 c4 c5 and b3, which touches c3 and c2.
    assert_eq!(count(&svg, r#"class="cell chain""#), 6);
    for cell in ["c1", "c2", "c3", "b3", "c4", "c5"] {
        assert!(
            svg.contains(&format!(r#"class="cell chain" id="{cell}""#)),
            "{cell} is in the chain"
        );
    }
    assert!(svg.contains("black has won"));
    // Letters a..e above and below, numbers 1..5 on both sides.
    assert_eq!(count(&svg, ">a</text>"), 2);
    assert_eq!(count(&svg, ">e</text>"), 2);
    assert!(count(&svg, ">5</text>") >= 2);
}

#[test]
fn move_n_shows_the_game_so_far() {
    let path = scratch("moves.sgf");
    std::fs::write(&path, GAME).unwrap();
    let p = path.to_str().unwrap();
    for n in [0usize, 1, 4, 10, 11] {
        let svg = render(&[p, "--move", &n.to_string(), "--numbers"]);
        let (b, w) = stones(&svg);
        assert_eq!(b + w, n, "after {n} moves");
        assert_eq!(count(&svg, r#"class="number""#), n);
        assert_eq!(
            count(&svg, r#"class="cell chain""#),
            if n == 11 { 6 } else { 0 }
        );
    }
    // Without numbers, the last move is a red dot.
    let svg = render(&[p, "--move", "3"]);
    assert_eq!(count(&svg, r#"<circle class="last""#), 1);
    let out = run(&["render", p, "--move", "12"], "");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("only 11 moves"));
}

#[test]
fn swap_moves_number_the_swapped_stone() {
    let path = scratch("swap.sgf");
    std::fs::write(&path, "(;FF[4]GM[11]SZ[4];B[b1];W[swap-pieces];B[c3])").unwrap();
    let svg = render(&[path.to_str().unwrap(), "--numbers"]);
    assert_eq!(stones(&svg), (1, 1));
    assert!(svg.contains(">2</text>") && svg.contains(">3</text>"));
    assert!(!svg.contains(">1</text>"), "the first stone was taken over");
}

#[test]
fn diagrams_render_too() {
    // A 3x6 diagram: X (White, left-right) has won.
    let file = data("diagrams/rect-3x6-x.txt");
    let svg = render(&[file.to_str().unwrap()]);
    assert_eq!(count(&svg, "<polygon"), 18);
    assert_eq!(stones(&svg), (1, 5));
    assert_eq!(count(&svg, r#"class="cell chain""#), 5);
    assert!(svg.contains("white has won"));
    // From standard input, with the seed's letters: X is Black there.
    let out = run(&["render", "-", "--letters", "seed"], "X .\n X .\n");
    assert!(out.status.success());
    let svg = String::from_utf8(out.stdout).unwrap();
    check_well_formed(&svg);
    assert_eq!(stones(&svg), (2, 0));
    // ferrohex's own showboard picture keeps its last move.
    let file = data("diagrams/showboard-4x5-won.txt");
    let svg = render(&[file.to_str().unwrap()]);
    assert_eq!(count(&svg, "<polygon"), 20);
    assert_eq!(count(&svg, r#"<circle class="last""#), 1);
    // --move means nothing for a diagram.
    let out = run(&["render", file.to_str().unwrap(), "--move", "1"], "");
    assert!(!out.status.success());
}

#[test]
fn sizes_and_errors() {
    let path = scratch("big.sgf");
    std::fs::write(&path, "(;FF[4]GM[11]SZ[26:3];B[z3];W[a1])").unwrap();
    let svg = render(&[path.to_str().unwrap(), "--coords", "--cell-size", "10"]);
    assert_eq!(count(&svg, "<polygon"), 78);
    assert_eq!(count(&svg, ">z</text>"), 2);
    for (args, reason) in [
        (vec!["render", "/nonexistent.sgf"], "cannot read"),
        (vec!["render", "-"], "no board rows"),
        (vec!["render", "--cell-size", "0", "-"], "pixels"),
    ] {
        let out = run(&args, "");
        assert!(!out.status.success(), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(reason),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let path = scratch("bad.sgf");
    std::fs::write(&path, "(;FF[4]GM[11]SZ[3];B[a1];W[a1])").unwrap();
    let out = run(&["render", path.to_str().unwrap()], "");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("occupied"));
}

/// The checker itself refuses broken XML.
#[test]
fn the_checker_catches_broken_xml() {
    let good = "<?xml version=\"1.0\"?>\n<svg a=\"1\"><g><text>x &amp; y</text></g></svg>\n";
    check_well_formed(good);
    for bad in [
        "<?xml version=\"1.0\"?>\n<svg><g></svg></g>\n",
        "<?xml version=\"1.0\"?>\n<svg a=\"1\" a=\"2\"/>\n",
        "<?xml version=\"1.0\"?>\n<svg a=1/>\n",
        "<?xml version=\"1.0\"?>\n<svg><text>a & b</text></svg>\n",
        "<?xml version=\"1.0\"?>\n<svg/><svg/>\n",
        "<?xml version=\"1.0\"?>\n<svg>\n",
    ] {
        assert!(
            std::panic::catch_unwind(|| check_well_formed(bad)).is_err(),
            "{bad}"
        );
    }
}
