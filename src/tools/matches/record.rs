//! One game's result as a line of JSON, for `--results` files and
//! `--summarize`. The records are flat objects of strings and numbers,
//! written and read here without a JSON library.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Why a game ended. The loser of anything but `Connection` and `Resign`
/// lost by forfeit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reason {
    /// The winner joined their edges.
    Connection,
    /// The loser answered `genmove` with `resign`.
    Resign,
    /// The loser answered `genmove` with an occupied cell, a cell off the
    /// board, or a swap that is not allowed.
    Illegal,
    /// The loser's answer was not a move, or not an HTP answer at all.
    Malformed,
    /// The loser answered `?` to `genmove`.
    Error,
    /// The loser answered `?` to a legal `play` from the referee.
    Refused,
    /// The loser did not answer within the per-move limit.
    Timeout,
    /// The loser's process ended.
    Crash,
}

impl Reason {
    pub const ALL: [Reason; 8] = [
        Reason::Connection,
        Reason::Resign,
        Reason::Illegal,
        Reason::Malformed,
        Reason::Error,
        Reason::Refused,
        Reason::Timeout,
        Reason::Crash,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Reason::Connection => "connection",
            Reason::Resign => "resign",
            Reason::Illegal => "illegal move",
            Reason::Malformed => "malformed answer",
            Reason::Error => "error answer",
            Reason::Refused => "refused move",
            Reason::Timeout => "timeout",
            Reason::Crash => "crash",
        }
    }

    pub fn parse(s: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.name() == s)
    }

    pub fn is_forfeit(self) -> bool {
        !matches!(self, Reason::Connection | Reason::Resign)
    }

    /// The SGF `RE` suffix after `B+` or `W+`.
    pub fn sgf_suffix(self) -> &'static str {
        match self {
            Reason::Connection => "",
            Reason::Resign => "Resign",
            Reason::Timeout => "Time",
            _ => "Forfeit",
        }
    }
}

/// Per engine, what its `genmove`s took.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveTimes {
    pub moves: usize,
    pub total: f64,
    pub max: f64,
}

impl MoveTimes {
    pub fn add(&mut self, seconds: f64) {
        self.moves += 1;
        self.total += seconds;
        self.max = self.max.max(seconds);
    }

    pub fn merge(&mut self, o: &MoveTimes) {
        self.moves += o.moves;
        self.total += o.total;
        self.max = self.max.max(o.max);
    }
}

/// One finished game. Engines are numbered 1 and 2 as on the command
/// line; index 0 of the arrays is engine 1.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Position in the match's schedule, from 0.
    pub game: usize,
    /// The `--seed` of the match's schedule (absent: file order).
    pub seed: Option<u64>,
    pub names: [String; 2],
    /// `WxH`.
    pub size: String,
    /// The opening moves, space-separated (empty: none).
    pub opening: String,
    /// Which engine (1 or 2) played Black.
    pub black: usize,
    /// Which engine (1 or 2) won.
    pub winner: usize,
    pub reason: Reason,
    /// What went wrong, for forfeits (the bad answer, the error).
    pub detail: String,
    /// Moves on the board at the end, the opening included.
    pub moves: usize,
    pub times: [MoveTimes; 2],
}

impl GameRecord {
    pub fn winner_is_black(&self) -> bool {
        self.winner == self.black
    }

    /// The SGF result: `B+`, `W+Resign`, `B+Forfeit`, `W+Time`.
    pub fn sgf_result(&self) -> String {
        let color = if self.winner_is_black() { 'B' } else { 'W' };
        format!("{color}+{}", self.reason.sgf_suffix())
    }

    pub fn to_json(&self) -> String {
        let mut s = String::from("{");
        let mut field = |key: &str, value: String| {
            if s.len() > 1 {
                s.push(',');
            }
            let _ = write!(s, "{}:{value}", quote(key));
        };
        field("game", self.game.to_string());
        if let Some(seed) = self.seed {
            // A string: a JSON number read as a double would round it.
            field("seed", quote(&seed.to_string()));
        }
        field("engine1", quote(&self.names[0]));
        field("engine2", quote(&self.names[1]));
        field("size", quote(&self.size));
        field("opening", quote(&self.opening));
        field("black", self.black.to_string());
        field("winner", self.winner.to_string());
        let color = if self.winner_is_black() {
            "black"
        } else {
            "white"
        };
        field("winner_color", quote(color));
        field("reason", quote(self.reason.name()));
        field("detail", quote(&self.detail));
        field("moves", self.moves.to_string());
        for (i, t) in self.times.iter().enumerate() {
            field(&format!("engine{}_moves", i + 1), t.moves.to_string());
            field(&format!("engine{}_time", i + 1), format!("{:.6}", t.total));
            field(
                &format!("engine{}_max_time", i + 1),
                format!("{:.6}", t.max),
            );
        }
        s.push('}');
        s
    }

