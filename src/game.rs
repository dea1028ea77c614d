//! A game of Hex: the position, its move history, whose turn it is, the
//! swap rule and the players' clocks. Every change goes through here, and
//! every refusal leaves the game exactly as it was.

use std::sync::Arc;
use std::time::Duration;

use crate::board::{Cell, Color, Geometry, Position};

/// A move as the protocol knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Cell(Cell),
    /// The swap rule: White takes over Black's first stone, mirrored.
    Swap,
}

/// A move argument as written, before it meets a board: a cell by its
/// 0-based column and row (the board decides whether it exists), or the
/// swap move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveArg {
    Cell { col: usize, row: usize },
    Swap,
}

impl MoveArg {
    /// The cell's name as the user wrote it, lowercased (`f6`).
    pub fn describe(&self) -> String {
        match *self {
            MoveArg::Cell { col, row } => format!("{}{}", (b'a' + col as u8) as char, row + 1),
            MoveArg::Swap => "swap-pieces".into(),
        }
    }
}

/// One entry of the history. A swap remembers the cell it took over so that
/// undo can put Black's stone back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Played {
    Stone(Color, Cell),
    Swap { black_cell: Cell, white_cell: Cell },
}

/// GTP time settings and what each side has left.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clocks {
    /// `time_settings MAIN BYO_TIME BYO_STONES`, when given.
    pub settings: Option<TimeSettings>,
    /// Per colour: time left and stones to play in it (`None`: main time).
    left: [Option<(Duration, Option<u32>)>; 2],
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeSettings {
    pub main: Duration,
    pub byo_time: Duration,
    pub byo_stones: u32,
}

impl TimeSettings {
    /// GTP: byo-yomi time with zero stones means no time limit at all.
    pub fn unlimited(&self) -> bool {
        self.byo_stones == 0 && self.byo_time > Duration::ZERO
    }
}

impl Clocks {
    /// `time_settings`: both clocks restart from the main time.
    pub fn set_settings(&mut self, settings: TimeSettings) {
        self.settings = Some(settings);
        let start = if settings.unlimited() {
            None
        } else if settings.main > Duration::ZERO {
            Some((settings.main, None))
        } else {
            Some((settings.byo_time, Some(settings.byo_stones)))
        };
        self.left = [start, start];
    }

    /// `time_left COLOR SECONDS STONES` (STONES 0 or absent: main time).
    pub fn set_left(&mut self, color: Color, left: Duration, stones: Option<u32>) {
        self.left[color.index()] = Some((left, stones.filter(|&s| s > 0)));
    }

    /// What `color` has left: time, and stones to play in that time.
    pub fn left(&self, color: Color) -> Option<(Duration, Option<u32>)> {
        self.left[color.index()]
    }

    /// Charges `color` for a move that took `used`, moving into byo-yomi or
    /// a new byo-yomi period as GTP's Canadian timing does. The controller's
    /// next `time_left` overrides this; it only keeps our own view sensible
    /// between updates.
    pub fn charge(&mut self, color: Color, used: Duration) {
        let Some((left, stones)) = self.left[color.index()] else {
            return;
        };
        let left = left.saturating_sub(used);
        let next = match (stones, self.settings) {
            (Some(s), Some(set)) if s <= 1 => (set.byo_time, Some(set.byo_stones)),
            (Some(s), _) => (left, Some(s - 1)),
            (None, Some(set)) if left.is_zero() && set.byo_stones > 0 => {
                (set.byo_time, Some(set.byo_stones))
            }
            (None, _) => (left, None),
        };
        self.left[color.index()] = Some(next);
    }
}

#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    /// Stones placed by SGF set-up (AB/AW); not moves, not undoable.
    setup: Vec<(Color, Cell)>,
    history: Vec<Played>,
    to_move: Color,
    pub allow_swap: bool,
    pub clocks: Clocks,
}

impl Game {
    /// An empty board of `width` columns and `height` rows.
    pub fn new(width: usize, height: usize) -> Result<Game, String> {
        let geometry = Arc::new(Geometry::new(width, height)?);
        Ok(Game {
            position: Position::new(geometry),
            setup: Vec::new(),
            history: Vec::new(),
            to_move: Color::Black,
            allow_swap: false,
            clocks: Clocks::default(),
        })
    }

