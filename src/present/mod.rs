//! Presentation: the pictures and listings a person or a GUI reads, and the
//! reader of the text pictures people write. The protocol layer (`htp/`)
//! and the command-line tools call these; the engine, search, solver and
//! knowledge hand over typed values and never format them.
//!
//! - [`diagram`]: `showboard`'s text picture of a game;
//! - [`textboard`]: reading text diagrams (puzzles, issues, `showboard`);
//! - [`svg`]: the board as an SVG picture;
//! - [`gfx`]: HexGui's live `gogui-gfx:` blocks while a command runs;
//! - [`overlay`]: HexGui's analysis answers (`vc-build`'s inferior-cell
//!   codes, connection lists, the mustplay).

pub mod diagram;
pub mod gfx;
pub mod overlay;
pub mod svg;
pub mod textboard;
