//! `ferrohex regress` driving the real binary: its own engine on small
//! regression files, and a fake engine written in sh for timeouts.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_ferrohex")
}

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

fn regress(args: &[&str]) -> (String, Option<i32>) {
    let out: Output = Command::new(binary())
        .arg("regress")
        .args(args)
        .output()
        .expect("run ferrohex regress");
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 report");
    (stdout, out.status.code())
}

/// The report line of test `id` in `file`.
fn line_of<'a>(report: &'a str, file: &str, id: u32) -> &'a str {
    let prefix = format!("{file} {id:>5} ");
    report
        .lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no line for test {id} in {report}"))
}

/// A fresh folder for files a test writes.
fn temp_dir(name: &str) -> PathBuf {
    common::scratch_dir(&format!("regress-{name}"))
}

#[test]
fn each_kind_of_outcome_is_reported() {
    let file = data("regress_basic/basic.tst");
    let (report, code) = regress(&["--max-time", "0.1", file.to_str().unwrap()]);
    let f = "basic.tst";
    let expect = [
        (10, "passed ", "play b a1 => ="),
        (20, "FAILED ", "name => = ferrohex  expected [wolve]"),
        (
            30,
            "failed (expected) ",
            "final_score => ? the game is not over",
        ),
        (
            40,
            "unexpected pass ",
            "protocol_version => = 2  expected [2]*",
        ),
        // The relative sgf/ path was resolved against the file's folder.
        (50, "passed ", "final_score => = B+  expected [B\\+]"),
        (60, "FAILED ", "compute-inferior white => ? unknown command"),
        (70, "passed ", "all_legal_moves b => =  expected [!.*a1.*]"),
        (80, "passed ", "showboard => = a b c"),
    ];
    for (id, status, text) in expect {
        let line = line_of(&report, f, id);
        let rest = line[format!("{f} {id:>5} ").len()..].to_string();
        assert!(rest.starts_with(status), "test {id}: {line}");
        assert!(line.contains(text), "test {id}: {line}");
        assert!(line.ends_with(" s"), "test {id} has no time: {line}");
    }
    assert!(
        report
            .contains("basic.tst line 34: set-up command failed: frobnicate => ? unknown command"),
        "{report}"
    );
    let last = report.lines().last().unwrap();
    assert_eq!(
        last,
        "5 passed, 3 failed (1 unexpected pass, 1 expected failure), 1 set-up error"
    );
    // Tests 20 and 60 failed unexpectedly.
    assert_eq!(code, Some(1));
}

/// Whether ferrohex implements `command` (its answer to known_command).
fn known(command: &str) -> bool {
    use std::io::Write;
    let mut child = Command::new(binary())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    writeln!(child.stdin.take().unwrap(), "known_command {command}").unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).trim() == "= true"
}

#[test]
fn benzene_htp_file_runs_unmodified() {
    let file = data("htp.tst");
    let (report, code) = regress(&["--timeout", "60", file.to_str().unwrap()]);
    // Its last four tests use Benzene's analysis commands: they pass once
    // ferrohex has the command (any answer is accepted) and fail before.
    let analysis = [
        (110, "compute-inferior"),
        (120, "compute-inferior"),
        (130, "eval-resist"),
        (140, "eval-twod"),
    ];
    let mut passed = 10;
    for (id, command) in analysis {
        let want = if known(command) {
            passed += 1;
            "passed"
        } else {
            "FAILED"
        };
        let line = line_of(&report, "htp.tst", id);
        assert!(line.contains(want) && line.contains(command), "{line}");
    }
    for id in (10..=100).step_by(10) {
        assert!(
            line_of(&report, "htp.tst", id).contains(" passed "),
            "{report}"
        );
    }
    assert_eq!(
        report.lines().last().unwrap(),
        format!(
            "{passed} passed, {} failed (0 unexpected passes, 0 expected failures)",
            14 - passed
        ),
        "{report}"
    );
    assert_eq!(code, Some(if passed == 14 { 0 } else { 1 }));
}

