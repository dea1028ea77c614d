//! `ferrohex match` driving the real binary: ferrohex against itself on tiny
//! boards, shards merged with --summarize, and fake engines written in sh
//! that play illegal moves, answer garbage, crash or stall.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::binary;

/// ferrohex as an engine for a match: one thread, very short moves.
fn ferrohex() -> String {
    format!("{} --threads 1 --max-time 0.05", binary())
}

fn run_match(args: &[&str]) -> (String, Option<i32>) {
    let out = Command::new(binary())
        .arg("match")
        .args(args)
        .output()
        .expect("run ferrohex match");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 report");
    (format!("{stdout}{stderr}"), out.status.code())
}

fn temp_dir(name: &str) -> PathBuf {
    common::scratch_dir(&format!("match-{name}"))
}

/// Writes a fake engine script into `dir`; returns the command to run it.
fn fake(dir: &Path, name: &str, script: &str) -> String {
    let path = dir.join(format!("{name}.sh"));
    std::fs::write(&path, script).unwrap();
    format!("sh {}", path.display())
}

/// A deterministic engine: answers genmove with the first free cell of
/// `order` (the board is tracked from play and its own moves).
fn first_free(dir: &Path, name: &str, order: &str) -> String {
    fake(
        dir,
        name,
        &format!(
            r#"occ=" "
while read -r a b c; do
  case "$a" in
    name) printf '= {name}\n\n' ;;
    boardsize|clear_board) occ=" "; printf '=\n\n' ;;
    play) occ="$occ$c "; printf '=\n\n' ;;
    genmove)
      for m in {order}; do
        case "$occ" in *" $m "*) ;; *) break ;; esac
      done
      occ="$occ$m "; printf '= %s\n\n' "$m" ;;
    quit) printf '=\n\n'; exit 0 ;;
    *) printf '=\n\n' ;;
  esac
done
"#
        ),
    )
}

/// An engine that follows the protocol but answers genmove with `answer`
/// (or runs `action` instead).
fn broken(dir: &Path, name: &str, genmove: &str) -> String {
    fake(
        dir,
        name,
        &format!(
            r#"while read -r a b c; do
  case "$a" in
    name) printf '= {name}\n\n' ;;
    genmove) {genmove} ;;
    *) printf '=\n\n' ;;
  esac
done
"#
        ),
    )
}

fn lines_with<'a>(text: &'a str, what: &str) -> Vec<&'a str> {
    text.lines().filter(|l| l.contains(what)).collect()
}

