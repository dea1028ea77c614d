//! Hex knowledge (issue 4): virtual connections, templates, decided
//! positions, mustplay, inferior cells and the HexGui answers, checked on
//! hand-built positions with known answers and against a brute-force
//! referee.

use std::collections::HashMap;

mod common;
use common::Rng;

use ferrohex::board::{Cell, CellSet, Color, Edge, Position};
use ferrohex::present::overlay;

/// HexGui's `vc-build` overlay of `pos` for `color`.
fn gui_inferior(pos: &Position, color: Color) -> String {
    overlay::inferior(
        pos.geometry(),
        &ferrohex::knowledge::inferior_cells(pos, color),
    )
}
#[path = "common/verify.rs"]
mod verify;
use ferrohex::knowledge::{Endpoint, Semi, analyze, fill_in, queries, templates};
use ferrohex::present::textboard::{Letters, parse_game};
use ferrohex::search::SearchParams;
use ferrohex::search::connsearch::{Analyst, Verdict};
use verify::{is_full, is_semi};

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

/// `color`'s connections between `a` and `b` (full carriers, semis).
fn connections(p: &Position, color: Color, a: Endpoint, b: Endpoint) -> (Vec<CellSet>, Vec<Semi>) {
    queries::connections(p, color, a, b).expect("every board fits")
}

/// What the knowledge says about `p` with `to_move` to play.
fn verdict(p: &Position, to_move: Color) -> Verdict {
    Analyst::new(p, SearchParams::default().conn_caps)
        .expect("every board fits")
        .verdict(p, to_move)
}

/// The winner, when the connections decide `p`.
fn decided(p: &Position, to_move: Color) -> Option<Color> {
    match verdict(p, to_move) {
        Verdict::Won(_) => Some(to_move),
        Verdict::Lost(_) => Some(to_move.opponent()),
        Verdict::Open(_) => None,
    }
}

/// A winning move, when the connections prove one.
fn winning_key(p: &Position, to_move: Color) -> Option<Cell> {
    match verdict(p, to_move) {
        Verdict::Won(key) => key,
        _ => None,
    }
}

/// The moves that can avoid an immediate proven loss.
fn mustplay(p: &Position, to_move: Color) -> CellSet {
    queries::mustplay(p, to_move).expect("every board fits")
}

