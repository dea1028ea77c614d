//! Reading positions from text diagrams: the pictures people write in
//! puzzles and issues, and ferrohex's own `showboard` output.
//!
//! A diagram is a block of rows, one line per board row, top row first.
//! Each row is a list of cells: `.` (also `-` or `_`) for an empty cell,
//! a letter for a stone. Cells may be run together (`XO.`) or separated by
//! spaces, and each row may be indented by any amount (usually one more
//! space per row, the rhombus drawn the Hex way); the indentation is not
//! checked. Every row must have the same number of cells: a diagram of W
//! cells per row and H rows is a board of W columns and H rows.
//!
//! Around and in the rows, `showboard`'s decorations are understood and
//! checked: a header and footer of column letters (`a b c`), a row number
//! at either end of a row (it must be the row's number), a `(` before the
//! last move's stone (and its closing `)`), and an `=` answer prefix on the
//! first line. Lines of prose before or after the rows (the legend, `Last
//! move: ...`, `Black to play.`) are skipped, except that `Black to play.` /
//! `White to play.` says whose turn it is. Lines starting with `#` are
//! comments.
//!
//! Stone letters: `B` is always Black and `W` always White. What `X` and `O`
//! mean is chosen by [`Letters`]: in the common convention of the "connect"
//! puzzle's test data, `O` joins top and bottom (ferrohex's Black) and `X`
//! joins left and right (White). Letters are case-insensitive.

use crate::board::{Color, MAX_SIZE};
use crate::game::{Game, Move};

/// What the letters `X` and `O` mean in a diagram.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Letters {
    /// `O` joins top and bottom (Black), `X` joins left and right (White):
    /// the convention of the widely used "connect" puzzle test data.
    #[default]
    Common,
    /// The reverse: `X` joins top and bottom (Black), `O` left and right
    /// (White).
    Seed,
}

impl Letters {
    /// The colour a stone letter stands for, if it is one.
    pub fn color(self, letter: char) -> Option<Color> {
        match (letter.to_ascii_uppercase(), self) {
            ('B', _) | ('O', Letters::Common) | ('X', Letters::Seed) => Some(Color::Black),
            ('W', _) | ('X', Letters::Common) | ('O', Letters::Seed) => Some(Color::White),
            _ => None,
        }
    }

    /// The X/O letter for `color` under this convention.
    pub fn letter(self, color: Color) -> char {
        match (color, self) {
            (Color::Black, Letters::Common) | (Color::White, Letters::Seed) => 'O',
            (Color::White, Letters::Common) | (Color::Black, Letters::Seed) => 'X',
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Letters::Common => "common",
            Letters::Seed => "seed",
        }
    }
}

impl std::str::FromStr for Letters {
    type Err = String;

    fn from_str(s: &str) -> Result<Letters, String> {
        match s.to_ascii_lowercase().as_str() {
            "common" => Ok(Letters::Common),
            "seed" => Ok(Letters::Seed),
            _ => Err(format!(
                "unknown letters '{s}': expected common (O joins top and bottom, X left and right) \
                 or seed (X joins top and bottom, O left and right)"
            )),
        }
    }
}

impl std::fmt::Display for Letters {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A stone of a diagram: its colour, column and row (both from 0, `a1` is
/// (0, 0)), and the letter it was written with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stone {
    pub color: Color,
    pub col: usize,
    pub row: usize,
    pub letter: char,
}

/// A position read from a text diagram.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    pub width: usize,
    pub height: usize,
    /// In reading order: row by row, left to right.
    pub stones: Vec<Stone>,
    /// The stone marked as the last move, `(B)`, as (column, row).
    pub last_move: Option<(usize, usize)>,
    /// Whose turn it is, when a `Black to play.` / `White to play.` line
    /// says so.
    pub to_move: Option<Color>,
}

impl Diagram {
    /// The stone on (column, row), if any.
    pub fn stone(&self, col: usize, row: usize) -> Option<&Stone> {
        self.stones.iter().find(|s| s.col == col && s.row == row)
    }