#[test]
fn all_passing_exits_zero_and_missing_files_exit_two() {
    let dir = temp_dir("zero");
    let file = dir.join("ok.tst");
    std::fs::write(
        &file,
        "boardsize 2\n1 play b a1\n#? []\n2 play b a2\n3 final_score\n#? [B\\+]\n4 name\n#? [x]*\n",
    )
    .unwrap();
    let (report, code) = regress(&[file.to_str().unwrap()]);
    assert_eq!(
        report.lines().last().unwrap(),
        "3 passed, 1 failed (0 unexpected passes, 1 expected failure)",
        "{report}"
    );
    assert_eq!(code, Some(0));
    let missing = dir.join("missing.tst");
    let (report, code) = regress(&[missing.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{report}");
    assert!(report.contains("not run: cannot read"), "{report}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_silent_engine_times_out_is_restarted_and_gets_its_setup_again() {
    let dir = temp_dir("timeout");
    // A fake engine: `hang` never answers, `history` tells the commands it
    // has been given since it started.
    let engine = dir.join("fake.sh");
    std::fs::write(
        &engine,
        r#"h=""
while read -r line; do
  case "$line" in
    *hang*) sleep 30 ;;
    *history*) printf '= %s\n\n' "$h" ;;
    *) h="$h[$line]"; printf '=\n\n' ;;
  esac
done
"#,
    )
    .unwrap();
    let file = dir.join("t.tst");
    std::fs::write(
        &file,
        "boardsize 3\nplay b a1\n10 hang\n#? []\n20 history\n#? [\\[boardsize 3\\]\\[play b a1\\]]\n",
    )
    .unwrap();
    let started = std::time::Instant::now();
    let cmd = format!("sh {}", engine.display());
    let (report, code) = regress(&["--engine", &cmd, "--timeout", "0.3", file.to_str().unwrap()]);
    assert!(
        started.elapsed().as_secs() < 20,
        "the hanging engine was waited for"
    );
    let hang = line_of(&report, "t.tst", 10);
    assert!(
        hang.contains("FAILED") && hang.contains("no answer within 0.300 s"),
        "{report}"
    );
    assert!(
        hang.contains("engine restarted, 2 set-up commands replayed"),
        "{report}"
    );
    assert!(line_of(&report, "t.tst", 20).contains("passed"), "{report}");
    assert_eq!(
        report.lines().last().unwrap(),
        "1 passed, 1 failed (0 unexpected passes, 0 expected failures)"
    );
    assert_eq!(code, Some(1));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_engine_that_cannot_come_back_aborts_the_file() {
    let dir = temp_dir("abort");
    // Works once; started again, it ends at once.
    let marker = dir.join("started");
    let engine = dir.join("once.sh");
    std::fs::write(
        &engine,
        format!(
            r#"[ -e {m} ] && exit 0
touch {m}
while read -r line; do
  case "$line" in
    *hang*) sleep 30 ;;
    *) printf '=\n\n' ;;
  esac
done
"#,
            m = marker.display()
        ),
    )
    .unwrap();
    let file = dir.join("t.tst");
    std::fs::write(&file, "boardsize 3\n10 hang\n20 name\n").unwrap();
    let cmd = format!("sh {}", engine.display());
    let (report, code) = regress(&["--engine", &cmd, "--timeout", "0.3", file.to_str().unwrap()]);
    assert!(
        line_of(&report, "t.tst", 10).contains("the rest of the file is skipped"),
        "{report}"
    );
    assert!(
        report.contains("t.tst: aborted: the restarted engine fails too"),
        "{report}"
    );
    assert!(!report.contains("t.tst    20"), "{report}");
    assert_eq!(
        report.lines().last().unwrap(),
        "0 passed, 1 failed (0 unexpected passes, 0 expected failures), 1 file aborted"
    );
    assert_eq!(code, Some(2));
    let _ = std::fs::remove_dir_all(dir);
}