    /// The same board size and settings with no stones.
    pub fn cleared(&self) -> Game {
        Game {
            position: Position::new(self.position.shared_geometry().clone()),
            setup: Vec::new(),
            history: Vec::new(),
            to_move: Color::Black,
            allow_swap: self.allow_swap,
            clocks: self.clocks.clone(),
        }
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn geometry(&self) -> &Geometry {
        self.position.geometry()
    }

    pub fn to_move(&self) -> Color {
        self.to_move
    }

    pub fn set_to_move(&mut self, color: Color) {
        self.to_move = color;
    }

    pub fn winner(&self) -> Option<Color> {
        self.position.winner()
    }

    pub fn num_moves(&self) -> usize {
        self.history.len()
    }

    pub fn setup_stones(&self) -> &[(Color, Cell)] {
        &self.setup
    }

    /// The moves so far, in order, as (colour, move).
    pub fn moves(&self) -> impl Iterator<Item = (Color, Move)> + '_ {
        self.history.iter().map(|p| match *p {
            Played::Stone(c, cell) => (c, Move::Cell(cell)),
            Played::Swap { .. } => (Color::White, Move::Swap),
        })
    }

    /// The cell of the most recent move, for diagrams.
    pub fn last_move_cell(&self) -> Option<Cell> {
        self.history.last().map(|p| match *p {
            Played::Stone(_, cell) => cell,
            Played::Swap { white_cell, .. } => white_cell,
        })
    }

    /// Places a set-up stone (SGF AB/AW) before any move is played.
    pub fn add_setup_stone(&mut self, color: Color, cell: Cell) -> Result<(), String> {
        if !self.history.is_empty() {
            return Err("set-up stones must come before the first move".into());
        }
        if !self.position.is_empty(cell) {
            return Err(format!("cell {} is occupied", self.geometry().name(cell)));
        }
        self.position.play(color, cell);
        self.setup.push((color, cell));
        Ok(())
    }

    /// Why `color` may not play `mv` now, or `Ok` if it may.
    pub fn check(&self, color: Color, mv: Move) -> Result<(), String> {
        if let Some(w) = self.winner() {
            return Err(format!("the game is over: {w} has won"));
        }
        match mv {
            Move::Cell(cell) => {
                if !self.position.is_empty(cell) {
                    return Err(format!("cell {} is occupied", self.geometry().name(cell)));
                }
                Ok(())
            }
            Move::Swap => self.swap_target(color).map(|_| ()),
        }
    }

    /// Black's first stone, when White may swap it now.
    pub fn swappable_stone(&self) -> Option<Cell> {
        self.swap_target(Color::White)
            .ok()
            .map(|(black_cell, _)| black_cell)
    }

    /// The (Black cell, White cell) a swap by `color` would use, or why it
    /// is not allowed.
    fn swap_target(&self, color: Color) -> Result<(Cell, Cell), String> {
        if !self.allow_swap {
            return Err("swap is not allowed (param_game allow_swap 1 enables it)".into());
        }
        if color != Color::White {
            return Err("only White can swap".into());
        }
        let black_cell = match (self.setup.is_empty(), self.history.as_slice()) {
            (true, [Played::Stone(Color::Black, cell)]) => *cell,
            _ => {
                return Err(
                    "swap is only allowed as the second move, after one Black stone".into(),
                );
            }
        };
        let white_cell = self
            .geometry()
            .mirror(black_cell)
            .ok_or("swap needs a square board: the mirrored cell is off the board")?;
        Ok((black_cell, white_cell))
    }

