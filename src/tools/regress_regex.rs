//! A small backtracking regular-expression matcher for the expectations of
//! regression files (`#? [d1|d2|f1]`, `[.*]`, `[B\+]`).
//!
//! The syntax is the common subset of Java's `java.util.regex`, which
//! GoGui's regression runner uses: literals, `.`, `*`, `+`, `?`, `{m}`,
//! `{m,}`, `{m,n}` (each optionally lazy with a trailing `?`), alternation
//! `|`, groups `( )` and `(?: )`, classes `[abc]`, `[^a-z]`, escapes (`\d`,
//! `\w`, `\s`, their capitals, `\n`, `\t`, `\r`, `\b`, `\B`, an escaped
//! punctuation character stands for itself) and the anchors `^` and `$`.
//! Matching is as GoGui does it: the pattern must match the whole answer,
//! `.` also matches a newline and `^`/`$` also match at line breaks.

/// A compiled pattern.
#[derive(Clone, Debug)]
pub struct Regex {
    root: Node,
}

#[derive(Clone, Debug)]
enum Node {
    Char(char),
    Any,
    Class(Class),
    LineStart,
    LineEnd,
    TextStart,
    TextEnd,
    WordBoundary(bool),
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat(Repeat),
}

/// A quantified node: `min` to `max` (no limit when `None`) times, as
/// many as possible first when `greedy`.
#[derive(Clone, Debug)]
struct Repeat {
    node: Box<Node>,
    min: usize,
    max: Option<usize>,
    greedy: bool,
}

#[derive(Clone, Debug, Default)]
struct Class {
    negated: bool,
    ranges: Vec<(char, char)>,
}

impl Class {
    fn contains(&self, c: char) -> bool {
        self.ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi) != self.negated
    }

    fn of(ranges: &[(char, char)], negated: bool) -> Class {
        Class {
            negated,
            ranges: ranges.to_vec(),
        }
    }
}

const DIGITS: &[(char, char)] = &[('0', '9')];
const WORD: &[(char, char)] = &[('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')];
const SPACE: &[(char, char)] = &[(' ', ' '), ('\t', '\r')];

/// The longest repetition count accepted in `{m,n}`.
const MAX_COUNT: usize = 1000;

