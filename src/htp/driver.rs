//! The protocol loop: a reader thread owns stdin, so that an `# interrupt`
//! line reaches a running search; the main thread executes commands in
//! order and writes each answer.

use std::cell::RefCell;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use super::command::Command;
use super::dispatch::{Flow, Observers, execute};
use super::parse::{is_interrupt, parse_line};
use super::response;
use crate::engine::Engine;
use crate::present::gfx;
use crate::search::SearchReport;
use crate::solver::Progress;

/// Lines longer than this are answered with an error instead of being
/// buffered without bound.
pub const MAX_LINE_BYTES: usize = 4 << 20;

enum Input {
    /// A line (lossily decoded) and its number, counting from 1.
    Line(u64, String),
    TooLong(u64),
}

/// Decides which search an `# interrupt` stops. The reader thread records
/// how many lines it had passed on when the interrupt came; a genmove read
/// after that point must not be stopped by it.
struct Interrupts {
    flag: Arc<AtomicBool>,
    after_line: Mutex<u64>,
}

impl Interrupts {
    fn interrupt(&self, lines_sent: u64) {
        let mut after = self.after_line.lock().unwrap_or_else(|e| e.into_inner());
        *after = lines_sent;
        self.flag.store(true, Ordering::SeqCst);
    }

    /// Called before a search for the command on line `line`: clears a stale
    /// interrupt that arrived before that line was read.
    fn arm(&self, line: u64) {
        let after = self.after_line.lock().unwrap_or_else(|e| e.into_inner());
        if *after < line {
            self.flag.store(false, Ordering::SeqCst);
        }
    }
}

/// Reads one line of at most `MAX_LINE_BYTES`, without the newline.
/// `Ok(None)` at end of input; `Ok(Some(Err(())))` for an overlong line,
/// whose remainder is skipped.
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<Option<Result<(), ()>>> {
    buf.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(any.then_some(if too_long { Err(()) } else { Ok(()) }));
        }
        any = true;
        let (part, found) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        if !too_long && buf.len() + part.len() <= MAX_LINE_BYTES {
            buf.extend_from_slice(part);
        } else {
            too_long = true;
            buf.clear();
        }
        let used = found.unwrap_or(chunk.len());
        input.consume(used);
        if found.is_some() {
            return Ok(Some(if too_long { Err(()) } else { Ok(()) }));
        }
    }
}

fn write_answer<W: Write>(
    output: &RefCell<W>,
    id: Option<u64>,
    answer: &Result<String, String>,
) -> io::Result<()> {
    let mut out = output.borrow_mut();
    out.write_all(response::format(id, answer).as_bytes())?;
    out.flush()
}

/// Runs the HTP loop until `quit` or end of input.
pub fn run<R, W>(mut engine: Engine, input: R, output: W) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let interrupts = Arc::new(Interrupts {
        flag: engine.stop_flag(),
        after_line: Mutex::new(0),
    });
    let (tx, rx) = mpsc::channel::<Input>();
    let reader_interrupts = interrupts.clone();
    std::thread::Builder::new()
        .name("htp-reader".into())
        .spawn(move || {
            let mut input = input;
            let mut buf = Vec::new();
            let mut sent = 0u64;
            loop {
                let item = match read_line(&mut input, &mut buf) {
                    Ok(Some(Ok(()))) => {
                        let text = String::from_utf8_lossy(&buf).into_owned();
                        if is_interrupt(&text) {
                            log::info!("interrupt requested");
                            reader_interrupts.interrupt(sent);
                            continue;
                        }
                        Input::Line(sent + 1, text)
                    }
                    Ok(Some(Err(()))) => Input::TooLong(sent + 1),
                    Ok(None) => break,
                    Err(e) => {
                        log::error!("reading input: {e}");
                        break;
                    }
                };
                sent += 1;
                if tx.send(item).is_err() {
                    break;
                }
            }
        })?;

    // The search logs each depth itself; its reports become HexGui
    // live-graphics blocks on stdout when use_guifx is on. Both the reports and the
    // answers write to `output`, one at a time.
    let output = RefCell::new(output);
    let gfx_error: RefCell<Option<io::Error>> = RefCell::new(None);
    let send_gfx = |block: &str| {
        let mut out = output.borrow_mut();
        if let Err(e) = out.write_all(block.as_bytes()).and_then(|()| out.flush()) {
            gfx_error.borrow_mut().get_or_insert(e);
        }
    };
    for item in rx {
        let (line_no, text) = match item {
            Input::Line(n, t) => (n, t),
            Input::TooLong(n) => {
                log::warn!("line {n} is longer than {MAX_LINE_BYTES} bytes");
                let msg = format!("line too long (over {} MiB)", MAX_LINE_BYTES >> 20);
                write_answer(&output, None, &Err(msg))?;
                continue;
            }
        };
        let Some(parsed) = parse_line(&text) else {
            continue;
        };
        let (id, answer, flow) = match parsed {
            Err(f) => (f.id, Err(f.message), Flow::Continue),
            Ok(req) => {
                interrupts.arm(line_no);
                let geometry = engine.game().position().shared_geometry().clone();
                let search_gfx = match req.command {
                    Command::GenMove { color, .. } if engine.use_guifx() => Some(color),
                    _ => None,
                };
                let solver_gfx = engine.solver_guifx();
                let mut search = |r: &SearchReport| {
                    if let Some(color) = search_gfx {
                        send_gfx(&gfx::search_block(&geometry, color, r));
                    }
                };
                let mut solver = |p: &Progress| {
                    log::info!(
                        "solver: {} nodes, {:.1} s",
                        p.nodes,
                        p.elapsed.as_secs_f64()
                    );
                    if solver_gfx {
                        send_gfx(&gfx::solver_block(&geometry, p));
                    }
                };
                let mut observers = Observers {
                    search: &mut search,
                    solver: &mut solver,
                };
                let (answer, flow) = execute(&mut engine, &req.command, &mut observers);
                (req.id, answer, flow)
            }
        };
        if let Some(e) = gfx_error.borrow_mut().take() {
            return Err(e);
        }
        write_answer(&output, id, &answer)?;
        if flow == Flow::Quit {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn interrupts() -> Interrupts {
        Interrupts {
            flag: Arc::new(AtomicBool::new(false)),
            after_line: Mutex::new(0),
        }
    }

    #[test]
    fn an_interrupt_stops_only_searches_read_before_it() {
        let i = interrupts();
        // Interrupt after line 3 was read: a genmove on line 3 is stopped...
        i.interrupt(3);
        i.arm(3);
        assert!(i.flag.load(Ordering::SeqCst));
        // ...but a genmove on line 4 starts fresh.
        i.arm(4);
        assert!(!i.flag.load(Ordering::SeqCst));
    }

    #[test]
    fn overlong_lines_are_reported_and_skipped() {
        let big = vec![b'x'; MAX_LINE_BYTES + 10];
        let mut input = Vec::new();
        input.extend_from_slice(&big);
        input.extend_from_slice(b"\nname\n");
        let mut reader = io::Cursor::new(input);
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut reader, &mut buf).unwrap(), Some(Err(())));
        assert_eq!(read_line(&mut reader, &mut buf).unwrap(), Some(Ok(())));
        assert_eq!(buf, b"name");
        assert_eq!(read_line(&mut reader, &mut buf).unwrap(), None);
    }
}
