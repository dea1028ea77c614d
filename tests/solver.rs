//! The solver (issue 5): df-pn answers checked against brute force on
//! small boards, the API's answers, and (ignored, for measuring) the
//! regression files that ask the winner after every first move.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use ferrohex::eval::EvalKind;
use ferrohex::solver::{MoveOrder, SolverParams};
#[path = "common/solve_file.rs"]
mod solve_file;
use solve_file::{parse_solve_file, run_cases};

fn env_params() -> SolverParams {
    let mut p = SolverParams::default();
    if let Ok(v) = std::env::var("FERROHEX_SOLVER_VC") {
        p.use_vc = v != "0";
    }
    if let Ok(v) = std::env::var("FERROHEX_SOLVER_EPS") {
        p.epsilon = v.parse().unwrap();
    }
    if let Ok(v) = std::env::var("FERROHEX_SOLVER_WIDEN") {
        p.widening = v.parse().unwrap();
    }
    if let Ok(v) = std::env::var("FERROHEX_SOLVER_LOOK") {
        p.lookahead = v != "0";
    }
    if let Ok(v) = std::env::var("FERROHEX_SOLVER_INCREMENTAL") {
        p.incremental = v != "0";
    }
    if let Ok(v) = std::env::var("FERROHEX_SOLVER_TIME") {
        p.max_time = Some(std::time::Duration::from_secs_f64(v.parse().unwrap()));
    }
    if let Ok(v) = std::env::var("FERROHEX_SOLVER_ORDER") {
        p.ordering = v.parse().unwrap();
    }
    p
}

fn run_file(name: &str) {
    let path = format!("{}/../shared/regress/{name}", env!("CARGO_MANIFEST_DIR"));
    let path = std::env::var("FERROHEX_REGRESS_DIR").map_or(path, |d| format!("{d}/{name}"));
    let text = std::fs::read_to_string(&path).expect("regression file");
    let (g, cases) = parse_solve_file(&text).expect("parse");
    let only = std::env::var("FERROHEX_SOLVER_ONLY").ok();
    let cases: Vec<_> = cases
        .into_iter()
        .filter(|c| {
            only.as_ref()
                .is_none_or(|o| o.split(',').any(|x| x == c.id))
        })
        .collect();
    let params = env_params();
    let start = Instant::now();
    let reports = run_cases(&g, &cases, &params, |r| {
        let (color, cell) = r.case.moves[0];
        eprintln!(
            "{} {} {}: expected {} got {:?} in {:.2?}, {} nodes ({:.0}/s)",
            r.case.id,
            color.letter(),
            g.name(cell),
            r.case.expected,
            r.got,
            r.elapsed,
            r.nodes,
            r.nodes as f64 / r.elapsed.as_secs_f64()
        );
    });
    let passed = reports.iter().filter(|r| r.passed()).count();
    let nodes: u64 = reports.iter().map(|r| r.nodes).sum();
    let t = start.elapsed();
    eprintln!(
        "{name}: {passed}/{} passed in {t:.2?}, {nodes} nodes, {:.0} nodes/s",
        reports.len(),
        nodes as f64 / t.as_secs_f64()
    );
    assert_eq!(passed, reports.len());
}

#[test]
#[ignore = "measurement: run with --release -- --ignored --nocapture"]
fn solve_file_6x6() {
    run_file("dfpn-solve-6x6.tst");
}

#[test]
#[ignore = "measurement: run with --release -- --ignored --nocapture"]
fn solve_file_7x7() {
    run_file("dfpn-solve-7x7.tst");
}

use ferrohex::board::{Cell, Color, Geometry, Position};
use ferrohex::solver::{SolveOutcome, Solver};
use std::sync::Arc;

mod common;
use common::{Rng, brute_memo, random_position};

/// Plain minimax: the winner with `to_move` to play.
fn brute(pos: &mut Position, to_move: Color) -> Color {
    brute_memo(pos, to_move, &mut std::collections::HashMap::new())
}

fn check_against_brute(params: &SolverParams, seed: u64, count: usize) {
    let mut rng = Rng(seed);
    let mut solver = Solver::new(params);
    let stop = AtomicBool::new(false);
    for i in 0..count {
        let size = 2 + rng.below(3);
        let n = size * size;
        let stones = (n / 3 + rng.below(n / 2 + 1)).min(n - 1);
        let (mut pos, to_move) = random_position(&mut rng, size, stones);
        // Either side to move, to exercise unusual parities too.
        let to_move = if i % 5 == 0 {
            to_move.opponent()
        } else {
            to_move
        };
        let want = brute(&mut pos, to_move);
        if i % 3 == 0 {
            solver.clear_tt();
        }
        let got = solver.solve(&pos, to_move, &stop, &mut |_| {});
        assert_eq!(
            got,
            SolveOutcome::Win(want),
            "case {i}: {size}x{size} {:?} to move {to_move}",
            pos.placed()
                .map(|(c, x)| format!("{}{}", c.letter(), pos.geometry().name(x)))
                .collect::<Vec<_>>()
        );
    }
}

