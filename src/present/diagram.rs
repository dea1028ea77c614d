//! Text pictures of a game, as `showboard` prints them.

use crate::board::Color;
use crate::game::{Game, Move};

/// How a picture marks its parts: plain text, or ANSI colours for a
/// terminal (Black's stones and edge letters red, White's stones and row
/// numbers blue, empty cells dim, the last move's brackets yellow).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Plain,
    Ansi,
}

/// What a piece of the picture is, for its colour.
#[derive(Clone, Copy)]
enum Part {
    Black,
    White,
    Empty,
    Last,
}

impl Style {
    fn paint(self, part: Part, text: &str) -> String {
        let code = match part {
            Part::Black => "1;31",
            Part::White => "1;34",
            Part::Empty => "2",
            Part::Last => "1;33",
        };
        match self {
            Style::Plain => text.to_string(),
            Style::Ansi => format!("\x1b[{code}m{text}\x1b[0m"),
        }
    }
}

/// The board as a rhombus: column letters above and below, row numbers on
/// both sides, each row shifted one more space right; `.` empty, `B`/`W`
/// stones, the last move in parentheses; then the line saying which side
/// joins which edges.
pub fn rhombus(game: &Game, style: Style) -> String {
    let pos = game.position();
    let g = game.geometry();
    let (w, h) = (g.width(), g.height());
    let label = h.to_string().len();
    let letters: Vec<String> = (0..w)
        .map(|c| ((b'a' + c as u8) as char).to_string())
        .collect();
    let letters = style.paint(Part::Black, &letters.join(" "));
    let last = game.last_move_cell();
    let mut out = format!("{}{letters}\n", " ".repeat(label + 1));
    for row in 0..h {
        let number = style.paint(Part::White, &(row + 1).to_string());
        let pad = label - (row + 1).to_string().len();
        let mut line = format!("{}{number}", " ".repeat(row + pad));
        for col in 0..w {
            let cell = g.cell_at(col, row).expect("in range");
            if Some(cell) == last {
                line.push_str(&style.paint(Part::Last, "("));
            } else if col > 0 && g.cell_at(col - 1, row) == last {
                line.push_str(&style.paint(Part::Last, ")"));
            } else {
                line.push(' ');
            }
            line.push_str(&match pos.stone(cell) {
                Some(Color::Black) => style.paint(Part::Black, "B"),
                Some(Color::White) => style.paint(Part::White, "W"),
                None => style.paint(Part::Empty, "."),
            });
        }
        if g.cell_at(w - 1, row) == last {
            line.push_str(&style.paint(Part::Last, ")"));
        } else {
            line.push(' ');
        }
        line.push_str(&number);
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(&format!("{}{letters}\n", " ".repeat(h - 1 + label + 1)));
    out.push_str(&format!(
        "{} (B) joins top and bottom, {} (W) joins left and right.\n",
        style.paint(Part::Black, "Black"),
        style.paint(Part::White, "White")
    ));
    out
}

/// `showboard`'s answer: the [`rhombus`], the last move, and whose turn it
/// is or the winner. Starts with a newline so the diagram begins on its
/// own line after the `=`.
pub fn showboard(game: &Game) -> String {
    let g = game.geometry();
    let mut out = format!("\n{}", rhombus(game, Style::Plain));
    if let Some((color, mv)) = game.moves().last() {
        let text = match mv {
            Move::Cell(c) => g.name(c),
            Move::Swap => "swap-pieces".into(),
        };
        out.push_str(&format!("Last move: {color} {text}\n"));
    }
    match game.winner() {
        Some(c) => out.push_str(&format!("Game over: {c} has won.\n")),
        None => out.push_str(&format!("{} to play.\n", capitalised(game.to_move()))),
    }
    out
}

/// "Black" or "White".
pub fn capitalised(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The coloured picture is the plain one with colour codes around
    /// its parts.
    #[test]
    fn coloured_picture_is_the_plain_one_painted() {
        let mut game = Game::new(4, 3).unwrap();
        let c2 = game.geometry().parse_cell("c2").unwrap();
        game.play(Color::Black, Move::Cell(c2)).unwrap();
        let coloured = rhombus(&game, Style::Ansi);
        assert!(coloured.contains("\x1b[1;33m(\x1b[0m\x1b[1;31mB\x1b[0m"));
        let mut stripped = String::new();
        let mut rest = coloured.as_str();
        while let Some(i) = rest.find('\x1b') {
            stripped.push_str(&rest[..i]);
            rest = &rest[i + rest[i..].find('m').unwrap() + 1..];
        }
        stripped.push_str(rest);
        assert_eq!(stripped, rhombus(&game, Style::Plain));
    }

    #[test]
    fn small_board_picture() {
        let mut game = Game::new(3, 3).unwrap();
        let b2 = game.geometry().parse_cell("b2").unwrap();
        let a1 = game.geometry().parse_cell("a1").unwrap();
        game.play(Color::Black, Move::Cell(a1)).unwrap();
        game.play(Color::White, Move::Cell(b2)).unwrap();
        let expected = "
  a b c
1 B . . 1
 2 .(W). 2
  3 . . . 3
    a b c
Black (B) joins top and bottom, White (W) joins left and right.
Last move: white b2
Black to play.
";
        assert_eq!(showboard(&game), expected);
    }
}
