//! The search using the Hex knowledge (issue 4): decided positions at the
//! root, the consider set, and the knowledge switch.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use ferrohex::board::{Color, Geometry, Position};
use ferrohex::search::{
    BENCH_POSITIONS, Decision, Request, SearchOutcome, SearchParams, Searcher, TimeControl,
    bench_position,
};

fn position(size: usize, black: &str, white: &str) -> Position {
    let mut p = Position::new(Arc::new(Geometry::new(size, size).expect("size")));
    for (color, list) in [(Color::Black, black), (Color::White, white)] {
        for name in list.split_whitespace() {
            let c = p.geometry().parse_cell(name).expect("cell name");
            p.play(color, c);
        }
    }
    p
}

fn params(depth: u32, knowledge: bool) -> SearchParams {
    SearchParams {
        threads: 1,
        tt_mb: 1,
        max_depth: Some(depth),
        knowledge,
        ..SearchParams::default()
    }
}

fn search(p: &Position, me: Color, params: &SearchParams) -> SearchOutcome {
    let mut s = Searcher::new(params);
    let stop = AtomicBool::new(false);
    let time = TimeControl {
        max_time: Duration::from_secs(600),
        ..TimeControl::default()
    };
    s.search(p, me, params, &time, &stop, &mut |_| {})
}

fn moved(p: &Position, out: &SearchOutcome) -> String {
    match out.decision {
        Decision::Move(c) => {
            assert!(p.is_empty(c), "played on a stone");
            p.geometry().name(c)
        }
        Decision::Resign => panic!("resigned"),
    }
}

/// Black (north-south) d1 d2 d3 and e5 e6 e7 on 7x7: d4 (bridging to e5
/// over e4 and d5) and e4 (bridging to d3 over d4 and e3) are the keys of
/// two edge-to-edge semis. White's row a4 b4 c4 f4 g4 needs d4 and e4.
const SEMIS: (&str, &str) = ("d1 d2 d3 e5 e6 e7", "a4 b4 c4 f4 g4");

#[test]
fn the_mover_with_a_semi_plays_its_key_at_once() {
    let p = position(7, SEMIS.0, SEMIS.1);
    for depth in [1, 3] {
        let out = search(&p, Color::Black, &params(depth, true));
        let m = moved(&p, &out);
        assert!(["d4", "e4"].contains(&m.as_str()), "depth {depth}: {m}");
        assert!(ferrohex::search::score_is_win(out.score), "{out:?}");
        assert_eq!(out.depth, 1, "decided at the root: {out:?}");
    }
}

/// `color`'s cells to defend on `p`: the fewest empty cells in any of its
/// edge-to-edge full connections (0 when its stones join its edges),
/// `None` without one; the search's H-search finds them.
fn cells_to_defend(p: &Position, color: Color) -> Option<usize> {
    use ferrohex::knowledge::vc::{Bits, Goal, Hsearch, stones};
    let bits = Bits::<u128>::new(p.geometry()).expect("fits");
    let st: [u128; 2] = stones(p);
    let mut hs = Hsearch::<u128>::with_caps(SearchParams::default().conn_caps);
    let info = hs.run_seeded(&bits, st, color, Goal::Whole, None);
    if info.full == Some(0) && hs.graph_nodes() == 0 {
        return Some(0);
    }
    let empty = bits.all & !st[0] & !st[1];
    let (fulls, _) = hs.between(0, 1);
    fulls
        .into_iter()
        .map(|f| (f & empty).count_ones() as usize)
        .min()
}

#[test]
fn a_won_position_is_finished_the_shortest_way() {
    // Black d3 c5 b7 on 7x7: bridges down to the south edge and a third-row
    // stone up to the north one, a win with 12 cells to defend. Any move
    // keeps it, but d2, e2 or e1 leave 6 while a first row cell such as
    // c1 (what the first cell of the carrier gave) leaves 10.
    let p = position(7, "d3 c5 b7", "a2 g6 g2");
    let best = p
        .empty_cells()
        .iter()
        .filter_map(|c| {
            let mut q = p.clone();
            q.play(Color::Black, c);
            cells_to_defend(&q, Color::Black)
        })
        .min()
        .expect("a winning move");
    assert_eq!(best, 6);
    let out = search(&p, Color::Black, &params(2, true));
    let m = moved(&p, &out);
    let mut q = p.clone();
    q.play(Color::Black, q.geometry().parse_cell(&m).expect("cell"));
    assert_eq!(cells_to_defend(&q, Color::Black), Some(best), "{m}");
    assert!(ferrohex::search::score_is_win(out.score), "{out:?}");
}