#[test]
fn plain_solver_agrees_with_brute_force() {
    let params = SolverParams {
        use_vc: false,
        tt_mb: 1,
        ..SolverParams::default()
    };
    check_against_brute(&params, 0x9e37_79b9, 120);
}

#[test]
fn fast_solver_agrees_with_brute_force() {
    let params = SolverParams {
        tt_mb: 1,
        ..SolverParams::default()
    };
    check_against_brute(&params, 0x5eed_f00d, 200);
}

/// The solver's H-search oracle ordering its moves by the board's
/// resistance instead of the circuits over its connections.
#[test]
fn fast_solver_by_board_resistance_agrees_with_brute_force() {
    let params = SolverParams {
        tt_mb: 1,
        ordering: MoveOrder::Eval(EvalKind::Resistance),
        ..SolverParams::default()
    };
    check_against_brute(&params, 0x0dde_ba11, 120);
}

/// Ordering each node's moves by the circuits over its own connections
/// (the default) proves the 6x6 regression file's 36 positions in far
/// fewer nodes than ordering them by the board's resistance, with the
/// same answers.
#[test]
fn ordering_by_connections_proves_6x6_in_fewer_nodes() {
    let path = format!(
        "{}/tests/data/dfpn-solve-6x6.tst",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).expect("regression file");
    let (g, cases) = parse_solve_file(&text).expect("parse");
    let nodes = |ordering: MoveOrder| {
        let params = SolverParams {
            ordering,
            tt_mb: 16,
            ..SolverParams::default()
        };
        let reports = run_cases(&g, &cases, &params, |_| {});
        assert!(reports.iter().all(|r| r.passed()), "{ordering:?}");
        reports.iter().map(|r| r.nodes).sum::<u64>()
    };
    assert_eq!(SolverParams::default().ordering, MoveOrder::Connections);
    let by_connections = nodes(MoveOrder::Connections);
    let by_resistance = nodes(MoveOrder::Eval(EvalKind::Resistance));
    assert!(
        by_connections * 10 < by_resistance * 8,
        "{by_connections} nodes by connections, {by_resistance} by resistance"
    );
}

/// Bigger positions than [`check_against_brute`]'s, where fill-in,
/// domination and proof-set pruning all come into play: 5x5 with 9-13
/// empty cells, against a memoised brute force.
#[test]
fn fast_solver_agrees_with_brute_force_on_5x5() {
    let params = SolverParams {
        tt_mb: 4,
        ..SolverParams::default()
    };
    let mut solver = Solver::new(&params);
    let stop = AtomicBool::new(false);
    let mut rng = Rng(0xfeed_5eed);
    let mut memo = std::collections::HashMap::new();
    for i in 0..150 {
        let empties = 9 + rng.below(5);
        let (mut pos, to_move) = random_position(&mut rng, 5, 25 - empties);
        for tm in [to_move, to_move.opponent()] {
            let want = brute_memo(&mut pos, tm, &mut memo);
            let got = solver.solve(&pos, tm, &stop, &mut |_| {});
            assert_eq!(
                got,
                SolveOutcome::Win(want),
                "case {i}: {:?} to move {tm}",
                pos.placed()
                    .map(|(c, x)| format!("{}{}", c.letter(), pos.geometry().name(x)))
                    .collect::<Vec<_>>()
            );
        }
    }
}

/// The solver's fill-in (dead cells, captured pairs) never changes who
/// wins, with either side to move and either colour for the dead cells;
/// and it does fill something in most of these positions.
#[test]
fn solver_fill_in_keeps_the_winner() {
    use ferrohex::knowledge::{ice, vc};
    let mut rng = Rng(4242);
    let mut filled_cases = 0;
    let mut memo = std::collections::HashMap::new();
    let cases = 600;
    for i in 0..cases {
        let size = 3 + rng.below(3);
        let n = size * size;
        let empties = 5 + rng.below(if size == 5 { 8 } else { n - 6 });
        let (mut pos, to_move) = random_position(&mut rng, size, n - empties);
        let bits = vc::Bits::new(pos.geometry()).unwrap();
        for dead_color in Color::BOTH {
            let mut st: [u128; 2] = vc::stones(&pos);
            let fill = ice::fill_in(&bits, &mut st, dead_color);
            let mut filled = pos.clone();
            for color in Color::BOTH {
                for c in vc::cells(fill.stones[color.index()]) {
                    filled.play(color, c);
                }
            }
            filled_cases += usize::from(fill.stones != [0, 0]);
            for tm in [to_move, to_move.opponent()] {
                let a = brute_memo(&mut pos, tm, &mut memo);
                let b = brute_memo(&mut filled, tm, &mut memo);
                let g = pos.geometry().clone();
                assert_eq!(
                    a,
                    b,
                    "case {i} {size}x{size} to move {tm}: {:?}; fills black {:?} white {:?}",
                    pos.placed()
                        .map(|(c, x)| format!("{}{}", c.letter(), g.name(x)))
                        .collect::<Vec<_>>(),
                    vc::cells(fill.stones[0])
                        .map(|x| g.name(x))
                        .collect::<Vec<_>>(),
                    vc::cells(fill.stones[1])
                        .map(|x| g.name(x))
                        .collect::<Vec<_>>()
                );
            }
        }
    }
    assert!(filled_cases > cases, "fill-in found little: {filled_cases}");
}

