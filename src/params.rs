//! Parameters as the `param_*` commands and HexGui's parameter dialogs see
//! them. Each component describes its own settings once, in a registry of
//! [`Param`]s (name, kind with its range, a line of documentation, how to
//! read and write the value); listing, setting, validation, the error
//! messages and the test that every parameter can be set all read it.

use std::fmt;

/// What values a parameter takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// 0 or 1 (also `false`/`true`, `off`/`on`).
    Bool,
    /// A whole number in `min..=max`.
    Int { min: u64, max: u64 },
    /// A real number in `min..=max`.
    Real { min: f64, max: f64 },
    /// Seconds, above 0 and at most `max`; with `zero_unlimited`, 0 too,
    /// meaning no limit.
    Seconds { max: f64, zero_unlimited: bool },
    /// One of these words (in any case).
    Choice(&'static [&'static str]),
}

/// A parameter's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Bool(bool),
    Int(u64),
    Real(f64),
    Word(&'static str),
}

impl Value {
    pub fn as_bool(&self) -> bool {
        matches!(self, Value::Bool(true))
    }

    pub fn as_int(&self) -> u64 {
        match *self {
            Value::Int(n) => n,
            Value::Real(x) => x as u64,
            Value::Bool(b) => b as u64,
            Value::Word(_) => 0,
        }
    }

    pub fn as_real(&self) -> f64 {
        match *self {
            Value::Real(x) => x,
            Value::Int(n) => n as f64,
            Value::Bool(b) => b as u8 as f64,
            Value::Word(_) => 0.0,
        }
    }

    pub fn as_word(&self) -> &'static str {
        match *self {
            Value::Word(w) => w,
            _ => "",
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{}", *b as u8),
            Value::Int(n) => write!(f, "{n}"),
            Value::Real(x) => write!(f, "{x}"),
            Value::Word(w) => f.write_str(w),
        }
    }
}

type Getter<T> = Box<dyn Fn(&T) -> Value + Send + Sync>;
type Setter<T> = Box<dyn Fn(&mut T, &Value) + Send + Sync>;

/// One parameter of the settings `T`.
pub struct Param<T> {
    pub name: &'static str,
    pub kind: Kind,
    /// Appended to the accepted range in an error ("in safe mode").
    pub note: &'static str,
    pub doc: &'static str,
    get: Getter<T>,
    set: Setter<T>,
}

/// A parameter and its current value, as a listing shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    pub name: &'static str,
    pub kind: Kind,
    pub value: Value,
    pub doc: &'static str,
}