struct Parser<'a> {
    chars: Vec<char>,
    pos: usize,
    pattern: &'a str,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn error(&self, what: &str) -> String {
        format!(
            "bad pattern {:?}: {what} at position {}",
            self.pattern, self.pos
        )
    }

    fn alternation(&mut self) -> Result<Node, String> {
        let mut branches = vec![self.concat()?];
        while self.eat('|') {
            branches.push(self.concat()?);
        }
        Ok(if branches.len() == 1 {
            branches.pop().expect("one branch")
        } else {
            Node::Alt(branches)
        })
    }

    fn concat(&mut self) -> Result<Node, String> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            items.push(self.quantified(atom)?);
        }
        Ok(Node::Concat(items))
    }

    fn quantified(&mut self, mut node: Node) -> Result<Node, String> {
        loop {
            let start = self.pos;
            let (min, max) = match self.peek() {
                Some('*') => (0, None),
                Some('+') => (1, None),
                Some('?') => (0, Some(1)),
                Some('{') => match self.counts() {
                    Some(counts) => counts,
                    None => {
                        // Not a count: `{` stands for itself, as in Java.
                        self.pos = start;
                        return Ok(node);
                    }
                },
                _ => return Ok(node),
            };
            if self.pos == start {
                self.pos += 1;
            }
            if matches!(
                node,
                Node::LineStart | Node::LineEnd | Node::TextStart | Node::TextEnd
            ) {
                return Err(self.error("nothing to repeat"));
            }
            let greedy = !self.eat('?');
            // A possessive `+` is taken as greedy.
            if greedy {
                self.eat('+');
            }
            node = Node::Repeat(Repeat {
                node: Box::new(node),
                min,
                max,
                greedy,
            });
            // As in Java, a quantifier cannot follow another (`a**`,
            // `a+?+*`): stacked ones would nest repeats whose matching
            // takes exponential time.
            let next = self.pos;
            let stacked = match self.peek() {
                Some('*' | '+' | '?') => true,
                Some('{') => {
                    let counts = self.counts().is_some();
                    self.pos = next;
                    counts
                }
                _ => false,
            };
            if stacked {
                return Err(self.error("a quantifier cannot follow another"));
            }
        }
    }

    /// `{m}`, `{m,}` or `{m,n}` at the current position, consumed; `None`
    /// (nothing consumed that matters) if it is not one.
    fn counts(&mut self) -> Option<(usize, Option<usize>)> {
        self.pos += 1; // '{'
        let min = self.number()?;
        let max = if self.eat(',') {
            if self.peek() == Some('}') {
                None
            } else {
                Some(self.number()?)
            }
        } else {
            Some(min)
        };
        if !self.eat('}') || max.is_some_and(|m| m < min) {
            return None;
        }
        Some((min, max))
    }

    fn number(&mut self) -> Option<usize> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        let text: String = self.chars[start..self.pos].iter().collect();
        text.parse().ok().filter(|&n| n <= MAX_COUNT)
    }

    fn atom(&mut self) -> Result<Node, String> {
        let c = self.peek().ok_or_else(|| self.error("unexpected end"))?;
        self.pos += 1;
        Ok(match c {
            '(' => {
                if self.eat('?') && !self.eat(':') {
                    return Err(self.error("only (?: ) groups are supported"));
                }
                let inner = self.alternation()?;
                if !self.eat(')') {
                    return Err(self.error("missing )"));
                }
                inner
            }
            '[' => Node::Class(self.class()?),
            '.' => Node::Any,
            '^' => Node::LineStart,
            '$' => Node::LineEnd,
            '\\' => self.escape()?,
            '*' | '+' | '?' => return Err(self.error("nothing to repeat")),
            c => Node::Char(c),
        })
    }

    /// The node for the escape after a `\` (already consumed).
    fn escape(&mut self) -> Result<Node, String> {
        let c = self.peek().ok_or_else(|| self.error("trailing \\"))?;
        self.pos += 1;
        Ok(match c {
            'd' => Node::Class(Class::of(DIGITS, false)),
            'D' => Node::Class(Class::of(DIGITS, true)),
            'w' => Node::Class(Class::of(WORD, false)),
            'W' => Node::Class(Class::of(WORD, true)),
            's' => Node::Class(Class::of(SPACE, false)),
            'S' => Node::Class(Class::of(SPACE, true)),
            'b' => Node::WordBoundary(true),
            'B' => Node::WordBoundary(false),
            'A' => Node::TextStart,
            'z' | 'Z' => Node::TextEnd,
            _ => Node::Char(self.escaped_char(c)?),
        })
    }

    /// The character an escape such as `\n` or `\+` stands for.
    fn escaped_char(&self, c: char) -> Result<char, String> {
        match c {
            'n' => Ok('\n'),
            't' => Ok('\t'),
            'r' => Ok('\r'),
            'f' => Ok('\x0c'),
            'e' => Ok('\x1b'),
            c if c.is_ascii_alphanumeric() => Err(self.error(&format!("unsupported escape \\{c}"))),
            c => Ok(c),
        }
    }

    /// A class after its `[` (already consumed), up to and with its `]`.
    fn class(&mut self) -> Result<Class, String> {
        let mut class = Class {
            negated: self.eat('^'),
            ranges: Vec::new(),
        };
        let mut first = true;
        loop {
            let c = self.peek().ok_or_else(|| self.error("missing ]"))?;
            self.pos += 1;
            let lo = match c {
                ']' if !first => return Ok(class),
                '[' => return Err(self.error("nested classes are not supported")),
                '\\' => {
                    let e = self.peek().ok_or_else(|| self.error("trailing \\"))?;
                    self.pos += 1;
                    let set = match e {
                        'd' => Some(Class::of(DIGITS, false)),
                        'w' => Some(Class::of(WORD, false)),
                        's' => Some(Class::of(SPACE, false)),
                        'D' | 'W' | 'S' => {
                            return Err(
                                self.error("negated escapes inside a class are not supported")
                            );
                        }
                        _ => None,
                    };
                    if let Some(set) = set {
                        class.ranges.extend(set.ranges);
                        first = false;
                        continue;
                    }
                    self.escaped_char(e)?
                }
                c => c,
            };
            first = false;
            // A range `lo-hi`, unless the `-` is last before `]`.
            if self.peek() == Some('-') && self.chars.get(self.pos + 1).is_some_and(|&n| n != ']') {
                self.pos += 1;
                let mut hi = self.peek().ok_or_else(|| self.error("missing ]"))?;
                self.pos += 1;
                if hi == '\\' {
                    let e = self.peek().ok_or_else(|| self.error("trailing \\"))?;
                    self.pos += 1;
                    hi = self.escaped_char(e)?;
                }
                if hi < lo {
                    return Err(self.error("range out of order"));
                }
                class.ranges.push((lo, hi));
            } else {
                class.ranges.push((lo, lo));
            }
        }
    }
}