#[test]
fn the_opponent_of_two_semis_plays_in_their_intersection() {
    // Every White move outside d4 and e4 loses to the other key; even a
    // one-ply search sees that with the knowledge.
    let p = position(7, SEMIS.0, SEMIS.1);
    for depth in [1, 2, 4] {
        let out = search(&p, Color::White, &params(depth, true));
        let m = moved(&p, &out);
        assert!(["d4", "e4"].contains(&m.as_str()), "depth {depth}: {m}");
    }
}

#[test]
fn a_single_semi_forces_the_reply_into_its_carrier() {
    // White e3 leaves Black one key, d4, with carrier d4 e4 d5: White must
    // play there (the consider set may be smaller still).
    let p = position(7, "d1 d2 d3 e5 e6 e7", "e3 a4 b4 f4 g4");
    for depth in [1, 3] {
        let out = search(&p, Color::White, &params(depth, true));
        let m = moved(&p, &out);
        assert!(
            ["d4", "e4", "d5"].contains(&m.as_str()),
            "depth {depth}: {m}"
        );
    }
}

#[test]
fn an_edge_to_edge_bridge_chain_is_kept_or_completed() {
    // Black d1 d2 d3 = e4 e5 = f6 f7 (bridges d3-e4 over d4 e3 and e5-f6
    // over f5 e6): Black has won; it plays in a carrier at once.
    let p = position(7, "d1 d2 d3 e4 e5 f6 f7", "a4 b4 c4 g3 c6");
    let out = search(&p, Color::Black, &params(3, true));
    let m = moved(&p, &out);
    assert!(["d4", "e3", "f5", "e6"].contains(&m.as_str()), "{m}");
    assert!(ferrohex::search::score_is_win(out.score), "{out:?}");
    assert_eq!(out.depth, 1, "decided at the root: {out:?}");
    // White has lost: it still answers with a legal move, inside Black's
    // carriers, and resigns when asked to.
    let out = search(&p, Color::White, &params(2, true));
    let m = moved(&p, &out);
    assert!(["d4", "e3", "f5", "e6"].contains(&m.as_str()), "{m}");
    assert!(ferrohex::search::score_is_loss(out.score), "{out:?}");
    let resign = SearchParams {
        resign: true,
        ..params(2, true)
    };
    assert_eq!(search(&p, Color::White, &resign).decision, Decision::Resign);
}

#[test]
fn knowledge_off_still_plays_and_both_are_deterministic() {
    let p = position(9, "e5 d6", "c7 f4");
    for knowledge in [false, true] {
        let a = search(&p, Color::Black, &params(3, knowledge));
        let b = search(&p, Color::Black, &params(3, knowledge));
        moved(&p, &a);
        assert_eq!((a.decision, a.nodes, &a.pv), (b.decision, b.nodes, &b.pv));
    }
}

#[test]
fn threads_with_knowledge_return_legal_moves() {
    let p = position(9, "e5 d6 c7", "c8 f4 e4");
    let ps = SearchParams {
        threads: 2,
        ..params(3, true)
    };
    let out = search(&p, Color::White, &ps);
    moved(&p, &out);
}

/// Nodes per second with and without the knowledge on the 11x11 bench
/// positions, 3 s each, one thread (not a test: run with `--ignored
/// --nocapture`).
#[test]
#[ignore]
fn node_rate_with_and_without_knowledge() {
    for knowledge in [false, true] {
        let ps = SearchParams {
            threads: 1,
            tt_mb: 64,
            knowledge,
            ..SearchParams::default()
        };
        let time = TimeControl {
            max_time: Duration::from_secs(3),
            ..TimeControl::default()
        };
        for (name, size, moves) in BENCH_POSITIONS {
            if size != 11 {
                continue;
            }
            let (pos, me) = bench_position(size, moves);
            let mut s = Searcher::new(&ps);
            let stop = AtomicBool::new(false);
            let t = Instant::now();
            let out = s.search(&pos, me, &ps, &time, &stop, &mut |_| {});
            let secs = t.elapsed().as_secs_f64();
            println!(
                "knowledge {knowledge} {name}: depth {} nodes {} in {secs:.2}s = {:.0} nodes/s, move {}",
                out.depth,
                out.nodes,
                out.nodes as f64 / secs,
                moved(&pos, &out)
            );
        }
    }
}

