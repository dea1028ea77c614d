//! Time management: how long a move may take (the per-move cap, the
//! clock's share), how the searches predict whether another depth fits,
//! and how long genmove waits for the solvers that work beside the search.

use std::time::{Duration, Instant};

use crate::search::Level;

/// How much time a move may take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Per-move cap (`param_ferrohex max_time`, default 10 s).
    pub max_time: Duration,
    /// Clock remaining for the side to move, from `time_left`.
    pub time_left: Option<Duration>,
    /// Stones to play in the current period; `None` or 0 = sudden death.
    pub stones_left: Option<u32>,
}

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl {
            max_time: Duration::from_secs(10),
            time_left: None,
            stones_left: None,
        }
    }
}

/// How long this move may take: `max_time`, cut to a share of the clock
/// when one is given. The share keeps a reserve (a tenth of the clock, at
/// most 2 s, plus 50 ms) and divides the rest among the stones of the
/// period, or in sudden death among half of this side's remaining moves
/// (at least 5), since games end long before the board fills.
pub fn time_budget(time: &TimeControl, empties: usize, level: Level) -> Duration {
    let mut b = time.max_time;
    if let Some(left) = time.time_left {
        let reserve = (left / 10).min(Duration::from_secs(2)) + Duration::from_millis(50);
        let usable = left.saturating_sub(reserve);
        let share = match time.stones_left {
            Some(k) if k > 0 => k,
            _ => ((empties as u32).div_ceil(2) / 2).max(5),
        };
        b = b.min(usable / share);
    }
    if level == Level::Medium {
        b = b.min(Duration::from_secs(2));
    }
    // Leave room for the answer itself.
    b.saturating_sub(ANSWER_ROOM).max(Duration::from_millis(5))
}

/// What a move's budget leaves of `max_time` for the end of the move: the
/// solvers' graces after the search (up to three of [`SOLVER_GRACE`]) and
/// writing the answer. With 10 ms, a soak against Wolve and MoHex at 0.2 to
/// 0.5 s a move answered 4 of about 10,000 moves 0.3 to 1.5 ms later than
/// `max_time` + 50 ms, on a machine running two games at once.
pub const ANSWER_ROOM: Duration = Duration::from_millis(20);

/// Predicts whether the next depth of an iterative deepening fits in the
/// budget: the last depth's time times the larger of the last two growth
/// ratios (odd and even depths grow differently).
pub(crate) struct DepthClock {
    last_iter: Duration,
    ratios: [f64; 2],
}

impl DepthClock {
    pub(crate) fn new() -> DepthClock {
        DepthClock {
            last_iter: Duration::ZERO,
            ratios: [4.0, 4.0],
        }
    }

    /// Records a finished depth that took `this_iter`; whether the next
    /// one, started now, is predicted to end within `budget` of `start`.
    pub(crate) fn next_fits(
        &mut self,
        this_iter: Duration,
        start: Instant,
        budget: Duration,
    ) -> bool {
        if self.last_iter > Duration::from_millis(1) {
            let growth = this_iter.as_secs_f64() / self.last_iter.as_secs_f64();
            self.ratios = [self.ratios[1], growth.clamp(1.5, 12.0)];
        }
        self.last_iter = this_iter;
        let predicted = this_iter.mul_f64(self.ratios[0].max(self.ratios[1]));
        start.elapsed() + predicted <= budget
    }
}

/// How long genmove waits, after its search, for the solver (and then
/// the verifier) to stop.
pub const SOLVER_GRACE: Duration = Duration::from_millis(5);

/// The longest genmove waits for a solver still finishing the last move.
pub const LEND_WAIT: Duration = Duration::from_millis(300);

/// The least time left in a move for which genmove searches again when
/// the verifier refutes the search's answer.
pub const MIN_RESEARCH: Duration = Duration::from_millis(200);

/// How long the verifier works on the search's choice before it turns to
/// the whole position.
pub const FOCUS_LIMIT: Duration = Duration::from_secs(2);

/// The share of an open move's budget the search gets when the verifier is
/// in use (percent); the verifier has the rest to prove or refute the
/// search's choices.
pub const SEARCH_SHARE_PCT: u32 = 60;

/// When that rest is shorter than [`FOCUS_LIMIT`] (moves under 5 s), the
/// search has at most this share (percent) and stops after its last depth
/// predicted to fit, leaving the verifier the time a next depth cut off at
/// the deadline would have taken: at 1 s a move such a depth seldom
/// finishes its first root move, while refutations take 0.5-2 s. With
/// longer moves the verifier's focus on the choice has its time already,
/// and the cut-off depth pays (endgame.tst at 10 s a move: 36 of 40
/// against 34-35 with the early stop).
pub const SHORT_SEARCH_SHARE_PCT: u32 = 80;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_budget_keeps_a_reserve() {
        let t = TimeControl {
            max_time: Duration::from_secs(10),
            time_left: Some(Duration::from_secs(30)),
            stones_left: None,
        };
        let b = time_budget(&t, 121, Level::Hard);
        assert!(b <= Duration::from_secs(2), "{b:?}");
        let t = TimeControl {
            stones_left: Some(1),
            ..t
        };
        let b = time_budget(&t, 121, Level::Hard);
        assert!(b <= Duration::from_secs(10) && b >= Duration::from_secs(5));
        let t = TimeControl {
            time_left: Some(Duration::from_millis(40)),
            ..t
        };
        assert!(time_budget(&t, 121, Level::Hard) <= Duration::from_millis(40));
    }
}