    /// The player whose stones join their two edges, if any (Black: top and
    /// bottom; White: left and right). Works for diagrams of any size, also
    /// beyond ferrohex's 26x26 limit.
    pub fn winner(&self) -> Option<Color> {
        Color::BOTH
            .into_iter()
            .find(|&c| self.winning_chain(c).is_some())
    }

    /// The stones of `color`'s groups that touch both of its edges, as
    /// (column, row), when it has won.
    pub fn winning_chain(&self, color: Color) -> Option<Vec<(usize, usize)>> {
        let (w, h) = (self.width, self.height);
        let mut own = vec![false; w * h];
        for s in self.stones.iter().filter(|s| s.color == color) {
            own[s.row * w + s.col] = true;
        }
        let on_first = |col: usize, row: usize| match color {
            Color::Black => row == 0,
            Color::White => col == 0,
        };
        let on_second = |col: usize, row: usize| match color {
            Color::Black => row == h - 1,
            Color::White => col == w - 1,
        };
        let from_first = flood(w, h, &own, on_first);
        let from_second = flood(w, h, &own, on_second);
        let chain: Vec<(usize, usize)> = (0..w * h)
            .filter(|&i| from_first[i] && from_second[i])
            .map(|i| (i % w, i / w))
            .collect();
        (!chain.is_empty()).then_some(chain)
    }
}