    pub fn from_json(line: &str) -> Result<GameRecord, String> {
        let obj = parse_flat_object(line)?;
        let text = |key: &str| match obj.get(key) {
            Some(Value::Str(s)) => Ok(s.clone()),
            _ => Err(format!("missing text field {key:?}")),
        };
        let num = |key: &str| match obj.get(key) {
            Some(Value::Num(n)) => Ok(*n),
            _ => Err(format!("missing number field {key:?}")),
        };
        let count = |key: &str| {
            let n = num(key)?;
            if n >= 0.0 && n.fract() == 0.0 {
                Ok(n as usize)
            } else {
                Err(format!("field {key:?} is not a count"))
            }
        };
        let engine = |key: &str| match count(key)? {
            n @ (1 | 2) => Ok(n),
            n => Err(format!("field {key:?} is {n}, not engine 1 or 2")),
        };
        let times = |i: usize| -> Result<MoveTimes, String> {
            Ok(MoveTimes {
                moves: count(&format!("engine{i}_moves"))?,
                total: num(&format!("engine{i}_time"))?,
                max: num(&format!("engine{i}_max_time"))?,
            })
        };
        let reason = text("reason")?;
        Ok(GameRecord {
            game: count("game")?,
            seed: match obj.get("seed") {
                None => None,
                Some(Value::Str(s)) => Some(
                    s.parse()
                        .map_err(|_| format!("field \"seed\" is {s:?}, not a seed"))?,
                ),
                Some(_) => return Err("field \"seed\" is not a string".into()),
            },
            names: [text("engine1")?, text("engine2")?],
            size: text("size")?,
            opening: text("opening")?,
            black: engine("black")?,
            winner: engine("winner")?,
            reason: Reason::parse(&reason).ok_or_else(|| format!("unknown reason {reason:?}"))?,
            detail: text("detail").unwrap_or_default(),
            moves: count("moves")?,
            times: [times(1)?, times(2)?],
        })
    }
}

/// `s` as a JSON string.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Str(String),
    Num(f64),
    Bool(bool),
    Null,
}

/// Parses a JSON object whose values are strings, numbers, booleans or
/// null (no nested objects or arrays).
pub fn parse_flat_object(text: &str) -> Result<BTreeMap<String, Value>, String> {
    let mut p = JsonParser {
        chars: text.trim().chars().collect(),
        pos: 0,
    };
    let mut map = BTreeMap::new();
    p.expect('{')?;
    p.skip_ws();
    if p.peek() == Some('}') {
        p.pos += 1;
    } else {
        loop {
            p.skip_ws();
            let key = p.string()?;
            p.skip_ws();
            p.expect(':')?;
            p.skip_ws();
            let value = p.value()?;
            map.insert(key, value);
            p.skip_ws();
            match p.next() {
                Some(',') => continue,
                Some('}') => break,
                _ => return Err(p.error("expected , or }")),
            }
        }
    }
    p.skip_ws();
    if p.pos != p.chars.len() {
        return Err(p.error("text after the object"));
    }
    Ok(map)
}

struct JsonParser {
    chars: Vec<char>,
    pos: usize,
}

