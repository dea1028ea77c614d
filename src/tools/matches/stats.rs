//! The statistics of a match: score with a 95% interval, the Elo
//! difference it implies, likelihood of superiority and a sequential
//! probability ratio test.
//!
//! Hex has no draws, so each game is a Bernoulli trial for the first
//! engine. The score interval is Wilson's (sensible also at 0% and 100%),
//! the Elo interval is that interval mapped through the logistic Elo curve
//! `elo(p) = -400 log10(1/p - 1)`, and the SPRT is Wald's test of
//! `p = p(elo0)` against `p = p(elo1)` with alpha = beta = 0.05.

/// The normal quantile for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Type I and II error rates of the SPRT.
pub const ALPHA: f64 = 0.05;
pub const BETA: f64 = 0.05;

/// Elo difference for an expected score `p` (infinite at 0 and 1).
pub fn elo(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// Expected score for an Elo difference.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Wilson's score interval for `wins` out of `n` at normal quantile `z`.
pub fn wilson(wins: usize, n: usize, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = wins as f64 / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((center - half).max(0.0), (center + half).min(1.0))
}

/// The score of `wins` out of `n`, its 95% interval, the Elo difference
/// and its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub score: f64,
    pub score_low: f64,
    pub score_high: f64,
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
}

pub fn estimate(wins: usize, n: usize) -> Estimate {
    let score = if n == 0 { 0.5 } else { wins as f64 / n as f64 };
    let (lo, hi) = wilson(wins, n, Z95);
    Estimate {
        score,
        score_low: lo,
        score_high: hi,
        elo: elo(score),
        elo_low: elo(lo),
        elo_high: elo(hi),
    }
}

/// Likelihood of superiority: the probability that the first engine is the
/// stronger, from wins and losses (normal approximation).
pub fn los(wins: usize, losses: usize) -> f64 {
    let n = (wins + losses) as f64;
    if n == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((wins as f64 - losses as f64) / (2.0 * n).sqrt()))
}

/// The error function (Abramowitz and Stegun 7.1.26, error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// H0 accepted: the Elo difference is at most elo0.
    H0,
    /// H1 accepted: the Elo difference is at least elo1.
    H1,
    /// Neither bound reached yet.
    Continue,
}

/// The state of an SPRT of elo0 against elo1 after some games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub verdict: Verdict,
}

/// Wald's SPRT for a Bernoulli score: log-likelihood ratio of elo1 against
/// elo0 after `wins` and `losses`, with the bounds for alpha = beta = 0.05.
pub fn sprt(wins: usize, losses: usize, elo0: f64, elo1: f64) -> Sprt {
    let p0 = expected_score(elo0);
    let p1 = expected_score(elo1);
    let llr = wins as f64 * (p1 / p0).ln() + losses as f64 * ((1.0 - p1) / (1.0 - p0)).ln();
    let lower = (BETA / (1.0 - ALPHA)).ln();
    let upper = ((1.0 - BETA) / ALPHA).ln();
    let verdict = if llr >= upper {
        Verdict::H1
    } else if llr <= lower {
        Verdict::H0
    } else {
        Verdict::Continue
    };
    Sprt {
        elo0,
        elo1,
        llr,
        lower,
        upper,
        verdict,
    }
}

/// Parses `elo0,elo1` with elo0 < elo1.
pub fn parse_sprt(s: &str) -> Result<(f64, f64), String> {
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| format!("--sprt {s}: expected ELO0,ELO1 such as 0,10"))?;
    let parse = |x: &str| {
        x.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && v.abs() < 2000.0)
            .ok_or_else(|| format!("--sprt {s}: {x} is not an Elo difference"))
    };
    let (e0, e1) = (parse(a)?, parse(b)?);
    if e0 >= e1 {
        return Err(format!("--sprt {s}: ELO0 must be below ELO1"));
    }
    Ok((e0, e1))
}