/// The results file's lines.
fn records(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// The table without the timing columns and line, which differ from run
/// to run.
fn totals(report: &str) -> Vec<String> {
    let start = report.rfind(" games on ").expect("a table");
    let start = report[..start].rfind('\n').map_or(0, |i| i + 1);
    report[start..]
        .lines()
        .filter(|l| !l.starts_with("Played in") && !l.trim().is_empty())
        .map(|l| {
            if l.contains(" s  ") {
                // An engine row: name, wins, as black, as white, score.
                l.split_whitespace().take(7).collect::<Vec<_>>().join(" ")
            } else {
                l.to_string()
            }
        })
        .collect()
}

#[test]
fn ferrohex_against_itself_on_a_tiny_board() {
    let dir = temp_dir("self");
    let results = dir.join("r.jsonl");
    let sgf = dir.join("sgf");
    let (report, code) = run_match(&[
        &ferrohex(),
        &ferrohex(),
        "--size",
        "3",
        "--games",
        "2",
        "--time",
        "0.05",
        // Generous, so that a loaded test machine does not lose on time.
        "--timeout",
        "30",
        "--setup1",
        "param_ferrohex max_time 0.05; param_ferrohex level easy",
        "--sgf-dir",
        sgf.to_str().unwrap(),
        "--results",
        results.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{report}");
    assert!(
        report.starts_with("ferrohex#1 vs ferrohex#2: 2 games on 3x3"),
        "{report}"
    );
    assert_eq!(lines_with(&report, "] game ").len(), 2, "{report}");
    assert!(
        report.contains("[2/2] game 1: ferrohex#2 (B) vs ferrohex#1 (W)"),
        "{report}"
    );
    assert!(report.contains("\n2 games on 3x3\n"), "{report}");
    assert!(
        report.contains("Elo difference (ferrohex#1 - ferrohex#2): "),
        "{report}"
    );
    assert!(report.contains("Black won "), "{report}");
    assert!(report.contains("Game length: average "), "{report}");
    let rows: Vec<&str> = report
        .lines()
        .filter(|l| l.starts_with("ferrohex#") && l.ends_with(" s"))
        .collect();
    assert_eq!(rows.len(), 2, "{report}");
    let lines = records(&results);
    assert_eq!(lines.len(), 2);
    for (i, l) in lines.iter().enumerate() {
        assert!(l.starts_with('{') && l.ends_with('}'), "{l}");
        assert!(l.contains(&format!("\"game\":{i},")), "{l}");
        assert!(l.contains("\"engine1\":\"ferrohex#1\""), "{l}");
        assert!(l.contains("\"size\":\"3x3\""), "{l}");
        assert!(l.contains("\"reason\":\"connection\""), "{l}");
        let sgf = std::fs::read_to_string(sgf.join(format!("game-0000{i}.sgf"))).unwrap();
        assert!(
            sgf.starts_with("(;FF[4]GM[11]") && sgf.contains("SZ[3]"),
            "{sgf}"
        );
        let players = if i == 0 {
            "PB[ferrohex#1]PW[ferrohex#2]"
        } else {
            "PB[ferrohex#2]PW[ferrohex#1]"
        };
        assert!(sgf.contains(players), "{sgf}");
        assert!(sgf.contains("RE[B+]") || sgf.contains("RE[W+]"), "{sgf}");
    }
    // --summarize of the results prints the same totals.
    let (summary, code) = run_match(&["--summarize", results.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{summary}");
    assert_eq!(totals(&summary), totals(&report));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn shards_merge_to_the_totals_of_one_run() {
    let dir = temp_dir("shards");
    let a = first_free(
        &dir,
        "rows",
        "a1 b1 c1 d1 a2 b2 c2 d2 a3 b3 c3 d3 a4 b4 c4 d4",
    );
    let b = first_free(
        &dir,
        "diag",
        "b2 c3 a1 d4 b3 c2 a2 d3 b1 c4 a3 d1 b4 c1 a4 d2",
    );
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "# three openings\na1\nd4\n\nb2 c2\n").unwrap();
    let base = [
        "--size",
        "4",
        "--openings",
        openings.to_str().unwrap(),
        "--seed",
        "3",
    ];
    let whole = dir.join("whole.jsonl");
    let (one_run, code) = run_match(
        &[
            &[a.as_str(), b.as_str()],
            &base[..],
            &["--results", whole.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(code, Some(0), "{one_run}");
    assert!(
        one_run.contains("\n6 games on 4x4, 3 openings\n"),
        "{one_run}"
    );
    let mut shard_files = Vec::new();
    for k in 0..2 {
        let file = dir.join(format!("results-{k}.jsonl"));
        let shard = format!("{k}/2");
        let (out, code) = run_match(
            &[
                &[a.as_str(), b.as_str()],
                &base[..],
                &[
                    "--shard",
                    &shard,
                    "--results",
                    file.to_str().unwrap(),
                    "--jobs",
                    "2",
                ],
            ]
            .concat(),
        );
        assert_eq!(code, Some(0), "{out}");
        assert!(
            out.contains(&format!("3 games on 4x4 (shard {k}/2)")),
            "{out}"
        );
        assert_eq!(records(&file).len(), 3);
        shard_files.push(file.to_str().unwrap().to_string());
    }
    let mut args = vec!["--summarize"];
    args.extend(shard_files.iter().map(String::as_str));
    let (merged, code) = run_match(&args);
    assert_eq!(code, Some(0), "{merged}");
    assert_eq!(totals(&merged), totals(&one_run), "{merged}\n{one_run}");
    let (whole_summary, _) = run_match(&["--summarize", whole.to_str().unwrap()]);
    assert_eq!(totals(&whole_summary), totals(&one_run));
    // The same game has the same opening and colours in both runs.
    let mut from_shards: Vec<String> = shard_files
        .iter()
        .flat_map(|f| records(Path::new(f)))
        .collect();
    let mut from_one = records(&whole);
    let strip = |l: &String| l.split(",\"engine1_time\"").next().unwrap().to_string();
    from_shards.sort();
    from_one.sort();
    assert_eq!(
        from_shards.iter().map(strip).collect::<Vec<_>>(),
        from_one.iter().map(strip).collect::<Vec<_>>()
    );
    // A match with another seed holds other games: merged with the first,
    // all twelve count.
    let other = dir.join("other.jsonl");
    let (_, code) = run_match(
        &[
            &[a.as_str(), b.as_str()],
            &base[..4],
            &["--seed", "4", "--results", other.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(code, Some(0));
    let (both, _) = run_match(&[
        "--summarize",
        whole.to_str().unwrap(),
        other.to_str().unwrap(),
    ]);
    assert!(both.starts_with("12 games on 4x4,"), "{both}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_referee_catches_illegal_and_malformed_moves() {
    let dir = temp_dir("illegal");
    // Always a1: legal once at most, then an occupied cell.
    let stubborn = broken(&dir, "stubborn", r"printf '= a1\n\n'");
    let results = dir.join("r.jsonl");
    let (report, code) = run_match(&[
        &stubborn,
        &ferrohex(),
        "--size",
        "3",
        "--games",
        "2",
        "--results",
        results.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{report}");
    assert_eq!(
        lines_with(&report, "ferrohex wins as ").len(),
        2,
        "{report}"
    );
    assert!(report.contains("(illegal move)"), "{report}");
    assert!(report.contains("is occupied"), "{report}");
    assert!(
        report.contains("stubborn lost 2 by illegal move"),
        "{report}"
    );
    assert!(
        records(&results)
            .iter()
            .all(|l| l.contains("\"reason\":\"illegal move\"") && l.contains("\"winner\":2"))
    );

    let garbage = broken(&dir, "garbage", r"printf '= zz99\n\n'");
    let (report, code) = run_match(&[&ferrohex(), &garbage, "--size", "3", "--games", "2"]);
    assert_eq!(code, Some(0), "{report}");
    assert!(
        report.contains("garbage lost 2 by malformed answer"),
        "{report}"
    );
    assert!(
        report.contains("\\\"zz99\\\" is not a move") || report.contains("\"zz99\" is not a move"),
        "{report}"
    );

    let refusing = broken(&dir, "question", r"printf '? I cannot\n\n'");
    let (report, _) = run_match(&[&ferrohex(), &refusing, "--size", "3", "--games", "2"]);
    assert!(
        report.contains("question lost 2 by error answer"),
        "{report}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn crashes_and_timeouts_lose_and_the_engine_is_restarted() {
    let dir = temp_dir("crash");
    let crasher = broken(&dir, "crasher", "exit 3");
    let results = dir.join("r.jsonl");
    let (report, code) = run_match(&[
        &ferrohex(),
        &crasher,
        "--size",
        "3",
        "--games",
        "3",
        "--results",
        results.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{report}");
    // Every game is played: the crashed engine is started again each time.
    assert_eq!(lines_with(&report, "(crash)").len(), 3, "{report}");
    assert!(
        report.contains("the engine died (exit status: 3)"),
        "{report}"
    );
    assert!(report.contains("crasher lost 3 by crash"), "{report}");
    assert_eq!(records(&results).len(), 3);

    let sleeper = broken(&dir, "sleeper", r"sleep 30; printf '= a1\n\n'");
    let started = std::time::Instant::now();
    let (report, code) = run_match(&[
        &sleeper,
        &ferrohex(),
        "--size",
        "3",
        "--games",
        "2",
        "--time",
        "0.1",
    ]);
    assert_eq!(code, Some(0), "{report}");
    // The limit is 1.5 * 0.1 + 1 s per move.
    assert!(
        started.elapsed().as_secs() < 15,
        "took {:?}",
        started.elapsed()
    );
    assert!(report.contains("no answer within 1.150 s"), "{report}");
    assert!(report.contains("sleeper lost 2 by timeout"), "{report}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn sprt_stops_a_decided_match() {
    let dir = temp_dir("sprt");
    let crasher = broken(&dir, "crasher", "exit 1");
    let a = first_free(&dir, "rows", "a1 b1 c1 a2 b2 c2 a3 b3 c3");
    // Each win moves the LLR by ln(p(400)/0.5) = 0.598; five reach 2.944.
    let (report, code) = run_match(&[
        &a, &crasher, "--size", "3", "--games", "40", "--sprt", "0,400",
    ]);
    assert_eq!(code, Some(0), "{report}");
    assert!(report.contains("SPRT decided after 5 games"), "{report}");
    // Games already under way when the test decides are finished and
    // counted (with one job, at most one).
    assert!(
        report.contains("\n5 games on 3x3\n") || report.contains("\n6 games on 3x3\n"),
        "{report}"
    );
    assert!(
        report.contains("SPRT elo0=0 elo1=400 (alpha=beta=0.05): LLR "),
        "{report}"
    );
    assert!(
        report.contains("[-2.94, 2.94]: H1 accepted (Elo >= 400)"),
        "{report}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_arguments_are_refused() {
    let (report, code) = run_match(&["only-one"]);
    assert_eq!(code, Some(2), "{report}");
    assert!(report.contains("expected two engine commands"), "{report}");
    let dir = temp_dir("bad");
    let openings = dir.join("o.txt");
    std::fs::write(&openings, "a1 a1\n").unwrap();
    let (report, code) = run_match(&[
        "x",
        "y",
        "--size",
        "3",
        "--openings",
        openings.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2), "{report}");
    assert!(
        report.contains("o.txt:1: white a1: cell a1 is occupied"),
        "{report}"
    );
    let (report, code) = run_match(&["x", "y", "--shard", "2/2"]);
    assert_eq!(code, Some(2), "{report}");
    // An engine that is not there at all stops the match at once.
    let (report, code) = run_match(&["exit 0", &ferrohex(), "--size", "3"]);
    assert_eq!(code, Some(2), "{report}");
    assert!(
        report.contains("engine 1 (exit 0) does not answer name"),
        "{report}"
    );
    let _ = std::fs::remove_dir_all(dir);
}