impl<T: 'static> Param<T> {
    fn new(
        name: &'static str,
        kind: Kind,
        doc: &'static str,
        get: impl Fn(&T) -> Value + Send + Sync + 'static,
        set: impl Fn(&mut T, &Value) + Send + Sync + 'static,
    ) -> Param<T> {
        Param {
            name,
            kind,
            note: "",
            doc,
            get: Box::new(get),
            set: Box::new(set),
        }
    }

    pub fn flag(
        name: &'static str,
        doc: &'static str,
        get: impl Fn(&T) -> bool + Send + Sync + 'static,
        set: impl Fn(&mut T, bool) + Send + Sync + 'static,
    ) -> Param<T> {
        Param::new(
            name,
            Kind::Bool,
            doc,
            move |t| Value::Bool(get(t)),
            move |t, v| set(t, v.as_bool()),
        )
    }

    pub fn int(
        name: &'static str,
        (min, max): (usize, usize),
        doc: &'static str,
        get: impl Fn(&T) -> usize + Send + Sync + 'static,
        set: impl Fn(&mut T, usize) + Send + Sync + 'static,
    ) -> Param<T> {
        let kind = Kind::Int {
            min: min as u64,
            max: max as u64,
        };
        Param::new(
            name,
            kind,
            doc,
            move |t| Value::Int(get(t) as u64),
            move |t, v| set(t, v.as_int() as usize),
        )
    }

    pub fn real(
        name: &'static str,
        (min, max): (f64, f64),
        doc: &'static str,
        get: impl Fn(&T) -> f64 + Send + Sync + 'static,
        set: impl Fn(&mut T, f64) + Send + Sync + 'static,
    ) -> Param<T> {
        Param::new(
            name,
            Kind::Real { min, max },
            doc,
            move |t| Value::Real(get(t)),
            move |t, v| set(t, v.as_real()),
        )
    }

    /// Seconds; 0 (no limit) is accepted when `zero_unlimited`.
    pub fn seconds(
        name: &'static str,
        max: f64,
        zero_unlimited: bool,
        doc: &'static str,
        get: impl Fn(&T) -> f64 + Send + Sync + 'static,
        set: impl Fn(&mut T, f64) + Send + Sync + 'static,
    ) -> Param<T> {
        Param::new(
            name,
            Kind::Seconds {
                max,
                zero_unlimited,
            },
            doc,
            move |t| Value::Real(get(t)),
            move |t, v| set(t, v.as_real()),
        )
    }

    /// One of `words`; the setter gets the word as listed.
    pub fn choice(
        name: &'static str,
        words: &'static [&'static str],
        doc: &'static str,
        get: impl Fn(&T) -> &'static str + Send + Sync + 'static,
        set: impl Fn(&mut T, &'static str) + Send + Sync + 'static,
    ) -> Param<T> {
        Param::new(
            name,
            Kind::Choice(words),
            doc,
            move |t| Value::Word(get(t)),
            move |t, v| set(t, v.as_word()),
        )
    }

    /// The same parameter on settings `U` that hold a `T`.
    pub fn lift<U: 'static>(self, part: fn(&U) -> &T, part_mut: fn(&mut U) -> &mut T) -> Param<U> {
        let (get, set) = (self.get, self.set);
        Param {
            name: self.name,
            kind: self.kind,
            note: self.note,
            doc: self.doc,
            get: Box::new(move |u| get(part(u))),
            set: Box::new(move |u, v| set(part_mut(u), v)),
        }
    }

    /// The same parameter with another range (say, safe mode's).
    pub fn with_range(mut self, kind: Kind, note: &'static str) -> Param<T> {
        self.kind = kind;
        self.note = note;
        self
    }

    pub fn get(&self, t: &T) -> Value {
        (self.get)(t)
    }

    pub fn setting(&self, t: &T) -> Setting {
        Setting {
            name: self.name,
            kind: self.kind,
            value: self.get(t),
            doc: self.doc,
        }
    }
}

/// Reads `text` as a value of `kind`, or says what `name` accepts.
pub fn parse(kind: Kind, name: &str, text: &str, note: &str) -> Result<Value, String> {
    let note = if note.is_empty() {
        String::new()
    } else {
        format!(" {note}")
    };
    match kind {
        Kind::Bool => match text.to_ascii_lowercase().as_str() {
            "1" | "true" | "on" => Ok(Value::Bool(true)),
            "0" | "false" | "off" => Ok(Value::Bool(false)),
            _ => Err(format!(
                "invalid value for {name}: {text} (expected 0 or 1)"
            )),
        },
        Kind::Int { min, max } => text
            .parse::<u64>()
            .ok()
            .filter(|v| (min..=max).contains(v))
            .map(Value::Int)
            .ok_or_else(|| format!("invalid {name}: {text} (expected {min} to {max}{note})")),
        Kind::Real { min, max } => text
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && (min..=max).contains(x))
            .map(Value::Real)
            .ok_or_else(|| format!("invalid {name}: {text} (expected {min} to {max}{note})")),
        Kind::Seconds {
            max,
            zero_unlimited,
        } => text
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && *x <= max && (*x > 0.0 || (zero_unlimited && *x == 0.0)))
            .map(Value::Real)
            .ok_or_else(|| {
                if zero_unlimited {
                    format!("invalid {name}: {text} (seconds, 0 to {max}, 0 for no limit)")
                } else {
                    format!("invalid {name}: {text} (seconds, above 0 and at most {max})")
                }
            }),
        Kind::Choice(words) => {
            let lower = text.to_ascii_lowercase();
            words
                .iter()
                .find(|w| **w == lower)
                .map(|w| Value::Word(w))
                .ok_or_else(|| format!("unknown {name} '{text}': expected {}", one_of(words)))
        }
    }
}