/// Two empty cells that both touch one of a side's groups are joined for
/// that side through it. On 5x5 after Black a1 and White c2, a White stone
/// at c1 is dead once Black holds b1 (its other neighbours d1 and b2 both
/// touch c2), and one at b1 once Black holds c1 (a2 and b2 touch): Black
/// captures b1 and c1. (That the fill-in keeps the winner is checked by
/// brute force on random boards above.)
#[test]
fn cells_joined_through_a_group_make_a_captured_pair() {
    use ferrohex::knowledge::{ice, vc};
    let mut pos = empty_board(5);
    let g = pos.geometry().clone();
    let cell = |s: &str| g.parse_cell(s).unwrap();
    pos.play(Color::Black, cell("a1"));
    pos.play(Color::White, cell("c2"));
    let bits = vc::Bits::new(&g).unwrap();
    let mut st: [u128; 2] = vc::stones(&pos);
    let fill = ice::fill_in(&bits, &mut st, Color::White);
    let names = |b: u128| vc::cells(b).map(|c| g.name(c)).collect::<Vec<_>>();
    assert_eq!(names(fill.stones[0]), ["b1", "c1"]);
    assert_eq!(names(fill.captured), ["b1", "c1"]);
    assert!(names(fill.stones[1]).is_empty());
}

/// The knowledge's inferior cell analysis on 4x4 and 5x5: its fill-in
/// keeps the winner, and when the side to move wins, the search's consider
/// set (mustplay less inferior cells, or the winning move the connections
/// name) still holds a winning move.
#[test]
fn knowledge_fill_in_and_consider_set_keep_the_win() {
    use ferrohex::knowledge::fill_in;
    use ferrohex::search::connsearch::{Analyst, Verdict};
    let mut rng = Rng(0x0dd_ba11);
    let mut memo = std::collections::HashMap::new();
    let mut pruned_cases = 0;
    for i in 0..300 {
        let size = 4 + rng.below(2);
        let n = size * size;
        let empties = 6 + rng.below(if size == 5 { 7 } else { 6 });
        let (mut pos, to_move) = random_position(&mut rng, size, n - empties);
        let g = pos.geometry().clone();
        let names = |p: &Position| {
            p.placed()
                .map(|(c, x)| format!("{}{}", c.letter(), g.name(x)))
                .collect::<Vec<_>>()
        };
        let (mut filled, _) = fill_in(&pos, to_move.opponent());
        for tm in [to_move, to_move.opponent()] {
            let a = brute_memo(&mut pos, tm, &mut memo);
            let b = brute_memo(&mut filled, tm, &mut memo);
            assert_eq!(a, b, "case {i}: fill-in of {:?}, {tm} to move", names(&pos));
            if a != tm {
                continue;
            }
            let caps = ferrohex::search::SearchParams::default().conn_caps;
            let consider: ferrohex::board::CellSet =
                match Analyst::new(&pos, caps).expect("fits").verdict(&pos, tm) {
                    Verdict::Open(moves) => moves.into_iter().collect(),
                    Verdict::Won(Some(key)) => [key].into_iter().collect(),
                    Verdict::Won(None) => pos.empty_cells(),
                    v => panic!("case {i}: {tm} wins {:?}, not {v:?}", names(&pos)),
                };
            pruned_cases += usize::from(consider.len() < pos.empty_cells().len());
            let wins = consider.iter().any(|c| {
                pos.play(tm, c);
                let w = brute_memo(&mut pos, tm.opponent(), &mut memo);
                pos.unplay();
                w == tm
            });
            assert!(
                wins,
                "case {i}: no winning move left in the consider set of {:?}, {tm} to move",
                names(&pos)
            );
        }
    }
    assert!(
        pruned_cases > 50,
        "the consider set pruned little: {pruned_cases}"
    );
}

