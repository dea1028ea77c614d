//! A brute-force referee for virtual connections: plays out every line of
//! the game restricted to a carrier. Exponential; for tests on small
//! carriers, and for deriving templates.

use std::collections::HashMap;

use ferrohex::board::{CellSet, Color, Geometry, Position};

use ferrohex::knowledge::Endpoint;

/// Whether `stones` join `a` and `b` (cell endpoints must be in `stones`).
pub fn joined(g: &Geometry, stones: &CellSet, a: Endpoint, b: Endpoint) -> bool {
    let start: CellSet = match a {
        Endpoint::Cell(c) => [c].into_iter().filter(|&c| stones.contains(c)).collect(),
        Endpoint::Edge(e) => g.edge_cells(e).intersection(stones),
    };
    let mut seen = start;
    let mut stack: Vec<_> = start.iter().collect();
    while let Some(c) = stack.pop() {
        let hit = match b {
            Endpoint::Cell(t) => c == t,
            Endpoint::Edge(e) => g.touches(c, e),
        };
        if hit {
            return true;
        }
        for &n in g.neighbours(c) {
            if stones.contains(n) && !seen.contains(n) {
                seen.insert(n);
                stack.push(n);
            }
        }
    }
    false
}

struct Solver<'a> {
    g: &'a Geometry,
    a: Endpoint,
    b: Endpoint,
    memo: HashMap<(CellSet, CellSet), bool>,
}

impl Solver<'_> {
    /// With the opponent to move inside `free`, does the owner keep `a` and
    /// `b` joined?
    fn holds(&mut self, own: CellSet, free: CellSet) -> bool {
        if joined(self.g, &own, self.a, self.b) {
            return true;
        }
        if free.is_empty() || !joined(self.g, &own.union(&free), self.a, self.b) {
            return false;
        }
        if let Some(&v) = self.memo.get(&(own, free)) {
            return v;
        }
        let mut result = true;
        for e in free.iter() {
            let mut f = free;
            f.remove(e);
            let answered = f.iter().any(|r| {
                let mut o = own;
                o.insert(r);
                let mut f2 = f;
                f2.remove(r);
                self.holds(o, f2)
            });
            if !answered {
                result = false;
                break;
            }
        }
        self.memo.insert((own, free), result);
        result
    }
}

/// The owner's stones plus cell endpoints, when every carrier cell is
/// empty and no endpoint lies in the carrier; `None` otherwise.
fn setup(
    pos: &Position,
    color: Color,
    a: Endpoint,
    b: Endpoint,
    carrier: &CellSet,
) -> Option<CellSet> {
    let mut own = *pos.stones(color);
    if !carrier.difference(&pos.empty_cells()).is_empty() {
        return None;
    }
    for e in [a, b] {
        if let Endpoint::Cell(c) = e {
            if carrier.contains(c) || pos.stone(c) == Some(color.opponent()) {
                return None;
            }
            own.insert(c);
        }
    }
    Some(own)
}

/// Whether `color` joins `a` and `b` within `carrier` even when the
/// opponent moves first (a full connection). Cell endpoints count as
/// `color`'s stones.
pub fn is_full(pos: &Position, color: Color, a: Endpoint, b: Endpoint, carrier: &CellSet) -> bool {
    let Some(own) = setup(pos, color, a, b, carrier) else {
        return false;
    };
    let mut s = Solver {
        g: pos.geometry(),
        a,
        b,
        memo: HashMap::new(),
    };
    s.holds(own, *carrier)
}

/// Whether playing `key` first gives `color` a full connection in the rest
/// of `carrier` (a semi connection).
pub fn is_semi(
    pos: &Position,
    color: Color,
    a: Endpoint,
    b: Endpoint,
    key: ferrohex::board::Cell,
    carrier: &CellSet,
) -> bool {
    let Some(mut own) = setup(pos, color, a, b, carrier) else {
        return false;
    };
    if !carrier.contains(key) {
        return false;
    }
    own.insert(key);
    let mut rest = *carrier;
    rest.remove(key);
    let mut s = Solver {
        g: pos.geometry(),
        a,
        b,
        memo: HashMap::new(),
    };
    s.holds(own, rest)
}