impl JsonParser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek();
        self.pos += 1;
        c
    }

    fn error(&self, what: &str) -> String {
        format!("bad JSON at character {}: {what}", self.pos)
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|c| c.is_whitespace()) {
            self.pos += 1;
        }
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        if self.next() == Some(c) {
            Ok(())
        } else {
            Err(self.error(&format!("expected {c}")))
        }
    }

    fn value(&mut self) -> Result<Value, String> {
        match self.peek() {
            Some('"') => Ok(Value::Str(self.string()?)),
            Some('t') => self.word("true", Value::Bool(true)),
            Some('f') => self.word("false", Value::Bool(false)),
            Some('n') => self.word("null", Value::Null),
            Some(c) if c == '-' || c.is_ascii_digit() => {
                let start = self.pos;
                while self
                    .peek()
                    .is_some_and(|c| c.is_ascii_digit() || "+-.eE".contains(c))
                {
                    self.pos += 1;
                }
                let text: String = self.chars[start..self.pos].iter().collect();
                text.parse()
                    .map(Value::Num)
                    .map_err(|_| self.error(&format!("bad number {text}")))
            }
            _ => Err(self.error("expected a string, number, true, false or null")),
        }
    }

    fn word(&mut self, word: &str, value: Value) -> Result<Value, String> {
        for c in word.chars() {
            self.expect(c)?;
        }
        Ok(value)
    }

    fn string(&mut self) -> Result<String, String> {
        self.expect('"')?;
        let mut out = String::new();
        loop {
            match self
                .next()
                .ok_or_else(|| self.error("unterminated string"))?
            {
                '"' => return Ok(out),
                '\\' => {
                    let c = self
                        .next()
                        .ok_or_else(|| self.error("unterminated string"))?;
                    out.push(match c {
                        '"' => '"',
                        '\\' => '\\',
                        '/' => '/',
                        'n' => '\n',
                        'r' => '\r',
                        't' => '\t',
                        'b' => '\x08',
                        'f' => '\x0c',
                        'u' => self.unicode()?,
                        _ => return Err(self.error("bad escape")),
                    });
                }
                c => out.push(c),
            }
        }
    }

    /// The character of a `\uXXXX` escape (after the `u`), joining a
    /// surrogate pair.
    fn unicode(&mut self) -> Result<char, String> {
        let hex = |p: &mut JsonParser| -> Result<u32, String> {
            let s: String = (0..4).filter_map(|_| p.next()).collect();
            u32::from_str_radix(&s, 16).map_err(|_| p.error("bad \\u escape"))
        };
        let hi = hex(self)?;
        let code = if (0xD800..0xDC00).contains(&hi) && self.peek() == Some('\\') {
            self.pos += 1;
            self.expect('u')?;
            let lo = hex(self)?;
            0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3FF)
        } else {
            hi
        };
        Ok(char::from_u32(code).unwrap_or('\u{FFFD}'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameRecord {
        GameRecord {
            game: 7,
            seed: Some(u64::MAX),
            names: ["ferrohex \"a\"".into(), "wolve\\b".into()],
            size: "7x7".into(),
            opening: "a1 b2".into(),
            black: 2,
            winner: 1,
            reason: Reason::Illegal,
            detail: "answered c3\nwhich is occupied".into(),
            moves: 12,
            times: [
                MoveTimes {
                    moves: 5,
                    total: 0.5,
                    max: 0.125,
                },
                MoveTimes {
                    moves: 5,
                    total: 1.25,
                    max: 0.5,
                },
            ],
        }
    }

    #[test]
    fn records_survive_a_round_trip() {
        let r = sample();
        let line = r.to_json();
        assert!(!line.contains('\n'));
        assert!(line.contains(r#""winner_color":"white""#), "{line}");
        assert_eq!(GameRecord::from_json(&line).unwrap(), r);
        assert_eq!(r.sgf_result(), "W+Forfeit");
    }

    #[test]
    fn flat_objects_parse() {
        let m = parse_flat_object(
            r#" { "a" : -1.5e2, "b":"x\u00e9\ud83d\ude00\/", "c":true, "d":null } "#,
        )
        .unwrap();
        assert_eq!(m["a"], Value::Num(-150.0));
        assert_eq!(m["b"], Value::Str("xé😀/".into()));
        assert_eq!(m["c"], Value::Bool(true));
        assert_eq!(m["d"], Value::Null);
        assert!(parse_flat_object("{}").unwrap().is_empty());
        for bad in [
            "",
            "{",
            r#"{"a":1"#,
            r#"{"a":[1]}"#,
            r#"{"a":1} x"#,
            r#"{"a":"x}"#,
        ] {
            assert!(parse_flat_object(bad).is_err(), "{bad:?}");
        }
        assert!(GameRecord::from_json(r#"{"game":1}"#).is_err());
    }
}