/// The knowledge's inferior cell analysis (`knowledge::analyze`) on
/// random 3x3 to 5x5 positions, checked by brute force: a pruned cell is
/// never better than the cells it gives way to. When the side to move
/// wins, some cell outside the pruned set wins; and every empty pruned cell
/// that wins has superior cells (`superior_cells`: the kept cells its
/// dominators and killers lead to), all of which win too. (When the
/// fill-in alone decides the game, every cell may be filled: skipped.)
#[test]
fn pruned_cells_are_no_better_than_their_superior_cells() {
    use ferrohex::knowledge::{analyze, inferior::superior_cells};
    let mut rng = Rng(0x1ce_c0de);
    let mut memo = std::collections::HashMap::new();
    let (mut won, mut pruned_wins) = (0, 0);
    for i in 0..400 {
        let size = 3 + rng.below(3);
        let n = size * size;
        let empties = 4 + rng.below(if size == 5 { 9 } else { n - 5 });
        let (mut pos, to_move) = random_position(&mut rng, size, n - empties);
        if pos.winner().is_some() {
            continue;
        }
        let g = pos.geometry().clone();
        let names = |p: &Position| {
            p.placed()
                .map(|(c, x)| format!("{}{}", c.letter(), g.name(x)))
                .collect::<Vec<_>>()
        };
        for tm in [to_move, to_move.opponent()] {
            let inf = analyze(&pos, tm);
            let mut filled = pos.clone();
            for col in Color::BOTH {
                for c in inf.fill(col).iter() {
                    filled.play(col, c);
                }
            }
            if filled.winner().is_some() {
                continue;
            }
            let pruned = inf.pruned();
            // Every pruned cell the fill-in left empty gives way to a kept
            // cell.
            for c in pruned.difference(&inf.filled()).iter() {
                assert!(
                    !superior_cells(&pos, tm, c).is_empty(),
                    "case {i}: {tm} to move in {:?}: pruned {} leads to no kept cell",
                    names(&pos),
                    g.name(c)
                );
            }
            let mut wins = |pos: &mut Position, c: Cell| {
                pos.play(tm, c);
                let w = brute_memo(pos, tm.opponent(), &mut memo);
                pos.unplay();
                w == tm
            };
            let winners: Vec<_> = pos
                .empty_cells()
                .iter()
                .filter(|&c| wins(&mut pos, c))
                .collect();
            if winners.is_empty() {
                continue;
            }
            won += 1;
            assert!(
                winners.iter().any(|&c| !pruned.contains(c)),
                "case {i}: {tm} to move in {:?} wins only with pruned cells",
                names(&pos)
            );
            for &c in &winners {
                if !pruned.contains(c) || inf.filled().contains(c) {
                    continue;
                }
                pruned_wins += 1;
                let sup = superior_cells(&pos, tm, c);
                assert!(
                    !sup.is_empty() && sup.iter().all(|&d| winners.contains(&d)),
                    "case {i}: {tm} to move in {:?}: {} wins, its superior cells {:?} do not all win",
                    names(&pos),
                    g.name(c),
                    sup.iter().map(|&d| g.name(d)).collect::<Vec<_>>()
                );
            }
        }
    }
    assert!(
        won > 200 && pruned_wins > 100,
        "few cases: {won} won, {pruned_wins} pruned wins"
    );
}

/// The swap tables of the smallest boards, re-derived by solving every
/// opening.
#[test]
fn swap_tables_match_solved_small_boards() {
    let max = std::env::var("FERROHEX_SWAP_CHECK_MAX")
        .map_or(if cfg!(debug_assertions) { 4 } else { 5 }, |v| {
            v.parse().unwrap()
        });
    let mut solver = Solver::new(&SolverParams {
        tt_mb: 8,
        ..SolverParams::default()
    });
    let stop = AtomicBool::new(false);
    for n in 1..=max {
        let g = Arc::new(Geometry::new(n, n).unwrap());
        for c in g.cells() {
            let mut pos = Position::new(g.clone());
            pos.play(Color::Black, c);
            let got = solver.solve(&pos, Color::White, &stop, &mut |_| {});
            let black_wins = got == SolveOutcome::Win(Color::Black);
            assert_ne!(got, SolveOutcome::Unknown);
            assert_eq!(
                black_wins,
                ferrohex::solver::swap::swap_first_move(&g, c),
                "{n}x{n} {}",
                g.name(c)
            );
        }
    }
}

/// One harder case for the figures: an 8x8 opening (`FERROHEX_SOLVER_CELL`,
/// default a1, which loses for Black), White to move.
#[test]
#[ignore = "measurement: run with --release -- --ignored --nocapture"]
fn solve_8x8_opening() {
    let name = std::env::var("FERROHEX_SOLVER_CELL").unwrap_or_else(|_| "a1".into());
    let g = Arc::new(Geometry::new(8, 8).unwrap());
    let mut pos = Position::new(g.clone());
    let cell = g.parse_cell(&name).expect("cell");
    pos.play(Color::Black, cell);
    let params = env_params();
    let mut solver = Solver::new(&params);
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let got = solver.solve(&pos, Color::White, &stop, &mut |p| {
        eprintln!(
            "  {:.0?} {} nodes, pv {:?}",
            p.elapsed,
            p.nodes,
            p.pv.iter().map(|&c| g.name(c)).collect::<Vec<_>>()
        );
    });
    let stats = solver.stats();
    eprintln!(
        "8x8 B {name}, White to move: {got:?} in {:.2?}, {} nodes ({:.0}/s), {} table entries",
        start.elapsed(),
        stats.nodes,
        stats.nodes_per_second,
        stats.tt_entries
    );
    if got != SolveOutcome::Unknown {
        let want = ferrohex::solver::swap::swap_first_move(&g, cell);
        assert_eq!(got == SolveOutcome::Win(Color::Black), want);
    }
}

