//! HTP, the GTP dialect of the Benzene engines: commands, their grammar,
//! answer framing and the stdin/stdout driver.

pub mod answer;
pub mod command;
pub mod dispatch;
pub mod driver;
pub mod parse;
pub mod response;