    /// Plays `mv` for `color` (alternation is not enforced, as in Benzene, so
    /// GUIs can set up positions). On error nothing changes.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), String> {
        self.check(color, mv)?;
        match mv {
            Move::Cell(cell) => {
                self.position.play(color, cell);
                self.history.push(Played::Stone(color, cell));
                self.to_move = color.opponent();
            }
            Move::Swap => {
                let (black_cell, white_cell) = self.swap_target(color)?;
                self.position.unplay();
                self.position.play(Color::White, white_cell);
                self.history.push(Played::Swap {
                    black_cell,
                    white_cell,
                });
                self.to_move = Color::Black;
            }
        }
        Ok(())
    }

    /// Takes back the last move; the player who made it is to move again.
    pub fn undo(&mut self) -> Result<(), String> {
        let last = self.history.pop().ok_or("there is no move to undo")?;
        self.position.unplay();
        match last {
            Played::Stone(color, _) => self.to_move = color,
            Played::Swap { black_cell, .. } => {
                self.position.play(Color::Black, black_cell);
                self.to_move = Color::White;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(g: &Game, name: &str) -> Cell {
        g.geometry().parse_cell(name).unwrap()
    }

    #[test]
    fn swap_mirrors_the_first_stone_and_undoes() {
        let mut g = Game::new(11, 11).unwrap();
        g.allow_swap = true;
        let c2 = cell(&g, "c2");
        g.play(Color::Black, Move::Cell(c2)).unwrap();
        let before = (g.position().clone(), g.position().hash(), g.to_move());
        assert!(g.play(Color::Black, Move::Swap).is_err());
        g.play(Color::White, Move::Swap).unwrap();
        assert_eq!(g.position().stone(cell(&g, "b3")), Some(Color::White));
        assert!(g.position().is_empty(c2));
        assert_eq!(g.to_move(), Color::Black);
        assert_eq!(g.position().num_stones(), 1);
        g.undo().unwrap();
        assert_eq!(
            (g.position().clone(), g.position().hash(), g.to_move()),
            before
        );
    }

    #[test]
    fn swap_refused_when_off_or_late() {
        let mut g = Game::new(5, 5).unwrap();
        g.play(Color::Black, Move::Cell(cell(&g, "a1"))).unwrap();
        assert!(
            g.play(Color::White, Move::Swap)
                .unwrap_err()
                .contains("not allowed")
        );
        g.allow_swap = true;
        g.play(Color::White, Move::Cell(cell(&g, "b2"))).unwrap();
        assert!(
            g.play(Color::White, Move::Swap)
                .unwrap_err()
                .contains("second move")
        );
        let mut r = Game::new(4, 5).unwrap();
        r.allow_swap = true;
        r.play(Color::Black, Move::Cell(cell(&r, "a5"))).unwrap();
        assert!(
            r.play(Color::White, Move::Swap)
                .unwrap_err()
                .contains("square")
        );
    }

    #[test]
    fn no_moves_after_a_win_and_undo_reopens() {
        let mut g = Game::new(2, 2).unwrap();
        g.play(Color::Black, Move::Cell(cell(&g, "a1"))).unwrap();
        g.play(Color::Black, Move::Cell(cell(&g, "a2"))).unwrap();
        assert_eq!(g.winner(), Some(Color::Black));
        assert!(g.play(Color::White, Move::Cell(cell(&g, "b1"))).is_err());
        g.undo().unwrap();
        assert_eq!(g.winner(), None);
        assert_eq!(g.to_move(), Color::Black);
    }

    #[test]
    fn clocks_move_into_byo_yomi() {
        let mut c = Clocks::default();
        c.set_settings(TimeSettings {
            main: Duration::from_secs(10),
            byo_time: Duration::from_secs(30),
            byo_stones: 5,
        });
        c.charge(Color::Black, Duration::from_secs(12));
        assert_eq!(
            c.left(Color::Black),
            Some((Duration::from_secs(30), Some(5)))
        );
        c.charge(Color::Black, Duration::from_secs(1));
        assert_eq!(
            c.left(Color::Black),
            Some((Duration::from_secs(29), Some(4)))
        );
        assert_eq!(c.left(Color::White), Some((Duration::from_secs(10), None)));
    }
}

/// Reading and writing games as SGF records.
mod sgf_io {
    use super::{Game, Move, Played};
    use crate::board::{Cell, Color};
    use crate::sgf::{SgfAction, SgfMove, SgfNode, SgfRecord};

    impl Game {
        /// The game in an SGF record: set-up stones in the root node, then
        /// one node per move.
        pub fn to_sgf(&self) -> SgfRecord {
            let g = self.geometry();
            let mut root = SgfNode {
                actions: Vec::new(),
            };
            for &(color, cell) in &self.setup {
                root.actions.push(SgfAction::Setup(color, g.name(cell)));
            }
            if !self.setup.is_empty() && self.history.is_empty() {
                root.actions.push(SgfAction::ToPlay(self.to_move));
            }
            let mut nodes = vec![root];
            for p in &self.history {
                let action = match *p {
                    Played::Stone(color, cell) => {
                        SgfAction::Move(color, SgfMove::Cell(g.name(cell)))
                    }
                    Played::Swap { .. } => SgfAction::Move(Color::White, SgfMove::Swap),
                };
                nodes.push(SgfNode {
                    actions: vec![action],
                });
            }
            SgfRecord {
                width: g.width(),
                height: g.height(),
                nodes,
            }
        }

        /// A game from an SGF record, stopped before move `before_move` (GTP
        /// `loadsgf FILE MOVE_NUMBER`, moves counted from 1) when given.
        /// Set-up stones must come before the first move; a resignation
        /// ends the record; passes are skipped (Hex has none).
        pub fn from_sgf(
            record: &SgfRecord,
            before_move: Option<usize>,
            allow_swap: bool,
        ) -> Result<Game, String> {
            let mut game = Game::new(record.width, record.height)?;
            let geometry = game.position.shared_geometry().clone();
            let cell = |name: &str| -> Result<Cell, String> {
                geometry.parse_cell(name).ok_or_else(|| {
                    format!(
                        "SGF cell {name} is off the {}x{} board",
                        geometry.width(),
                        geometry.height()
                    )
                })
            };
            // Set-up is collected first so AE can take back an AB/AW.
            let mut setup: Vec<(Color, Cell)> = Vec::new();
            let mut moves: Vec<(Color, Move)> = Vec::new();
            let mut to_play = None;
            'nodes: for node in &record.nodes {
                for action in &node.actions {
                    match action {
                        SgfAction::Setup(color, name) => {
                            if !moves.is_empty() {
                                return Err(
                                    "SGF set-up stones after moves are not supported".into()
                                );
                            }
                            let c = cell(name)?;
                            setup.retain(|&(_, s)| s != c);
                            setup.push((*color, c));
                        }
                        SgfAction::Clear(name) => {
                            if !moves.is_empty() {
                                return Err(
                                    "SGF set-up stones after moves are not supported".into()
                                );
                            }
                            let c = cell(name)?;
                            setup.retain(|&(_, s)| s != c);
                        }
                        SgfAction::ToPlay(color) => to_play = Some(*color),
                        SgfAction::Move(color, SgfMove::Cell(name)) => {
                            moves.push((*color, Move::Cell(cell(name)?)))
                        }
                        SgfAction::Move(color, SgfMove::Swap) => moves.push((*color, Move::Swap)),
                        SgfAction::Move(_, SgfMove::Resign) => break 'nodes,
                        SgfAction::Move(_, SgfMove::Pass) => {}
                    }
                }
            }
            for &(color, c) in &setup {
                game.add_setup_stone(color, c)?;
            }
            let (black, white) = (
                setup.iter().filter(|s| s.0 == Color::Black).count(),
                setup.iter().filter(|s| s.0 == Color::White).count(),
            );
            game.to_move = if black > white {
                Color::White
            } else {
                Color::Black
            };
            game.allow_swap = true; // a recorded swap was allowed in that game
            let limit = before_move.map_or(moves.len(), |n| (n - 1).min(moves.len()));
            for (i, &(color, mv)) in moves.iter().take(limit).enumerate() {
                game.play(color, mv).map_err(|e| {
                    let what = match mv {
                        Move::Cell(c) => geometry.name(c),
                        Move::Swap => "swap-pieces".into(),
                    };
                    format!("SGF move {} ({color} {what}) is illegal: {e}", i + 1)
                })?;
            }
            game.allow_swap = allow_swap;
            if let (Some(color), true) = (to_play, limit == 0) {
                game.to_move = color;
            }
            Ok(game)
        }
    }
}