/// On 13x13 (169 cells, beyond the 128 a `u128` holds) the solver asks
/// the same bitboard H-search and fill-in as on 11x11, on three-word
/// bitboards: this endgame of a match against Wolve, White to move, which
/// Black won, is decided by Black's connections at once. (With the board
/// alone as its oracle the solver found no proof in 5 s.)
#[test]
fn solver_uses_connections_on_13x13() {
    let moves = "c4 e8 i6 h8 g8 f10 i8 h9 e10 f9 d8 d9 b10 c7 i9 i7 k6 j7 k7 k3 b9 e6 a8 b6 \
                 c6 b7 j4 j8 k8 j6 k5 j3 d6 d7 i4 i3 h4 k4 j5 j9 k9 h3 g4 j11 j10 i11 i10 h11 \
                 g10 h10 g9 h7 k11 k10 f7 g6 f6 f5 g5 f8 l9 l10 e12 g7 e7 b11 c10 b13 d11 g3 \
                 f4 e3 d2 f3 d4";
    let mut pos = empty_board(13);
    let g = pos.geometry().clone();
    for (i, m) in moves.split_whitespace().enumerate() {
        let color = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        pos.play(color, g.parse_cell(m).unwrap());
    }
    let mut solver = Solver::new(&SolverParams {
        max_time: Some(std::time::Duration::from_secs(20)),
        ..SolverParams::default()
    });
    let stop = AtomicBool::new(false);
    let got = solver.solve(&pos, Color::White, &stop, &mut |_| {});
    assert_eq!(got, SolveOutcome::Win(Color::Black));
    assert!(
        solver.stats().nodes <= 100,
        "{} nodes",
        solver.stats().nodes
    );
}

fn empty_board(n: usize) -> Position {
    Position::new(Arc::new(Geometry::new(n, n).unwrap()))
}

#[test]
fn winning_moves_of_an_empty_board_are_the_swap_table() {
    let mut solver = Solver::new(&SolverParams::default());
    let stop = AtomicBool::new(false);
    for n in 1..=4 {
        let pos = empty_board(n);
        let g = pos.geometry().clone();
        let wins = solver
            .winning_moves(&pos, Color::Black, &stop, &mut |_| {})
            .expect("solved");
        let table: Vec<Cell> = g
            .cells()
            .filter(|&c| ferrohex::solver::swap::swap_first_move(&g, c))
            .collect();
        assert_eq!(wins, table, "{n}x{n}");
    }
    // After the winning centre of 3x3, White has no winning move.
    let mut pos = empty_board(3);
    pos.play(Color::Black, pos.geometry().parse_cell("b2").unwrap());
    let wins = solver.winning_moves(&pos, Color::White, &stop, &mut |_| {});
    assert_eq!(wins, Some(Vec::new()));
}

#[test]
fn best_move_wins_or_resists() {
    let mut solver = Solver::new(&SolverParams::default());
    let stop = AtomicBool::new(false);
    let mut pos = empty_board(4);
    let g = pos.geometry().clone();
    let best = solver.best_move(&pos, Color::Black, &stop, &mut |_| {});
    assert_eq!(best.outcome, SolveOutcome::Win(Color::Black));
    let mv = best.mv.expect("a winning move");
    pos.play(Color::Black, mv);
    // Checked with a fresh table.
    let mut fresh = Solver::new(&SolverParams {
        tt_mb: 4,
        ..SolverParams::default()
    });
    let after = fresh.solve(&pos, Color::White, &stop, &mut |_| {});
    assert_eq!(after, SolveOutcome::Win(Color::Black), "{}", g.name(mv));
    // White, lost, still gets a legal move.
    let best = solver.best_move(&pos, Color::White, &stop, &mut |_| {});
    assert_eq!(best.outcome, SolveOutcome::Win(Color::Black));
    assert!(pos.is_empty(best.mv.expect("a resisting move")));
    // A finished game has no move.
    let mut done = empty_board(1);
    done.play(Color::White, Cell::from_index(0));
    let best = solver.best_move(&done, Color::Black, &stop, &mut |_| {});
    assert_eq!(best.outcome, SolveOutcome::Win(Color::White));
    assert_eq!(best.mv, None);
}

#[test]
fn stop_flag_and_time_limit_give_unknown() {
    let stop = AtomicBool::new(true);
    let mut solver = Solver::new(&SolverParams::default());
    let pos = empty_board(9);
    assert_eq!(
        solver.solve(&pos, Color::Black, &stop, &mut |_| {}),
        SolveOutcome::Unknown
    );
    assert_eq!(
        solver.winning_moves(&pos, Color::Black, &stop, &mut |_| {}),
        None
    );
    let params = SolverParams {
        max_time: Some(std::time::Duration::from_millis(200)),
        ..SolverParams::default()
    };
    solver.set_params(&params);
    let go = AtomicBool::new(false);
    let mut reports = 0;
    let got = solver.solve(&pos, Color::Black, &go, &mut |p| {
        reports += 1;
        assert_eq!(p.to_move, Color::Black);
    });
    assert_eq!(got, SolveOutcome::Unknown);
    assert!(reports >= 1, "a final progress report");
    assert!(solver.stats().nodes > 0);
}

