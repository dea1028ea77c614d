//! The final table of a match, built from game records, so a finished run
//! and `--summarize` of its result files print the same thing.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::record::{GameRecord, MoveTimes, Reason};
use super::stats::{self, Verdict};

/// Totals over a set of games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    pub names: [String; 2],
    pub games: usize,
    pub wins: [usize; 2],
    pub black_games: [usize; 2],
    pub black_wins: [usize; 2],
    pub times: [MoveTimes; 2],
    pub total_moves: usize,
    pub min_moves: usize,
    pub max_moves: usize,
    pub sizes: BTreeSet<String>,
    pub openings: BTreeSet<String>,
    /// Per engine, losses by forfeit by reason.
    pub forfeits: [BTreeMap<Reason, usize>; 2],
    pub resignations: [usize; 2],
}

impl Summary {
    pub fn new(names: [String; 2]) -> Summary {
        Summary {
            names,
            ..Summary::default()
        }
    }

    pub fn add(&mut self, r: &GameRecord) {
        let (winner, black) = (r.winner - 1, r.black - 1);
        let loser = 1 - winner;
        if self.games == 0 {
            self.min_moves = r.moves;
        }
        self.games += 1;
        self.wins[winner] += 1;
        self.black_games[black] += 1;
        if r.winner_is_black() {
            self.black_wins[black] += 1;
        }
        for i in 0..2 {
            self.times[i].merge(&r.times[i]);
        }
        self.total_moves += r.moves;
        self.min_moves = self.min_moves.min(r.moves);
        self.max_moves = self.max_moves.max(r.moves);
        self.sizes.insert(r.size.clone());
        self.openings.insert(r.opening.clone());
        if r.reason.is_forfeit() {
            *self.forfeits[loser].entry(r.reason).or_default() += 1;
        } else if r.reason == Reason::Resign {
            self.resignations[loser] += 1;
        }
    }

    /// `engine1 W - L engine2`, for progress lines.
    pub fn score_line(&self) -> String {
        let e = stats::estimate(self.wins[0], self.games);
        format!(
            "{} {}-{} {} ({:.1}%, Elo {})",
            self.names[0],
            self.wins[0],
            self.wins[1],
            self.names[1],
            100.0 * e.score,
            stats::fmt_elo(e.elo)
        )
    }

    pub fn sprt(&self, bounds: (f64, f64)) -> stats::Sprt {
        stats::sprt(self.wins[0], self.wins[1], bounds.0, bounds.1)
    }