type Cont<'a> = dyn FnMut(usize) -> bool + 'a;

impl Regex {
    pub fn new(pattern: &str) -> Result<Regex, String> {
        let mut parser = Parser {
            chars: pattern.chars().collect(),
            pos: 0,
            pattern,
        };
        let root = parser.alternation()?;
        if parser.pos < parser.chars.len() {
            return Err(parser.error("unmatched )"));
        }
        Ok(Regex { root })
    }

    /// Whether the pattern matches all of `text`. A match that has not
    /// been found in [`MAX_STEPS`] steps of the backtracking (nested
    /// repeats can take exponential time) counts as no match.
    pub fn matches(&self, text: &str) -> bool {
        let chars: Vec<char> = text.chars().collect();
        let end = chars.len();
        STEPS.with(|s| s.set(0));
        m(&self.root, &chars, 0, &mut |i| i == end)
    }
}

/// The most steps one match may take: far more than any regression
/// file's patterns need (their answers are a few cells long), few enough
/// that a pathological pattern gives up in well under a second.
const MAX_STEPS: u64 = 2_000_000;

thread_local! {
    static STEPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts a step; whether the match has run out of them.
fn gave_up() -> bool {
    STEPS.with(|s| {
        let n = s.get() + 1;
        s.set(n);
        n > MAX_STEPS
    })
}

fn is_word(c: Option<&char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || *c == '_')
}

/// The single character `node` matches at `s[i]`, for nodes that match
/// exactly one character; `None` for other nodes.
fn single(node: &Node, s: &[char], i: usize) -> Option<bool> {
    let c = s.get(i);
    match node {
        Node::Char(x) => Some(c == Some(x)),
        Node::Any => Some(c.is_some()),
        Node::Class(class) => Some(c.is_some_and(|&c| class.contains(c))),
        _ => None,
    }
}

/// Matches `node` at `s[i..]`, calling `k` with each possible end (most
/// preferred first) until it returns true.
fn m(node: &Node, s: &[char], i: usize, k: &mut Cont) -> bool {
    if gave_up() {
        return false;
    }
    if let Some(hit) = single(node, s, i) {
        return hit && k(i + 1);
    }
    match node {
        Node::LineStart => (i == 0 || s[i - 1] == '\n') && k(i),
        Node::LineEnd => (i == s.len() || s[i] == '\n') && k(i),
        Node::TextStart => i == 0 && k(i),
        Node::TextEnd => i == s.len() && k(i),
        Node::WordBoundary(want) => {
            let at = is_word(i.checked_sub(1).and_then(|p| s.get(p))) != is_word(s.get(i));
            at == *want && k(i)
        }
        Node::Concat(items) => seq(items, s, i, k),
        Node::Alt(branches) => branches.iter().any(|b| m(b, s, i, k)),
        Node::Repeat(r) => {
            let Repeat {
                node,
                min,
                max,
                greedy,
            } = r;
            if single(node, s, i).is_some() {
                // One character at a time: count the run, then try the ends
                // without recursion.
                let limit = max.unwrap_or(usize::MAX);
                let mut run = 0;
                while run < limit && single(node, s, i + run) == Some(true) {
                    run += 1;
                }
                if run < *min {
                    return false;
                }
                if *greedy {
                    (*min..=run).rev().any(|n| k(i + n))
                } else {
                    (*min..=run).any(|n| k(i + n))
                }
            } else {
                repeat(r, 0, s, i, k)
            }
        }
        Node::Char(_) | Node::Any | Node::Class(_) => unreachable!("handled by single"),
    }
}

fn seq(items: &[Node], s: &[char], i: usize, k: &mut Cont) -> bool {
    match items.split_first() {
        None => k(i),
        Some((first, rest)) => m(first, s, i, &mut |j| seq(rest, s, j, k)),
    }
}

/// `r` matched `count` times so far, the text at `i`.
fn repeat(r: &Repeat, count: usize, s: &[char], i: usize, k: &mut Cont) -> bool {
    let node = &*r.node;
    if count < r.min {
        return m(node, s, i, &mut |j| repeat(r, count + 1, s, j, k));
    }
    let may_continue = r.max.is_none_or(|mx| count < mx);
    if r.greedy {
        // An iteration that matches nothing cannot lead anywhere new.
        (may_continue && m(node, s, i, &mut |j| j != i && repeat(r, count + 1, s, j, k))) || k(i)
    } else {
        k(i) || (may_continue && m(node, s, i, &mut |j| j != i && repeat(r, count + 1, s, j, k)))
    }
}