#[test]
fn progress_shows_a_line_while_the_search_runs() {
    let params = SolverParams {
        progress_interval: std::time::Duration::ZERO,
        ..SolverParams::default()
    };
    let mut solver = Solver::new(&params);
    let stop = AtomicBool::new(false);
    let mut pos = empty_board(6);
    pos.play(Color::Black, pos.geometry().parse_cell("f4").unwrap());
    let mut lines = Vec::new();
    let got = solver.solve(&pos, Color::White, &stop, &mut |p| {
        if !p.done {
            lines.push(p.pv.clone());
        }
    });
    assert_eq!(got, SolveOutcome::Win(Color::Black));
    assert!(!lines.is_empty(), "no reports during the search");
    assert!(
        lines.iter().any(|l| l.len() >= 2),
        "no line longer than a move"
    );
    for line in &lines {
        // Moves of a line are distinct cells empty at the root.
        let mut seen = std::collections::HashSet::new();
        assert!(
            line.iter().all(|&c| pos.is_empty(c) && seen.insert(c)),
            "{line:?}"
        );
    }
}

#[test]
fn progress_reports_root_moves_and_table_survives() {
    let mut solver = Solver::new(&SolverParams::default());
    let stop = AtomicBool::new(false);
    let mut pos = empty_board(5);
    pos.play(Color::Black, Cell::from_index(0));
    let mut last = None;
    let got = solver.solve(&pos, Color::White, &stop, &mut |p| last = Some(p.clone()));
    assert_eq!(got, SolveOutcome::Win(Color::White));
    let last = last.expect("final report");
    assert!(last.done);
    use ferrohex::solver::ChildStatus;
    // Decided at the root by connections, or some root move proved to win.
    assert!(last.children.is_empty() || last.children.iter().any(|(_, s)| *s == ChildStatus::Win));
    if let Some(&first) = last.pv.first() {
        assert!(pos.is_empty(first));
    }
    let entries = solver.stats().tt_entries;
    assert!(entries > 0);
    // Solving again is answered from the table.
    solver.solve(&pos, Color::White, &stop, &mut |_| {});
    assert!(solver.stats().nodes <= 2);
    solver.clear_tt();
    assert_eq!(solver.stats().tt_entries, 0);
}

#[test]
fn params_by_name() {
    let mut p = SolverParams::default();
    p.set("max_time", "2.5").unwrap();
    assert_eq!(p.max_time, Some(std::time::Duration::from_millis(2500)));
    p.set("max_time", "0").unwrap();
    assert_eq!(p.max_time, None);
    p.set("tt_mb", "16").unwrap();
    p.set("vulnerable", "0").unwrap();
    assert!(!p.vulnerable && p.tt_mb == 16);
    assert_eq!(p.ordering, MoveOrder::Connections);
    p.set("ordering", "resistance").unwrap();
    assert_eq!(p.ordering, MoveOrder::Eval(EvalKind::Resistance));
    p.set("ordering", "CONNECTIONS").unwrap();
    assert_eq!(p.ordering, MoveOrder::Connections);
    let bad = p.set("ordering", "random").unwrap_err();
    assert!(bad.contains("connections"), "{bad}");
    assert_eq!(p.ordering, MoveOrder::Connections);
    // genmove's own ordering is set apart from dfpn-solve-state's.
    assert_eq!(p.genmove_ordering, MoveOrder::Eval(EvalKind::Resistance));
    p.set("genmove_ordering", "connections").unwrap();
    assert_eq!(p.genmove_ordering, MoveOrder::Connections);
    assert!(p.set("genmove_ordering", "random").is_err());
    assert_eq!(p.ordering, MoveOrder::Connections);
    // The solver is sequential: no thread count that would do nothing.
    assert!(p.set("threads", "2").is_err());
    assert!(p.set("tt_mb", "0").is_err());
    assert!(p.set("nonsense", "1").is_err());
    assert!(p.set("vulnerable", "maybe").is_err());
    // The old switches between two copies of the knowledge say they are gone.
    let gone = p.set("use_knowledge", "1").unwrap_err();
    assert!(
        gone.contains("no longer") && gone.contains("use_vc"),
        "{gone}"
    );
    assert!(p.list().iter().any(|(n, v)| *n == "tt_mb" && v == "16"));
}

#[test]
fn genmove_prefers_the_quick_win() {
    // endgame.tst test 11 (easy-endgame02): White wins at once with c3;
    // d5 wins too, but the way round takes longer. The root's knowledge
    // picks the win leaving the fewest cells to defend. (The solver's own
    // choice by proof height no longer tells c3 from j6: with every OR
    // set kept, the connections decide both at once.)
    let black = "e3 h3 i3 j3 c4 d4 f4 g4 j4 h5 j5 g6 a7 f7 a8 b8 c8 d8";
    let white = "f1 h2 i2 j2 d3 f3 g3 h4 i4 b5 g5 i5 f6 b7 c7 d7 e7";
    let a = genmove_11x11(black, white, "w", "60");
    assert_eq!(a.last().map(String::as_str), Some("= c3"), "{a:?}");
}