    /// The final table.
    pub fn table(&self, sprt: Option<(f64, f64)>) -> String {
        let mut s = String::new();
        let sizes: Vec<&str> = self.sizes.iter().map(String::as_str).collect();
        let openings = self.openings.iter().filter(|o| !o.is_empty()).count();
        let _ = write!(
            s,
            "{} games on {}",
            self.games,
            if sizes.is_empty() {
                "-".into()
            } else {
                sizes.join(", ")
            }
        );
        if openings > 0 {
            let _ = write!(s, ", {openings} openings");
        }
        s.push('\n');
        let width = self
            .names
            .iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(0)
            .max(6);
        let _ = writeln!(
            s,
            "{:<width$}  {:>5}  {:>9}  {:>9}  {:>24}  {:>9}  {:>9}",
            "engine", "wins", "as black", "as white", "score [95%]", "avg/move", "max/move"
        );
        for i in 0..2 {
            let est = stats::estimate(self.wins[i], self.games);
            let white_games = self.games - self.black_games[i];
            let white_wins = self.wins[i] - self.black_wins[i];
            let t = &self.times[i];
            let avg = if t.moves > 0 {
                t.total / t.moves as f64
            } else {
                0.0
            };
            let _ = writeln!(
                s,
                "{:<width$}  {:>5}  {:>9}  {:>9}  {:>24}  {:>7.3} s  {:>7.3} s",
                self.names[i],
                self.wins[i],
                format!("{}/{}", self.black_wins[i], self.black_games[i]),
                format!("{white_wins}/{white_games}"),
                format!(
                    "{:.1}% [{:.1}%, {:.1}%]",
                    100.0 * est.score,
                    100.0 * est.score_low,
                    100.0 * est.score_high
                ),
                avg,
                t.max
            );
        }
        let est = stats::estimate(self.wins[0], self.games);
        let _ = writeln!(
            s,
            "Elo difference ({} - {}): {} [{}, {}] (95%), LOS {:.1}%",
            self.names[0],
            self.names[1],
            stats::fmt_elo(est.elo),
            stats::fmt_elo(est.elo_low),
            stats::fmt_elo(est.elo_high),
            100.0 * stats::los(self.wins[0], self.wins[1])
        );
        if let Some(bounds) = sprt {
            let t = self.sprt(bounds);
            let verdict = match t.verdict {
                Verdict::H1 => format!("H1 accepted (Elo >= {})", t.elo1),
                Verdict::H0 => format!("H0 accepted (Elo <= {})", t.elo0),
                Verdict::Continue => "no decision yet, continue".to_string(),
            };
            let _ = writeln!(
                s,
                "SPRT elo0={} elo1={} (alpha=beta=0.05): LLR {:.2} [{:.2}, {:.2}]: {verdict}",
                t.elo0, t.elo1, t.llr, t.lower, t.upper
            );
        }
        let black = self.black_wins[0] + self.black_wins[1];
        let pct = |n: usize| {
            if self.games > 0 {
                100.0 * n as f64 / self.games as f64
            } else {
                0.0
            }
        };
        let _ = writeln!(
            s,
            "Black won {black} of {} games ({:.1}%), White {} ({:.1}%)",
            self.games,
            pct(black),
            self.games - black,
            pct(self.games - black)
        );
        if self.games > 0 {
            let _ = writeln!(
                s,
                "Game length: average {:.1} moves (shortest {}, longest {})",
                self.total_moves as f64 / self.games as f64,
                self.min_moves,
                self.max_moves
            );
        }
        for i in 0..2 {
            let mut parts: Vec<String> = self.forfeits[i]
                .iter()
                .map(|(reason, n)| format!("{n} by {}", reason.name()))
                .collect();
            if self.resignations[i] > 0 {
                parts.insert(0, format!("{} by resignation", self.resignations[i]));
            }
            if !parts.is_empty() {
                let _ = writeln!(s, "{} lost {}", self.names[i], parts.join(", "));
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(
        game: usize,
        black: usize,
        winner: usize,
        reason: Reason,
        moves: usize,
    ) -> GameRecord {
        GameRecord {
            game,
            seed: None,
            names: ["a".into(), "b".into()],
            size: "4x4".into(),
            opening: String::new(),
            black,
            winner,
            reason,
            detail: String::new(),
            moves,
            times: [
                MoveTimes {
                    moves: moves / 2,
                    total: 0.1 * (moves / 2) as f64,
                    max: 0.2,
                },
                MoveTimes {
                    moves: moves / 2,
                    total: 0.05 * (moves / 2) as f64,
                    max: 0.1,
                },
            ],
        }
    }

    #[test]
    fn totals_per_engine_and_colour() {
        let mut s = Summary::new(["a".into(), "b".into()]);
        s.add(&record(0, 1, 1, Reason::Connection, 8));
        s.add(&record(1, 2, 2, Reason::Connection, 10));
        s.add(&record(2, 1, 2, Reason::Timeout, 4));
        s.add(&record(3, 2, 1, Reason::Resign, 6));
        assert_eq!(s.games, 4);
        assert_eq!(s.wins, [2, 2]);
        assert_eq!(s.black_games, [2, 2]);
        assert_eq!(s.black_wins, [1, 1]);
        assert_eq!((s.min_moves, s.max_moves, s.total_moves), (4, 10, 28));
        assert_eq!(s.forfeits[0][&Reason::Timeout], 1);
        assert_eq!(s.resignations, [0, 1]);
        let t = s.table(Some((0.0, 10.0)));
        assert!(t.starts_with("4 games on 4x4\n"), "{t}");
        assert!(t.contains("50.0% [15.0%, 85.0%]"), "{t}");
        assert!(t.contains("Elo difference (a - b): +0.0 [-"), "{t}");
        assert!(
            t.contains("LLR -0.00 [-2.94, 2.94]: no decision yet"),
            "{t}"
        );
        assert!(t.contains("Black won 2 of 4 games (50.0%)"), "{t}");
        assert!(
            t.contains("Game length: average 7.0 moves (shortest 4, longest 10)"),
            "{t}"
        );
        assert!(t.contains("a lost 1 by timeout"), "{t}");
        assert!(t.contains("b lost 1 by resignation"), "{t}");
        assert_eq!(s.score_line(), "a 2-2 b (50.0%, Elo +0.0)");
    }
}
