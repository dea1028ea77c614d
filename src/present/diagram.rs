//! Text pictures of a game, as `showboard` prints them.

use crate::board::Color;
use crate::game::{Game, Move};

/// The board as a rhombus: column letters above and below, row numbers on
/// both sides, each row shifted one more space right; `.` empty, `B`/`W`
/// stones, the last move in parentheses. Then whose turn it is, or the
/// winner. Starts with a newline so the diagram begins on its own line
/// after the `=`.
pub fn showboard(game: &Game) -> String {
    let pos = game.position();
    let g = game.geometry();
    let (w, h) = (g.width(), g.height());
    let label = h.to_string().len();
    let letters: Vec<String> = (0..w)
        .map(|c| ((b'a' + c as u8) as char).to_string())
        .collect();
    let letters = letters.join(" ");
    let last = game.last_move_cell();
    let mut out = String::from("\n");
    out.push_str(&format!("{}{}\n", " ".repeat(label + 1), letters));
    for row in 0..h {
        let mut line = format!("{}{:>label$}", " ".repeat(row), row + 1);
        for col in 0..w {
            let cell = g.cell_at(col, row).expect("in range");
            let before = if Some(cell) == last {
                '('
            } else if col > 0 && g.cell_at(col - 1, row) == last {
                ')'
            } else {
                ' '
            };
            line.push(before);
            line.push(pos.stone(cell).map_or('.', Color::letter));
        }
        line.push(if g.cell_at(w - 1, row) == last {
            ')'
        } else {
            ' '
        });
        line.push_str(&(row + 1).to_string());
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(&format!("{}{}\n", " ".repeat(h - 1 + label + 1), letters));
    out.push_str("Black (B) joins top and bottom, White (W) joins left and right.\n");
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

fn capitalised(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