/// The answers of a session that sets up an 11x11 position and asks
/// `genmove` of `color`, at `max_time` seconds.
fn genmove_11x11(black: &str, white: &str, color: &str, max_time: &str) -> Vec<String> {
    let mut input = String::from("boardsize 11\n");
    input += &common::stones_input(black, white);
    input += &format!("genmove {color}\n");
    common::session_with(&["--max-time", max_time], &input)
}

#[test]
fn genmove_wins_with_a_cell_that_is_not_inferior() {
    // endgame.tst test 10 (easy-endgame01): Black's d3 group reaches the
    // top through d1, d2, e1 or e2, and each of them wins at once. e1 (the
    // key of the smallest winning semi) is dominated by d2, which touches
    // d3 and both of e1's top-row neighbours; the file, like a player,
    // accepts only cells that are not inferior.
    let black =
        "c1 j2 d3 f3 g3 h3 k3 d4 h4 k4 d5 g5 i5 d6 b7 f7 h7 b8 f8 b9 d9 e9 f9 g9 h9 i9 j9 b10 c10";
    let white = "c2 f2 g2 h2 i2 e3 i3 e4 g4 i4 j4 e5 j5 e6 c7 c8 d8 e8 g8 h8 j8 c9 e10 f10 g10 h10 a11 b11 c11";
    let a = genmove_11x11(black, white, "b", "10");
    let got = a.last().map(String::as_str).unwrap_or("");
    assert!(
        ["= d1", "= d2", "= f1", "= e2", "= b4"].contains(&got),
        "{a:?}"
    );
}

#[test]
fn simplest_win_is_a_winning_move() {
    // On random small positions the player to move wins, checked by
    // brute force: starting from a winning move whose win the connections
    // do not settle at once (so that other moves get tried), the simplest
    // win it answers wins too.
    let mut rng = Rng(0x0515_1e57);
    let solver = Solver::new(&SolverParams::default());
    let mut fresh = Solver::new(&SolverParams {
        tt_mb: 4,
        ..SolverParams::default()
    });
    let stop = AtomicBool::new(false);
    let deadline = Instant::now() + std::time::Duration::from_secs(600);
    let (mut checked, mut changed) = (0, 0);
    while checked < 40 {
        let size = 4 + rng.below(2);
        // Few enough stones that some wins take a while, enough that brute
        // force stays quick.
        let count = if size == 4 {
            5 + rng.below(4)
        } else {
            12 + rng.below(5)
        };
        let (mut pos, to_move) = random_position(&mut rng, size, count);
        let mut memo = std::collections::HashMap::new();
        if brute_memo(&mut pos, to_move, &mut memo) != to_move {
            continue;
        }
        let mut wins = Vec::new();
        let mut slow = Vec::new();
        for c in pos.empty_cells().iter() {
            pos.play(to_move, c);
            if brute_memo(&mut pos, to_move.opponent(), &mut memo) == to_move {
                wins.push(c);
                fresh.clear_tt();
                fresh.solve(&pos, to_move.opponent(), &stop, &mut |_| {});
                if fresh.stats().nodes > 1 {
                    slow.push(c);
                }
            }
            pos.unplay();
        }
        if slow.is_empty() {
            continue;
        }
        let first = slow[rng.below(slow.len())];
        let got = solver.simplest_win(&pos, to_move, first, &stop, deadline);
        assert!(
            wins.contains(&got),
            "{size}x{size}: {} from {} is not a winning move",
            pos.geometry().name(got),
            pos.geometry().name(first)
        );
        checked += 1;
        changed += usize::from(got != first);
    }
    assert!(changed >= 2, "only {changed} simpler wins found");
}

/// A cell the opponent can kill with one reply is left out of the
/// solver's moves, and its killer is named. Black's c3 below has only two
/// usable neighbours, c2 and c4, which do not touch: White's reply at
/// either leaves c3 dead, so Black's c3 is never better than c2.
/// For White, c3 joins b3 and d3, and no Black reply kills it.
#[test]
fn vulnerable_cell_is_pruned_with_its_killer() {
    use ferrohex::knowledge::{ice, vc};
    use ferrohex::present::textboard::{Letters, parse_game};
    let p = parse_game(
        "
        . . . . .
         . . . W .
          . W . W .
           . W . . .
            . . . . .",
        Letters::Common,
    )
    .expect("diagram")
    .position()
    .clone();
    let g = p.geometry().clone();
    let bits = vc::Bits::new(&g).unwrap();
    let st: [u128; 2] = vc::stones(&p);
    let empty = bits.all & !st[0] & !st[1];
    let c3 = 1u128 << g.parse_cell("c3").unwrap().index();
    let names = |b: u128| vc::cells(b).map(|x| g.name(x)).collect::<Vec<_>>();
    let (pruned, killers) = ice::vulnerable(&bits, st, Color::Black, c3, 0, empty & !c3);
    assert_eq!(names(pruned), ["c3"]);
    assert!(
        names(killers).iter().all(|k| k == "c2" || k == "c4") && killers != 0,
        "killers {:?}",
        names(killers)
    );
    // A killer must be searched or known to lose: with neither, no pruning.
    assert_eq!(ice::vulnerable(&bits, st, Color::Black, c3, 0, 0), (0, 0));
    let (pruned, _) = ice::vulnerable(&bits, st, Color::White, c3, 0, empty & !c3);
    assert_eq!(pruned, 0, "White's c3 is not vulnerable");
}