/// The moves the search considers in an undecided position.
fn consider_set(p: &Position, to_move: Color) -> CellSet {
    match verdict(p, to_move) {
        Verdict::Open(moves) => moves.into_iter().collect(),
        _ => CellSet::EMPTY,
    }
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
    let (fulls, _) = connections(&p, Color::Black, c(&p, "b2"), c(&p, "c3"));
    assert!(
        fulls.contains(&set(&p, "c2 b3")),
        "fulls: {:?}",
        fulls.iter().map(|f| names(&p, f)).collect::<Vec<_>>()
    );
    // White has no connection between Black's stones.
    let (wf, ws) = connections(&p, Color::White, c(&p, "b2"), c(&p, "c3"));
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
    let (fulls, _) = connections(&p, Color::Black, c(&p, "c2"), Endpoint::Edge(Edge::North));
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
    let (fulls, _) = connections(&p, Color::Black, c(&p, "d3"), Endpoint::Edge(Edge::North));
    // Template IIIa has 8 empty cells; it exists in two mirror images.
    let zig: Vec<&CellSet> = fulls.iter().filter(|f| f.len() == 8).collect();
    assert!(
        zig.len() >= 2,
        "{:?}",
        fulls.iter().map(|f| names(&p, f)).collect::<Vec<_>>()
    );
    for f in zig {
        assert!(is_full(
            &p,
            Color::Black,
            c(&p, "d3"),
            Endpoint::Edge(Edge::North),
            f
        ));
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
    let (fulls, _) = connections(&q, Color::White, c(&q, "c4"), Endpoint::Edge(Edge::West));
    assert!(fulls.iter().any(|f| f.len() == 8));
}

#[test]
fn second_row_ladders_to_an_escape_are_found() {
    // Black b2 with its edge cell b1 taken by White is laddered along the
    // second row; Black g2 ahead is the escape: b2 is joined to North
    // through the first-row cells c1 to h1.
    let p = pos("
        . W . . . . . . .
         . B . . . . B . .
          . . . . . . . . .
           . . . . . . . . .
            . . . . . . . . .
             . . . . . . . . .
              . . . . . . . . .
               . . . . . . . . .
                . . . . . . . . .");
    let (fulls, _) = connections(&p, Color::Black, c(&p, "b2"), Endpoint::Edge(Edge::North));
    assert!(!fulls.is_empty(), "the ladder with its escape holds");
    assert!(fulls.iter().all(|f| !f.contains(cell(&p, "a1"))));
    // Without the escape there is nothing to ladder to.
    let mut q = empty(9);
    q.play(Color::White, cell(&q, "b1"));
    q.play(Color::Black, cell(&q, "b2"));
    let (fulls, _) = connections(&q, Color::Black, c(&q, "b2"), Endpoint::Edge(Edge::North));
    assert!(fulls.is_empty(), "{}", fulls.len());
}

#[test]
fn template_iva_is_added_and_proved() {
    let p = empty(9);
    let g = p.geometry();
    // Every edge has placements, all of the same size (the proof of the
    // pattern itself is a unit test of the templates module).
    for edge in Edge::ALL {
        let pl = templates::placements(g, edge, &templates::IVA);
        assert!(!pl.is_empty());
        assert!(
            pl.iter()
                .all(|(_, c)| c.len() == templates::IVA.carrier.len())
        );
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
    let (fulls, _) = connections(&p, Color::Black, c(&p, "e4"), Endpoint::Edge(Edge::North));
    assert!(
        fulls
            .iter()
            .any(|f| f.len() <= templates::IVA.carrier.len()),
        "IVa to the north edge"
    );
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
        for color in Color::BOTH {
            checked += check_sound(&p, color, 9, 40);
        }
    }
    assert!(checked > 100, "checked {checked}");
}

/// The endpoints of `p` for `color`: its two edges, the empty cells and
/// the cells of its groups that do not touch them (a group on an edge is
/// part of the edge, as in Benzene: its connections are the edge's).
fn endpoints(p: &Position, color: Color) -> Vec<Endpoint> {
    let g = p.geometry();
    let (e1, e2) = color.edges();
    let own = *p.stones(color);
    let mut on_edge = CellSet::EMPTY;
    let mut todo: Vec<Cell> = own
        .iter()
        .filter(|&c| g.touches(c, e1) || g.touches(c, e2))
        .collect();
    while let Some(c) = todo.pop() {
        if on_edge.contains(c) {
            continue;
        }
        on_edge.insert(c);
        todo.extend(g.neighbours(c).iter().filter(|&&d| own.contains(d)));
    }
    g.cells()
        .filter(|&c| p.is_empty(c) || (own.contains(c) && !on_edge.contains(c)))
        .map(Endpoint::Cell)
        .chain([Endpoint::Edge(e1), Endpoint::Edge(e2)])
        .collect()
}

/// Checks up to `limit` of `color`'s connections with carriers of at most
/// `max` cells; returns how many were checked.
fn check_sound(p: &Position, color: Color, max: usize, limit: usize) -> usize {
    let mut checked = 0;
    let ends = endpoints(p, color);
    for (i, &ea) in ends.iter().enumerate() {
        for &eb in &ends[i + 1..] {
            if checked >= limit {
                return checked;
            }
            let (fulls, semis) = connections(p, color, ea, eb);
            for f in &fulls {
                if f.len() <= max && !f.is_empty() && checked < limit {
                    assert!(
                        is_full(p, color, ea, eb, f),
                        "{color:?} full {ea:?}-{eb:?} [{}]",
                        names(p, f)
                    );
                    checked += 1;
                }
            }
            for s in &semis {
                if s.carrier.len() <= max && checked < limit {
                    assert!(
                        is_semi(p, color, ea, eb, s.key, &s.carrier),
                        "{color:?} semi {ea:?}-{eb:?} key {} [{}]",
                        p.geometry().name(s.key),
                        names(p, &s.carrier)
                    );
                    checked += 1;
                }
            }
        }
    }
    checked
}

// ---- helpers ---------------------------------------------------------------

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

// ---- decided positions and mustplay ----------------------------------------

#[test]
fn small_empty_boards_are_first_player_wins() {
    for n in 1..=3 {
        let p = empty(n);
        assert_eq!(decided(&p, Color::Black), Some(Color::Black), "{n}x{n}");
        assert_eq!(decided(&p, Color::White), Some(Color::White), "{n}x{n}");
        let key = winning_key(&p, Color::Black).expect("a winning move");
        let mut q = p.clone();
        q.play(Color::Black, key);
        assert!(
            q.winner() == Some(Color::Black) || decided(&q, Color::White) == Some(Color::Black),
            "{n}x{n} after {key:?}"
        );
    }
    // On 3x3 the centre is the win.
    let p = empty(3);
    assert_eq!(winning_key(&p, Color::Black), Some(cell(&p, "b2")));
}

#[test]
fn a_single_threat_gives_a_one_cell_mustplay() {
    // White's a3-b3-c3 joins West; e3 touches East; d3 alone joins them
    // (Black's d2 and d4 shut the detours). d3 also completes Black's
    // d2-d4 column, bridged to both of Black's edges: whoever moves wins
    // there, and only there.
    let p = pos("
        . . . . .
         . . . B .
          W W W . W
           . . . B .
            . . . . .");
    assert_eq!(mustplay(&p, Color::Black), set(&p, "d3"));
    // White's mustplay is Black's one semi: d3 and its two edge bridges.
    assert_eq!(mustplay(&p, Color::White), set(&p, "d1 e1 d3 c5 d5"));
    assert_eq!(
        ferrohex::htp::answer::cells(p.geometry(), mustplay(&p, Color::Black).iter()),
        "d3"
    );
    for c in Color::BOTH {
        assert_eq!(decided(&p, c), Some(c));
        assert_eq!(winning_key(&p, c), Some(cell(&p, "d3")));
    }
    // After Black's d3, White has no edge-to-edge semi left and Black a full.
    let mut q = p.clone();
    q.play(Color::Black, cell(&p, "d3"));
    assert_eq!(mustplay(&q, Color::Black), q.empty_cells());
    assert!(mustplay(&q, Color::White).is_empty());
    assert_eq!(decided(&q, Color::White), Some(Color::Black));
}

#[test]
fn two_disjoint_threats_are_a_proven_loss() {
    // c3/c4 and e3/e4: White completes through d3 or through d4.
    let p = pos("
        . . . . .
         . . . . .
          W W W . W
           . . W . W
            . . . . .");
    assert_eq!(decided(&p, Color::Black), Some(Color::White));
    assert!(mustplay(&p, Color::Black).is_empty());
    assert!(consider_set(&p, Color::Black).is_empty());
    let (fulls, _) = connections(
        &p,
        Color::White,
        Endpoint::Edge(Edge::West),
        Endpoint::Edge(Edge::East),
    );
    assert!(fulls.contains(&set(&p, "d3 d4")));
}

/// 4x4 positions solved by brute force agree with the knowledge whenever it
/// claims a result.
#[test]
fn verdicts_match_a_brute_force_solver_on_4x4() {
    let mut rng = Rng(99);
    let mut claimed = 0;
    for _ in 0..40 {
        let p = {
            let s = 2 + rng.below(6);
            random_position(&mut rng, 4, s)
        };
        if p.winner().is_some() {
            continue;
        }
        let to_move = if p.num_stones() % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        if let Some(w) = decided(&p, to_move) {
            claimed += 1;
            let mut q = p.clone();
            assert_eq!(solve(&mut q, to_move), w);
        }
        // Every move outside the mustplay loses.
        let must = mustplay(&p, to_move);
        for m in p.empty_cells().difference(&must).iter().take(3) {
            let mut q = p.clone();
            q.play(to_move, m);
            assert_eq!(solve(&mut q, to_move.opponent()), to_move.opponent());
        }
    }
    assert!(claimed > 5, "{claimed}");
}

thread_local! {
    static MEMO: std::cell::RefCell<HashMap<(u64, usize, bool), bool>> =
        std::cell::RefCell::new(HashMap::new());
}

/// Memoised minimax (the table shared by all calls of a test thread): the
/// winner with `to_move` to play.
fn solve(p: &mut Position, to_move: Color) -> Color {
    fn go(p: &mut Position, to_move: Color, memo: &mut HashMap<(u64, usize, bool), bool>) -> Color {
        if let Some(w) = p.winner() {
            return w;
        }
        let key = (p.hash(), p.geometry().num_cells(), to_move == Color::Black);
        if let Some(&mover_wins) = memo.get(&key) {
            return if mover_wins {
                to_move
            } else {
                to_move.opponent()
            };
        }
        let cells: Vec<Cell> = p.empty_cells().iter().collect();
        let mut result = to_move.opponent();
        for m in cells {
            p.play(to_move, m);
            let w = go(p, to_move.opponent(), memo);
            p.unplay();
            if w == to_move {
                result = to_move;
                break;
            }
        }
        memo.insert(key, result == to_move);
        result
    }
    MEMO.with(|m| go(p, to_move, &mut m.borrow_mut()))
}

// ---- inferior cells ----------------------------------------------------------

#[test]
fn cell_inside_one_group_is_dead() {
    // c3 is ringed by one Black group.
    let p = pos("
        . . . . .
         . . B B .
          . B . B .
           . B B . .
            . . . . .");
    let inf = analyze(&p, Color::White);
    assert!(inf.dead[Color::Black.index()].contains(cell(&p, "c3")));
    assert!(gui_inferior(&p, Color::White).contains("c3 fdb"));
}

#[test]
fn corner_behind_a_group_on_its_edge_is_dead() {
    // a1 touches North (Black's, where a2-b1 already is) and West (White's,
    // but no White chain can use a1): dead.
    let p = pos("
        . B . . .
         B . . . .
          . . . . .
           . . . . .
            . . . . .");
    let inf = analyze(&p, Color::White);
    assert!(inf.filled().contains(cell(&p, "a1")));
    assert!(inf.dead[0].union(&inf.dead[1]).contains(cell(&p, "a1")));
}

#[test]
fn two_cells_between_a_second_row_stone_and_its_edge_are_captured() {
    // Whichever of c1, d1 White takes, Black's answer at the other leaves
    // the White stone useless: Black fills both.
    let p = pos("
        . . . . .
         . . B . .
          . . . . .
           . . . . .
            . . . . .");
    let inf = analyze(&p, Color::White);
    let captured = inf.captured[Color::Black.index()];
    assert!(
        set(&p, "c1 d1").difference(&captured).is_empty(),
        "{}",
        names(&p, &captured)
    );
    let g = gui_inferior(&p, Color::White);
    assert!(g.contains("c1 fcb") && g.contains("d1 fcb"), "{g}");
    let (filled, fills) = fill_in(&p, Color::Black);
    assert!(filled.stones(Color::Black).contains(cell(&p, "c1")));
    assert_eq!(fills[1], CellSet::EMPTY);
    // The same on White's east edge: d3 is second from the right edge.
    let p = pos("
        . . . . .
         . . . . .
          . . . W .
           . . . . .
            . . . . .");
    let inf = analyze(&p, Color::Black);
    let captured = inf.captured[Color::White.index()];
    assert!(
        set(&p, "e2 e3").difference(&captured).is_empty(),
        "{}",
        names(&p, &captured)
    );
}

#[test]
fn a_reply_that_makes_a_move_useless_to_its_player_kills_it() {
    // Black to move. After Black d4, White c4 leaves d4 useless to Black
    // (its Black neighbours, the e4-e5 group on the South edge and c5,
    // touch each other; e3 is White's, captured). A cell useless to one
    // side is dead in Hex, though White's d3 and d5 groups still look as
    // if it joined them: d4 is vulnerable with killer c4 (Benzene, which
    // tests each side on its own, calls it reversible). a1 is dead once
    // White takes a2.
    let p = pos("
        . . . . .
         . . . . .
          . . . W .
           B W . . B
            . . . W B");
    let inf = analyze(&p, Color::Black);
    let d4 = cell(&p, "d4");
    let killers = inf.vulnerable.iter().find(|(c, _)| *c == d4);
    assert_eq!(killers.map(|(_, k)| names(&p, k)), Some("c4".to_string()));
    assert!(inf.pruned().contains(d4));
    let g = gui_inferior(&p, Color::Black);
    assert!(g.contains("d4 iv[c4]") && g.contains("a1 iv[a2]"), "{g}");
}

#[test]
fn a_move_that_captures_a_cell_dominates_it() {
    // Black to move on an empty board. After Black c2, c1 and d1 are
    // captured (the bridge to the edge), so c2 is at least as good as
    // either: c1 is dominated by c2 (and by b2, which captures b1 and c1),
    // though c1's neighbourhood (with the North edge) is not inside c2's.
    let p = pos("
        . . . . .
         . . . . .
          . . . . .
           . . . . .
            . . . . .");
    let inf = analyze(&p, Color::Black);
    let c1 = cell(&p, "c1");
    let doms = inf
        .dominated
        .iter()
        .find(|(c, _)| *c == c1)
        .map(|(_, d)| *d);
    let doms = doms.expect("c1 is dominated");
    assert!(
        set(&p, "b2 c2").difference(&doms).is_empty(),
        "{}",
        names(&p, &doms)
    );
    assert!(inf.pruned().contains(c1));
    // The second-row cells stay: nothing on the board captures them.
    assert!(!inf.pruned().contains(cell(&p, "c2")));
    assert!(gui_inferior(&p, Color::Black).contains("c1 id["));
    // The same for White on its West edge: White b3 captures a3 and a4.
    let inf = analyze(&p, Color::White);
    let a3 = cell(&p, "a3");
    let doms = inf
        .dominated
        .iter()
        .find(|(c, _)| *c == a3)
        .map(|(_, d)| *d);
    assert!(doms.is_some_and(|d| d.contains(cell(&p, "b3"))));
    assert!(inf.pruned().contains(a3));
}

#[test]
fn corner_region_walled_off_from_black_is_filled_white() {
    // a1, b1, a2 are shut off from South by White's c1-b2-a3: Black can
    // never use them, and they are White's to fill.
    let p = pos("
        . . W . .
         . W . . .
          W . . . .
           . . . . .
            . . . . .");
    let inf = analyze(&p, Color::Black);
    let region = set(&p, "a1 b1 a2");
    assert_eq!(inf.fill(Color::White).intersection(&region), region);
    assert!(inf.fill(Color::Black).is_disjoint(&region));
}

/// The analysis runs on every board size, on each bitboard width (above
/// 254 cells too): a few stones, both colours, and the overlay and the
/// superior cells of a pruned cell agree with it.
#[test]
fn inferior_cells_on_every_board_size() {
    for n in [1, 2, 3, 11, 12, 13, 14, 15, 16, 19, 26] {
        let mut p = empty(n);
        if n >= 3 {
            p.play(Color::Black, cell(&p, "b2"));
            let far = p.geometry().cell_at(n - 1, n - 2).expect("cell");
            p.play(Color::White, far);
        }
        for color in Color::BOTH {
            let inf = analyze(&p, color);
            let shown = ferrohex::knowledge::inferior_cells(&p, color);
            assert!(
                shown.iter().all(|(c, _)| p.is_empty(*c)),
                "{n}x{n}: a stone listed"
            );
            let dropped = inf.pruned().difference(&inf.filled());
            // (On 3x3 the fill-in decides the game: nothing more is pruned.)
            if n >= 11 {
                assert!(!dropped.is_empty(), "{n}x{n} {color}: nothing pruned");
            }
            // A few of them: each asks for the whole analysis again.
            for c in dropped.iter().take(3) {
                let sup = ferrohex::knowledge::inferior::superior_cells(&p, color, c);
                assert!(
                    !sup.is_empty() && sup.iter().all(|d| !inf.pruned().contains(*d)),
                    "{n}x{n} {color}: {}",
                    p.geometry().name(c)
                );
            }
        }
    }
}

#[test]
fn fill_in_reaches_a_fixpoint_and_keeps_the_winner() {
    let mut rng = Rng(5);
    for i in 0..30 {
        let p = {
            let s = 3 + rng.below(6);
            random_position(&mut rng, 4, s)
        };
        if p.winner().is_some() {
            continue;
        }
        let dead = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let (q, _) = fill_in(&p, dead);
        let (r, fills) = fill_in(&q, dead);
        assert_eq!(fills, [CellSet::EMPTY; 2], "fill-in is a fixpoint");
        assert_eq!(q, r);
        // Filling never changes who wins with either player to move.
        for to_move in Color::BOTH {
            let (mut a, mut b) = (p.clone(), q.clone());
            if b.winner().is_none() {
                assert_eq!(solve(&mut a, to_move), solve(&mut b, to_move));
            } else {
                assert_eq!(solve(&mut a, to_move), b.winner().unwrap());
            }
        }
    }
}

#[test]
fn consider_set_keeps_a_winning_move() {
    let mut rng = Rng(17);
    for _ in 0..200 {
        let p = {
            let s = 1 + rng.below(6);
            random_position(&mut rng, 4, s)
        };
        if p.winner().is_some() {
            continue;
        }
        let to_move = if p.num_stones() % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let mut q = p.clone();
        if solve(&mut q, to_move) != to_move {
            continue;
        }
        let consider = match verdict(&p, to_move) {
            Verdict::Won(Some(key)) => [key].into_iter().collect(),
            Verdict::Won(None) => p.empty_cells(),
            v => {
                assert!(matches!(v, Verdict::Open(_)), "a won position lost: {v:?}");
                consider_set(&p, to_move)
            }
        };
        let wins = |set: &CellSet| {
            set.iter().any(|m| {
                let mut q = p.clone();
                q.play(to_move, m);
                solve(&mut q, to_move.opponent()) == to_move
            })
        };
        assert!(
            wins(&consider),
            "no winning move kept in {}",
            names(&p, &consider)
        );
        // The search's root prunes it further with the inferior-cell
        // analysis, whose cycles of equal cells may break elsewhere.
        let root = analyze(&p, to_move).prune_from(&consider);
        assert!(wins(&root), "no winning move kept in {}", names(&p, &root));
    }
}

// ---- HexGui answers -----------------------------------------------------------

#[test]
fn gui_answers_have_the_documented_form() {
    let p = pos("
        . . . . .
         . . B . .
          . . . W .
           . . . . .
            . . . . .");
    let out = gui_inferior(&p, Color::Black);
    let words: Vec<&str> = out.split_whitespace().collect();
    assert_eq!(words.len() % 2, 0, "{out}");
    for pair in words.chunks(2) {
        assert!(p.geometry().parse_cell(pair[0]).is_some(), "{out}");
        let code = pair[1];
        assert!(
            ["fdb", "fdw", "fcb", "fcw"].contains(&code)
                || code.starts_with("iv[")
                || code.starts_with("id["),
            "{out}"
        );
    }
    let ends = (c(&p, "c2"), Endpoint::Edge(Edge::North));
    let (fulls, semis) = connections(&p, Color::Black, ends.0, ends.1);
    let list = overlay::connections(p.geometry(), Color::Black, ends, &fulls, &semis);
    assert!(
        list.lines()
            .any(|l| l == "black c2 north full hsearch [ c1 d1 ] [ ]"),
        "{list}"
    );
    let fulls_only = overlay::connections(p.geometry(), Color::Black, ends, &fulls, &[]);
    assert!(!fulls_only.contains("semi"));
}

#[test]
fn acute_corner_is_dominated_and_vulnerable() {
    // For Black, a1 touches only North, a2 and b1; b1 touches all of those
    // and more, so b1 dominates a1. White's reply a2 leaves a Black a1
    // touching only North and b1, which touch each other: a2 kills a1.
    let p = pos("
        . . . . .
         . . . . .
          . . . . .
           . . . . .
            . . . . .");
    let inf = analyze(&p, Color::Black);
    let a1 = cell(&p, "a1");
    let dominated = inf
        .dominated
        .iter()
        .find(|(c, _)| *c == a1)
        .expect("a1 dominated");
    assert!(dominated.1.contains(cell(&p, "b1")));
    let vulnerable = inf
        .vulnerable
        .iter()
        .find(|(c, _)| *c == a1)
        .expect("a1 vulnerable");
    assert!(vulnerable.1.contains(cell(&p, "a2")));
    assert!(inf.pruned().contains(a1));
    assert!(gui_inferior(&p, Color::Black).contains("a1 iv[a2"));
    // For White the same corner is dominated by a2 (its edge is West).
    let inf = analyze(&p, Color::White);
    let dominated = inf
        .dominated
        .iter()
        .find(|(c, _)| *c == a1)
        .expect("a1 dominated");
    assert!(dominated.1.contains(cell(&p, "a2")));
    // Nothing is filled on an empty board, and the consider set is most of it.
    assert!(inf.filled().is_empty());
    // (On 5x5 the connections win the empty board at once: on 7x7 they
    // leave it open.)
    let p = empty(7);
    let consider = consider_set(&p, Color::Black);
    assert!(!consider.contains(a1) && consider.contains(cell(&p, "d4")));
}

// ---- resistance over the connections -------------------------------------------

#[test]
fn resistance_is_symmetric_and_favours_the_stronger_side() {
    use ferrohex::search::connsearch::circuit_view;
    let view = |p: &Position| circuit_view(p, Color::Black).expect("every board fits");
    // Empty square board: the two circuits are mirror images.
    let p = empty(5);
    let v = view(&p);
    assert_eq!(v.score, 0);
    let rb = v.resistance[Color::Black.index()];
    assert!(rb.is_finite() && rb > 0.0);
    assert!((rb - v.resistance[Color::White.index()]).abs() < 1e-9);
    // A Black centre stone lowers Black's resistance.
    let p = pos("
        . . . . .
         . . . . .
          . . B . .
           . . . . .
            . . . . .");
    let v = view(&p);
    assert!(v.score > 0);
    assert!(v.resistance[Color::Black.index()] < rb);
    // The busiest cells are central.
    let busiest = v
        .energy
        .iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .expect("empty cells")
        .0;
    let (col, row) = p.geometry().coords(busiest);
    assert!(
        (1..=3).contains(&col) && (1..=3).contains(&row),
        "{}",
        p.geometry().name(busiest)
    );
    // A White wall: Black has no circuit left.
    let p = pos("
        . . . . .
         . . . . .
          W W W W W
           . . . . .
            . . . . .");
    assert!(view(&p).resistance[Color::Black.index()].is_infinite());
}

/// Neighbourhood domination on the bitboards: Black's a1 on an empty board
/// sees North, a2 and b1, all of which b1 sees too, so b1 dominates it; a
/// centre cell has no such neighbour. With White on b1, a1 sees North and
/// a2, and a2 does not see North: nothing dominates it.
#[test]
fn a_cell_inside_a_neighbours_neighbourhood_is_dominated() {
    use ferrohex::knowledge::{ice, vc};
    let pruned = |p: &Position| -> CellSet {
        let bits = vc::Bits::<u128>::new(p.geometry()).expect("fits");
        let st: [u128; 2] = vc::stones(p);
        let moves = bits.all & !st[0] & !st[1];
        vc::cells(ice::neighbourhood_dominated(
            &bits,
            st,
            Color::Black,
            moves,
            0,
        ))
        .collect()
    };
    let p = empty(5);
    let out = pruned(&p);
    assert!(out.contains(cell(&p, "a1")), "{}", names(&p, &out));
    assert!(!out.contains(cell(&p, "c3")), "{}", names(&p, &out));
    // Its dominator stays.
    assert!(!out.contains(cell(&p, "b1")), "{}", names(&p, &out));
    let mut q = p.clone();
    q.play(Color::White, cell(&q, "b1"));
    assert!(
        !pruned(&q).contains(cell(&q, "a1")),
        "{}",
        names(&q, &pruned(&q))
    );
}
