//! The subcommands of the `ferrohex` binary other than the HTP loop: tools
//! for people and scripts. Each module has clap `Args` and a `run`.

pub mod bench;
pub mod matches;
pub mod play;
pub mod regress;
pub mod render;
pub mod winner;