/// Leaving out vulnerable moves never leaves out every winning move: on
/// random 3x3 to 5x5 positions, whenever the side to move wins, one of the
/// moves [`ice::vulnerable`] keeps wins (brute force), and the rule does
/// prune in many of them.
#[test]
fn vulnerable_pruning_keeps_a_winning_move() {
    use ferrohex::knowledge::{ice, vc};
    let mut rng = Rng(0x0bad_cafe);
    let mut memo = std::collections::HashMap::new();
    let mut pruning_cases = 0;
    let cases = 400;
    for i in 0..cases {
        let size = 3 + rng.below(3);
        let n = size * size;
        let empties = 4 + rng.below(if size == 5 { 8 } else { n - 5 });
        let (mut pos, to_move) = random_position(&mut rng, size, n - empties);
        let bits = vc::Bits::new(pos.geometry()).unwrap();
        let st: [u128; 2] = vc::stones(&pos);
        let empty = bits.all & !st[0] & !st[1];
        for tm in [to_move, to_move.opponent()] {
            let (pruned, killers) = ice::vulnerable(&bits, st, tm, empty, 0, 0);
            assert_eq!(killers & pruned & !empty, 0);
            if pruned == 0 {
                continue;
            }
            pruning_cases += 1;
            if brute_memo(&mut pos, tm, &mut memo) != tm {
                continue;
            }
            let kept_win = vc::cells(empty & !pruned).any(|c| {
                pos.play(tm, c);
                let w = brute_memo(&mut pos, tm.opponent(), &mut memo);
                pos.unplay();
                w == tm
            });
            let g = pos.geometry().clone();
            assert!(
                kept_win,
                "case {i} {size}x{size} to move {tm}: {:?}; pruned {:?}",
                pos.placed()
                    .map(|(c, x)| format!("{}{}", c.letter(), g.name(x)))
                    .collect::<Vec<_>>(),
                vc::cells(pruned).map(|x| g.name(x)).collect::<Vec<_>>()
            );
        }
    }
    assert!(pruning_cases > cases / 4, "pruned in {pruning_cases} cases");
}

/// The solver's decompositions find the knowledge's corner (see
/// tests/decompose.rs): White's c1-c2 reaches the west edge through a
/// corner no Black chain can use, so its carrier is White's, and the
/// solver's fill-in plays it; without White's a5 the corner is open.
#[test]
fn solver_finds_the_fenced_corner() {
    use ferrohex::knowledge::vc;
    let carrier = |text: &str, color: Color| {
        let p = common::diagram(text);
        let g = p.geometry().clone();
        let bits = vc::Bits::new(&g).unwrap();
        let st: [u128; 2] = vc::stones(&p);
        let mut hs = vc::Hsearch::new();
        hs.run_seeded(&bits, st, color, vc::Goal::Closure, None);
        hs.decomposition(&bits, st, color)
            .map(|c| vc::cells(c).map(|x| g.name(x)).collect::<Vec<_>>())
    };
    let closed = "
        . . W B B
         . . W B .
          . . . . .
           . . . . .
            W . . . .";
    // Its H-search may join them through other corner cells than the
    // knowledge's (a1 b1 a2 b2 a3 b3): any carrier there will do.
    let corner = ["a1", "b1", "a2", "b2", "a3", "b3", "a4"];
    let found = carrier(closed, Color::White).expect("a captured corner");
    assert!(
        found.iter().all(|x| corner.contains(&x.as_str())) && found.contains(&"a1".to_string()),
        "{found:?}"
    );
    assert_eq!(carrier(closed, Color::Black), None);
    // The solver fills the corner in only with `decompositions` on (on a
    // bigger board, where the connections do not decide the game: the
    // fill-in stops at a decided position).
    let bigger = "
        . . W B . . .
         . . W B . . .
          . . . . . . .
           . . . . . . .
            W . . . . . .
             . . . . . . .
              . . . . . . .";
    let p = common::diagram(bigger);
    let filled = |decompose: bool| {
        use ferrohex::solver::oracle::{HsearchOracle, Oracle};
        let mut o =
            HsearchOracle::<u128>::new(&p, MoveOrder::Connections, true, true, decompose).unwrap();
        let a1 = p.geometry().parse_cell("a1").unwrap();
        o.fill(Color::White);
        o.position().stone(a1)
    };
    assert_eq!(filled(true), Some(Color::White));
    assert_eq!(filled(false), None);
    let open = "
        . . W B B
         . . W B .
          . . . . .
           . . . . .
            . . . . .";
    assert!(
        carrier(open, Color::White).is_none_or(|c| !c.iter().any(|x| x == "b3")),
        "{:?}",
        carrier(open, Color::White)
    );
}