/// The cells marked in `own` reachable from the own cells where `start`
/// holds, through the six hex directions (rows shifting right going down).
fn flood(w: usize, h: usize, own: &[bool], start: impl Fn(usize, usize) -> bool) -> Vec<bool> {
    let mut seen = vec![false; w * h];
    let mut stack: Vec<usize> = (0..w * h)
        .filter(|&i| own[i] && start(i % w, i / w))
        .collect();
    for &i in &stack {
        seen[i] = true;
    }
    while let Some(i) = stack.pop() {
        let (col, row) = ((i % w) as isize, (i / w) as isize);
        for (dc, dr) in [(-1, 0), (1, 0), (0, -1), (1, -1), (-1, 1), (0, 1)] {
            let (c, r) = (col + dc, row + dr);
            if c < 0 || r < 0 || c >= w as isize || r >= h as isize {
                continue;
            }
            let j = r as usize * w + c as usize;
            if own[j] && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen
}

/// One line of a diagram, classified.
enum Line {
    Blank,
    /// Column letters `a b c ...`: how many.
    Header(usize),
    /// Prose (a legend, a comment); possibly naming the player to move.
    Text(Option<Color>),
    Row(Row),
}

struct Row {
    cells: Vec<Option<char>>,
    /// Row numbers written at the start and end of the line.
    numbers: [Option<usize>; 2],
    /// Index of the cell marked with `(`.
    marked: Option<usize>,
}

/// Reads a diagram. Errors are one line naming the diagram line at fault.
pub fn parse(text: &str, letters: Letters) -> Result<Diagram, String> {
    let mut rows: Vec<(usize, Row)> = Vec::new();
    let mut headers: Vec<(usize, usize)> = Vec::new();
    let mut to_move = None;
    // Where rows may still be read: before the first row, in the block of
    // rows, after the block (only decorations and prose).
    let mut after_rows = false;
    let mut first = true;
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let mut line = raw.trim_end_matches('\r');
        if first && !line.trim().is_empty() {
            first = false;
            line = strip_answer_prefix(line, number)?;
        }
        match classify(line, letters).map_err(|e| format!("line {number}: {e}"))? {
            Line::Blank => {}
            Line::Header(n) => headers.push((number, n)),
            Line::Text(color) => {
                if color.is_some() {
                    to_move = color;
                }
                if !rows.is_empty() {
                    after_rows = true;
                }
            }
            Line::Row(row) => {
                if after_rows {
                    return Err(format!(
                        "line {number}: a board row after the end of the board"
                    ));
                }
                rows.push((number, row));
            }
        }
    }
    let Some((_, first_row)) = rows.first() else {
        return Err("no board rows found (rows of '.', 'X', 'O', 'B' or 'W')".into());
    };
    let width = first_row.cells.len();
    let height = rows.len();
    let mut diagram = Diagram {
        width,
        height,
        stones: Vec::new(),
        last_move: None,
        to_move,
    };
    for (r, (number, row)) in rows.iter().enumerate() {
        if row.cells.len() != width {
            return Err(format!(
                "line {number}: row {} has {} cells but row 1 has {width}",
                r + 1,
                row.cells.len()
            ));
        }
        for n in row.numbers.iter().flatten() {
            if *n != r + 1 {
                return Err(format!("line {number}: row {} is numbered {n}", r + 1));
            }
        }
        if let Some(c) = row.marked {
            if diagram.last_move.is_some() {
                return Err(format!("line {number}: a second last-move mark '('"));
            }
            diagram.last_move = Some((c, r));
        }
        for (c, cell) in row.cells.iter().enumerate() {
            if let Some(letter) = *cell {
                let color = letters
                    .color(letter)
                    .expect("classify only keeps stone letters");
                diagram.stones.push(Stone {
                    color,
                    col: c,
                    row: r,
                    letter: letter.to_ascii_uppercase(),
                });
            }
        }
    }
    for (number, n) in headers {
        if n != width {
            return Err(format!(
                "line {number}: the column letters name {n} columns but the rows have {width} cells"
            ));
        }
    }
    if let Some((c, r)) = diagram.last_move
        && diagram.stone(c, r).is_none()
    {
        return Err(format!(
            "the last-move mark '(' at {} is on an empty cell",
            cell_name(c, r)
        ));
    }
    Ok(diagram)
}

/// Removes an HTP answer's `=` or `=ID` from the first line; a `?` answer
/// is an error.
fn strip_answer_prefix(line: &str, number: usize) -> Result<&str, String> {
    let t = line.trim_start();
    if let Some(rest) = t.strip_prefix('=') {
        let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
        if rest.is_empty() || rest.starts_with([' ', '\t']) {
            return Ok(rest);
        }
    }
    if t.starts_with('?') {
        return Err(format!(
            "line {number}: an error answer, not a diagram: {}",
            t.trim_end()
        ));
    }
    Ok(line)
}

fn classify(line: &str, letters: Letters) -> Result<Line, String> {
    let t = line.trim();
    if t.is_empty() {
        return Ok(Line::Blank);
    }
    if t.starts_with('#') {
        return Ok(Line::Text(None));
    }
    // Column letters: a, b, c, ... in order, spaced or not.
    let compact: Vec<char> = t.chars().filter(|c| !c.is_whitespace()).collect();
    if compact
        .iter()
        .enumerate()
        .all(|(i, c)| i < 26 && c.to_ascii_lowercase() == (b'a' + i as u8) as char)
    {
        return Ok(Line::Header(compact.len()));
    }
    // Prose: a word of two or more letters that are not all stone letters.
    let is_stone = |c: char| letters.color(c).is_some();
    let prose = t
        .split(|c: char| !c.is_ascii_alphabetic())
        .any(|word| word.len() >= 2 && !word.chars().all(is_stone));
    if prose || !t.is_ascii() {
        // `Black to play.`, also `Black (you) to play.`
        let lower = t.to_ascii_lowercase();
        let says_to_play = lower.trim_end_matches('.').ends_with(" to play");
        let to_move = match lower.split(|c: char| !c.is_ascii_alphabetic()).next() {
            Some("black") if says_to_play => Some(Color::Black),
            Some("white") if says_to_play => Some(Color::White),
            _ => None,
        };
        return Ok(Line::Text(to_move));
    }
    parse_row(t, letters).map(Line::Row)
}

fn parse_row(t: &str, letters: Letters) -> Result<Row, String> {
    let digits = |s: &str| s.chars().take_while(char::is_ascii_digit).count();
    let lead = digits(t);
    let mut numbers = [None, None];
    let mut body = t;
    if lead > 0 {
        numbers[0] = Some(
            t[..lead]
                .parse()
                .map_err(|_| format!("bad row number {}", &t[..lead]))?,
        );
        body = &t[lead..];
    }
    let trail = body.chars().rev().take_while(char::is_ascii_digit).count();
    if trail > 0 {
        let at = body.len() - trail;
        numbers[1] = Some(
            body[at..]
                .parse()
                .map_err(|_| format!("bad row number {}", &body[at..]))?,
        );
        body = &body[..at];
    }
    let mut cells = Vec::new();
    let mut marked = None;
    let mut open = false;
    for ch in body.chars() {
        match ch {
            ' ' | '\t' => {}
            '(' => {
                if open || marked.is_some() {
                    return Err("a second '(' in one row".into());
                }
                open = true;
                marked = Some(cells.len());
            }
            ')' => {
                if !open || marked == Some(cells.len()) {
                    return Err("')' without a stone in '(' ')'".into());
                }
                open = false;
            }
            '.' | '-' | '_' => cells.push(None),
            c if letters.color(c).is_some() => cells.push(Some(c)),
            c => {
                return Err(format!(
                    "unexpected '{c}' in a board row (cells are '.', '-', '_', 'X', 'O', 'B', 'W')"
                ));
            }
        }
    }
    if open {
        return Err("'(' without its ')'".into());
    }
    if cells.is_empty() {
        return Err("a row number with no cells".into());
    }
    Ok(Row {
        cells,
        numbers,
        marked,
    })
}

fn cell_name(col: usize, row: usize) -> String {
    if col < 26 {
        format!("{}{}", (b'a' + col as u8) as char, row + 1)
    } else {
        format!("column {} row {}", col + 1, row + 1)
    }
}

/// The diagram as a game, for `ferrohex render` and a `loadboard`-style
/// command. Every stone is a set-up stone, except the one marked as the
/// last move, which is played as a move (so `showboard` marks it again and
/// `undo` takes it back) when that is legal. The player to move is the one
/// the diagram names (`Black to play.`), else the opponent of the last
/// move, else White when Black has more stones, else Black.
pub fn to_game(diagram: &Diagram) -> Result<Game, String> {
    let (w, h) = (diagram.width, diagram.height);
    if !(1..=MAX_SIZE).contains(&w) || !(1..=MAX_SIZE).contains(&h) {
        return Err(format!(
            "the diagram is {w}x{h}: boards must be 1 to {MAX_SIZE} on each side"
        ));
    }
    let mut game = Game::new(w, h)?;
    let g = game.position().shared_geometry().clone();
    let cell = |s: &Stone| g.cell_at(s.col, s.row).expect("stones are on the board");
    let last = diagram
        .last_move
        .and_then(|(c, r)| diagram.stone(c, r))
        .copied();
    for s in diagram.stones.iter().filter(|s| Some(**s) != last) {
        game.add_setup_stone(s.color, cell(s))?;
    }
    let blacks = diagram
        .stones
        .iter()
        .filter(|s| s.color == Color::Black)
        .count();
    let whites = diagram.stones.len() - blacks;
    let mut to_move = if blacks > whites {
        Color::White
    } else {
        Color::Black
    };
    if let Some(s) = last {
        if game.winner().is_none() {
            game.play(s.color, Move::Cell(cell(&s)))?;
        } else {
            game.add_setup_stone(s.color, cell(&s))?;
        }
        to_move = s.color.opponent();
    }
    game.set_to_move(diagram.to_move.unwrap_or(to_move));
    Ok(game)
}

/// Reads a diagram written on one line, its rows separated by `/`
/// (`.O./X../...`), as a protocol command can carry it.
pub fn parse_inline(text: &str, letters: Letters) -> Result<Diagram, String> {
    parse(&text.replace('/', "\n"), letters)
}

/// Reads a diagram straight into a game: [`parse`] then [`to_game`].
pub fn parse_game(text: &str, letters: Letters) -> Result<Game, String> {
    to_game(&parse(text, letters)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn winner(text: &str) -> Option<Color> {
        parse(text, Letters::Common).unwrap().winner()
    }

    #[test]
    fn letters_follow_the_convention() {
        let d = parse("X O\n B W", Letters::Common).unwrap();
        let colors: Vec<Color> = d.stones.iter().map(|s| s.color).collect();
        assert_eq!(
            colors,
            [Color::White, Color::Black, Color::Black, Color::White]
        );
        let d = parse("X O\n B W", Letters::Seed).unwrap();
        let colors: Vec<Color> = d.stones.iter().map(|s| s.color).collect();
        assert_eq!(
            colors,
            [Color::Black, Color::White, Color::Black, Color::White]
        );
    }

    #[test]
    fn small_winners() {
        assert_eq!(winner("X"), Some(Color::White));
        assert_eq!(winner("O"), Some(Color::Black));
        assert_eq!(winner("."), None);
        // O joins top and bottom through b1-a2 (a touching pair).
        assert_eq!(winner(". O\n O ."), Some(Color::Black));
        // a1-b2 do not touch: the other diagonal.
        assert_eq!(winner("O .\n . O"), None);
        assert_eq!(winner("X .\n . X"), None);
    }

    #[test]
    fn inline_rows_and_whose_turn() {
        let d = parse_inline(".O./X../...", Letters::Common).unwrap();
        assert_eq!((d.width, d.height, d.stones.len()), (3, 3, 2));
        let d = parse(". .\n . .\nWhite (you) to play.\n", Letters::Common).unwrap();
        assert_eq!(d.to_move, Some(Color::White));
        let d = parse(". .\n . .\nBlack played a1.\n", Letters::Common).unwrap();
        assert_eq!(d.to_move, None);
        let game = to_game(&parse("O .\n . .\n", Letters::Common).unwrap()).unwrap();
        assert_eq!(game.to_move(), Color::White);
        assert_eq!(game.num_moves(), 0);
    }

    #[test]
    fn rectangular_and_compact() {
        let d = parse(".OX\nXX.", Letters::Common).unwrap();
        assert_eq!((d.width, d.height), (3, 2));
        assert_eq!(d.winner(), Some(Color::White));
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse(". .\n . . .", Letters::Common).unwrap_err();
        assert!(e.contains("line 2") && e.contains("3 cells"), "{e}");
        let e = parse(". Y\n . .", Letters::Common).unwrap_err();
        assert!(e.contains("line 1") && e.contains("'Y'"), "{e}");
        assert!(parse("", Letters::Common).is_err());
        assert!(parse("  a b\n1 . . 1\n 3 . . 3\n", Letters::Common).is_err());
        assert!(parse("  a b c\n1 . . 1\n", Letters::Common).is_err());
        assert!(parse("1 .(.). 1", Letters::Common).is_err());
        assert!(parse("? cell f6 is occupied", Letters::Common).is_err());
        // Rows after prose that follows the board are refused.
        assert!(parse(". .\n. .\nBlack to play.\n. .", Letters::Common).is_err());
    }

    #[test]
    fn showboard_round_trip() {
        let mut game = Game::new(4, 3).unwrap();
        for (c, name) in [
            (Color::Black, "b2"),
            (Color::White, "c2"),
            (Color::Black, "b1"),
        ] {
            let cell = game.geometry().parse_cell(name).unwrap();
            game.play(c, Move::Cell(cell)).unwrap();
        }
        let picture = crate::present::diagram::showboard(&game);
        let answer = format!("={picture}\n");
        for text in [picture.as_str(), answer.as_str()] {
            let d = parse(text, Letters::Common).unwrap();
            assert_eq!((d.width, d.height), (4, 3));
            assert_eq!(d.last_move, Some((1, 0)));
            assert_eq!(d.to_move, Some(Color::White));
            let back = to_game(&d).unwrap();
            assert_eq!(back.position(), game.position());
            assert_eq!(crate::present::diagram::showboard(&back), picture);
        }
    }
}