/// random-endgame08 from Benzene's endgame.tst: Black to move, and h7 is
/// its only winning move (the file's test 59).
fn random_endgame08() -> Position {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/sgf/endgame/random-endgame08.sgf"
    );
    let record = ferrohex::sgf::parse(&std::fs::read_to_string(path).expect("read the SGF"))
        .expect("parse the SGF");
    ferrohex::game::Game::from_sgf(&record, None, false)
        .expect("load the SGF")
        .position()
        .clone()
}

/// The distance search with the endgame search from `endgame_empty_pct`
/// (the connection search off).
fn endgame_params(depth: u32, endgame_empty_pct: usize) -> SearchParams {
    SearchParams {
        endgame_empty_pct,
        connection_search: false,
        ..params(depth, true)
    }
}

#[test]
fn the_endgame_search_finds_the_only_winning_move() {
    let p = random_endgame08();
    assert_eq!(p.empty_cells().len(), 87);
    // The connections at every node see what the plain search's distance
    // evaluation does not, at the same depth.
    let vc = search(&p, Color::Black, &endgame_params(3, 100));
    assert_eq!(moved(&p, &vc), "h7");
    assert_eq!(vc.depth, 3);
    let plain = search(&p, Color::Black, &endgame_params(3, 0));
    assert_ne!(moved(&p, &plain), "h7");
    // 87 of 121 cells are empty: above 71% the plain search runs.
    let above = search(&p, Color::Black, &endgame_params(3, 71));
    assert_eq!(above.decision, plain.decision);
    // The connection search, on by default, finds it at the same depth.
    let conn = search(&p, Color::Black, &params(3, true));
    assert_eq!(moved(&p, &conn), "h7");
}

#[test]
fn the_endgame_search_is_deterministic_and_leaves_out_excluded_moves() {
    let p = random_endgame08();
    let ps = endgame_params(2, 100);
    let a = search(&p, Color::Black, &ps);
    let b = search(&p, Color::Black, &ps);
    assert_eq!((a.decision, a.nodes, &a.pv), (b.decision, b.nodes, &b.pv));
    let Decision::Move(first) = a.decision else {
        panic!("resigned")
    };
    let mut s = Searcher::new(&ps);
    let stop = AtomicBool::new(false);
    let time = TimeControl {
        max_time: Duration::from_secs(600),
        ..TimeControl::default()
    };
    let excluded = [first].into_iter().collect();
    let request = Request {
        pos: &p,
        to_move: Color::Black,
        excluded,
        leave_rest: false,
    };
    let out = s.search_excluding(request, &ps, &time, &stop, &mut |_| {});
    assert_ne!(moved(&p, &out), p.geometry().name(first));
    assert_eq!(out.depth, 2);
}

#[test]
fn a_stopped_endgame_search_still_answers_at_once() {
    let p = random_endgame08();
    let ps = endgame_params(20, 100);
    let mut s = Searcher::new(&ps);
    let stop = AtomicBool::new(true);
    let time = TimeControl {
        max_time: Duration::from_secs(600),
        ..TimeControl::default()
    };
    let out = s.search(&p, Color::Black, &ps, &time, &stop, &mut |_| {});
    moved(&p, &out);
    // No depth finished: the search gave up at its first node.
    assert_eq!(out.depth, 0);
}

/// The connection search deepens through depth 1 and then the even depths
/// (its leaf score swings with the depth's parity, and an odd depth's
/// choice is the worse one), and ends at the depth limit when it is odd:
/// the depths a GUI is shown as the search's lines.
#[test]
fn connection_search_deepens_through_even_depths() {
    let (pos, me) = bench_position(9, "e5 d6 d7");
    for (limit, want) in [(4, vec![1, 2, 4]), (5, vec![1, 2, 4, 5]), (1, vec![1])] {
        let ps = params(limit, true);
        let mut s = Searcher::new(&ps);
        let stop = AtomicBool::new(false);
        let time = TimeControl {
            max_time: Duration::from_secs(600),
            ..TimeControl::default()
        };
        let mut depths = Vec::new();
        let out = s.search(&pos, me, &ps, &time, &stop, &mut |r| depths.push(r.depth));
        assert_eq!(depths, want, "depth limit {limit}");
        assert_eq!(out.depth, limit, "the move comes from the last depth");
    }
}