/// "a, b or c".
fn one_of(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [w] => (*w).to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// The settings of a registry, in its order.
pub fn list<T: 'static>(registry: &[Param<T>], t: &T) -> Vec<Setting> {
    registry.iter().map(|p| p.setting(t)).collect()
}

/// Sets parameter `name` of `t` from `text`; `t` is unchanged on an error.
/// Returns the parameter's entry, for the caller's own follow-up.
pub fn set<'r, T: 'static>(
    registry: &'r [Param<T>],
    t: &mut T,
    name: &str,
    text: &str,
) -> Result<&'r Param<T>, String> {
    let Some(p) = registry.iter().find(|p| p.name == name) else {
        let names: Vec<&str> = registry.iter().map(|p| p.name).collect();
        return Err(format!(
            "unknown parameter: {name} (known: {})",
            names.join(", ")
        ));
    };
    let value = parse(p.kind, name, text, p.note)?;
    (p.set)(t, &value);
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct S {
        on: bool,
        n: usize,
        x: f64,
        t: f64,
        w: &'static str,
    }

    fn registry() -> Vec<Param<S>> {
        vec![
            Param::flag("on", "a switch", |s: &S| s.on, |s, v| s.on = v),
            Param::int("n", (1, 10), "a count", |s: &S| s.n, |s, v| s.n = v),
            Param::real("x", (0.0, 2.0), "a ratio", |s: &S| s.x, |s, v| s.x = v),
            Param::seconds("t", 100.0, true, "a limit", |s: &S| s.t, |s, v| s.t = v),
            Param::choice(
                "w",
                &["red", "blue"],
                "a colour",
                |s: &S| s.w,
                |s, v| s.w = v,
            ),
        ]
    }

    #[test]
    fn values_are_parsed_by_kind_and_ranges_named() {
        let r = registry();
        let mut s = S::default();
        for (name, text) in [
            ("on", "on"),
            ("n", "10"),
            ("x", "1.5"),
            ("t", "0"),
            ("w", "BLUE"),
        ] {
            set(&r, &mut s, name, text).unwrap();
        }
        assert!(s.on && s.n == 10 && s.x == 1.5 && s.t == 0.0 && s.w == "blue");
        let err = |name, text| set(&r, &mut S::default(), name, text).err().unwrap();
        assert_eq!(err("n", "11"), "invalid n: 11 (expected 1 to 10)");
        assert_eq!(err("on", "2"), "invalid value for on: 2 (expected 0 or 1)");
        assert_eq!(err("x", "NaN"), "invalid x: NaN (expected 0 to 2)");
        assert_eq!(
            err("t", "-1"),
            "invalid t: -1 (seconds, 0 to 100, 0 for no limit)"
        );
        assert_eq!(err("w", "green"), "unknown w 'green': expected red or blue");
        assert_eq!(
            err("z", "1"),
            "unknown parameter: z (known: on, n, x, t, w)"
        );
    }

    #[test]
    fn a_refused_value_changes_nothing_and_listing_shows_values() {
        let r = registry();
        let mut s = S {
            n: 3,
            w: "red",
            ..S::default()
        };
        assert!(set(&r, &mut s, "n", "0").is_err());
        assert_eq!(s.n, 3);
        let l = list(&r, &s);
        assert_eq!(l[1].value, Value::Int(3));
        assert_eq!(l[4].value.to_string(), "red");
    }

    #[test]
    fn a_lifted_parameter_reaches_the_part() {
        struct Outer {
            inner: S,
        }
        let r: Vec<Param<Outer>> = registry()
            .into_iter()
            .map(|p| p.lift(|o: &Outer| &o.inner, |o: &mut Outer| &mut o.inner))
            .collect();
        let mut o = Outer {
            inner: S::default(),
        };
        set(&r, &mut o, "n", "7").unwrap();
        assert_eq!(o.inner.n, 7);
        assert_eq!(r[1].get(&o), Value::Int(7));
    }
}