#[cfg(test)]
mod tests {
    use super::Regex;

    fn yes(p: &str, t: &str) {
        assert!(
            Regex::new(p).unwrap().matches(t),
            "{p:?} should match {t:?}"
        );
    }

    fn no(p: &str, t: &str) {
        assert!(
            !Regex::new(p).unwrap().matches(t),
            "{p:?} should not match {t:?}"
        );
    }

    #[test]
    fn the_patterns_of_the_benzene_files() {
        yes("d1|d2|f1|e2|b4", "f1");
        no("d1|d2|f1|e2|b4", "d");
        no("d1|d2|f1|e2|b4", "d12");
        no("d1|d2|f1|e2|b4", " d1");
        yes(".*", "");
        yes(".*", "  a b c\n1 B . . 1\n 2 . W . 2");
        yes("", "");
        no("", "x");
        yes("white", "white");
        no("white", "black");
        no("white", "White");
        yes("B\\+", "B+");
        no("B\\+", "BB");
    }

    #[test]
    fn repetition_and_groups() {
        yes("a*", "");
        yes("a*", "aaaa");
        no("a+", "");
        yes("a+b?", "aab");
        yes("(ab)+", "ababab");
        no("(ab)+", "ababa");
        yes("(?:a|bc)*d", "abcad");
        yes("a{2,3}", "aaa");
        no("a{2,3}", "aaaa");
        no("a{2}", "a");
        yes("a{2,}", "aaaaa");
        yes("x{y", "x{y");
        yes("(a|ab)(c|bcd)(d*)", "abcd");
        yes("(a*)*b", "aaab");
        no("(a*)*b", "aaaa");
        yes("a.*?b", "axxb");
        yes("(a?)+?c", "aac");
    }

    #[test]
    fn classes_escapes_and_anchors() {
        yes("[a-c]+", "abcab");
        no("[a-c]+", "abd");
        yes("[^0-9]x", "ax");
        no("[^0-9]x", "1x");
        yes("[-a]+", "-a-");
        yes("[a-]+", "-a-");
        yes("[]a]+", "]a");
        yes("[\\]]", "]");
        yes("\\d+\\s\\w+", "12 ab_3");
        no("\\d", "a");
        yes("\\D\\W\\S", "a.b");
        yes("[.]", ".");
        no("[.]", "x");
        yes("^a$\\n^b$", "a\nb");
        yes("a\\nb", "a\nb");
        yes("\\bab\\b c", "ab c");
        no("a\\Bb\\b", "a b");
        yes("[\\d,]+", "1,2");
        yes("\\(\\)\\[\\]\\{\\}\\.\\*\\|\\?\\\\", "()[]{}.*|?\\");
        yes("\\Aa\\z", "a");
        yes("caf.", "café");
    }

    #[test]
    fn bad_patterns_are_refused() {
        for p in [
            "(", "a)", "[abc", "*a", "a|+", "\\", "(?=a)", "[z-a]", "\\q", "[[a]]",
        ] {
            assert!(Regex::new(p).is_err(), "{p:?} should be refused");
        }
    }

    #[test]
    fn stacked_quantifiers_are_refused() {
        // From a fuzzed regression file that hung `ferrohex regress`: 90
        // nested repeats.
        let hung = format!("{{+?{}*+++,", "+".repeat(90));
        for p in ["a**", "a+?+", "a*{2}", "a??*", hung.as_str()] {
            assert!(Regex::new(p).is_err(), "{p:?} should be refused");
        }
        for p in ["a*+", "a+?", "a{2}?", "a*b+", "a{x"] {
            assert!(Regex::new(p).is_ok(), "{p:?} should be accepted");
        }
    }

    #[test]
    fn a_match_that_would_take_exponential_time_gives_up() {
        // Nested repeats over a text with no match: 2^40 ways to split it.
        let r = Regex::new("(a*)*(a*)*(a*)*(a*)*b").unwrap();
        assert!(!r.matches(&"a".repeat(40)));
        assert!(r.matches("aab"));
    }

    #[test]
    fn long_answers_do_not_overflow() {
        let text = "x".repeat(200_000);
        yes(".*", &text);
        yes("x*", &text);
        no(".*y", &text);
    }
}