/// An Elo difference for a table: signed, one decimal, `+inf`/`-inf`.
pub fn fmt_elo(e: f64) -> String {
    if e == f64::INFINITY {
        "+inf".into()
    } else if e == f64::NEG_INFINITY {
        "-inf".into()
    } else {
        // -0.0 (from elo(0.5)) reads as +0.0.
        format!("{:+.1}", e + 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert_eq!(elo(0.5), 0.0);
        assert!(close(elo(0.75), 190.848, 1e-3));
        assert!(close(elo(0.25), -190.848, 1e-3));
        assert!(close(expected_score(190.848), 0.75, 1e-6));
        assert!(close(expected_score(-400.0), 1.0 / 11.0, 1e-12));
        assert_eq!(elo(0.0), f64::NEG_INFINITY);
        assert_eq!(elo(1.0), f64::INFINITY);
        assert_eq!(fmt_elo(elo(1.0)), "+inf");
        assert_eq!(fmt_elo(35.04), "+35.0");
    }

    #[test]
    fn wilson_interval_matches_known_values() {
        // 8 of 10: the textbook Wilson interval is [0.4902, 0.9433].
        let (lo, hi) = wilson(8, 10, Z95);
        assert!(
            close(lo, 0.4902, 1e-4) && close(hi, 0.9433, 1e-4),
            "{lo} {hi}"
        );
        // 0 of 10 still has a sensible upper end, [0, 0.2775].
        let (lo, hi) = wilson(0, 10, Z95);
        assert!(lo < 1e-12 && close(hi, 0.2775, 1e-4), "{lo} {hi}");
        let (lo, hi) = wilson(50, 100, Z95);
        assert!(close(lo + hi, 1.0, 1e-12) && close(hi, 0.59617, 1e-4));
        assert_eq!(wilson(0, 0, Z95), (0.0, 1.0));
    }

    #[test]
    fn estimate_maps_the_interval_to_elo() {
        let e = estimate(75, 100);
        assert!(close(e.score, 0.75, 1e-12));
        assert!(close(e.elo, 190.85, 0.01));
        assert!(e.elo_low < e.elo && e.elo < e.elo_high);
        assert!(close(e.elo_low, elo(e.score_low), 1e-9));
        let even = estimate(5, 10);
        assert!(close(even.elo_low, -even.elo_high, 1e-9));
    }

    #[test]
    fn erf_and_los() {
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert!(close(erf(1.0), 0.842_700_79, 2e-7));
        assert!(close(erf(-2.0), -0.995_322_27, 2e-7));
        assert!(close(los(10, 10), 0.5, 1e-7));
        // 60-40: z = 20/sqrt(100) = 2 standard deviations, LOS = Phi(2).
        assert!(close(los(60, 40), 0.977_25, 1e-4));
    }

    #[test]
    fn sprt_bounds_and_llr() {
        let s = sprt(0, 0, 0.0, 10.0);
        assert!(close(s.lower, -2.944_44, 1e-4) && close(s.upper, 2.944_44, 1e-4));
        assert_eq!(s.verdict, Verdict::Continue);
        assert_eq!(s.llr, 0.0);
        // LLR = W ln(p1/p0) + L ln((1-p1)/(1-p0)).
        let p1 = expected_score(10.0);
        let s = sprt(30, 20, 0.0, 10.0);
        let want = 30.0 * (p1 / 0.5).ln() + 20.0 * ((1.0 - p1) / 0.5).ln();
        assert!(close(s.llr, want, 1e-12));
        // A clearly stronger engine is accepted, a weaker one rejected.
        assert_eq!(sprt(700, 300, 0.0, 10.0).verdict, Verdict::H1);
        assert_eq!(sprt(300, 700, 0.0, 10.0).verdict, Verdict::H0);
        assert_eq!(sprt(30, 20, 0.0, 10.0).verdict, Verdict::Continue);
    }

    #[test]
    fn sprt_argument() {
        assert_eq!(parse_sprt("0,10"), Ok((0.0, 10.0)));
        assert_eq!(parse_sprt("-5, 5"), Ok((-5.0, 5.0)));
        assert!(parse_sprt("10,0").is_err());
        assert!(parse_sprt("10").is_err());
        assert!(parse_sprt("a,b").is_err());
    }
}
