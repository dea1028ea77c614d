//! `ferrohex bench` runs the fixed benchmark and prints its figures.

#[test]
fn bench_prints_evaluation_speeds_search_lines_and_a_stable_signature() {
    let run = || {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ferrohex"))
            .args([
                "bench",
                "--depth",
                "2",
                "--eval-rounds",
                "5",
                "--threads",
                "2",
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let text = run();
    for kind in ["dist01", "twodist", "resistance"] {
        assert!(text.contains(&format!("  {kind} ")), "{text}");
    }
    for name in ["9x9-a", "11x11-b", "13x13-b"] {
        assert_eq!(text.matches(name).count(), 2, "one line per run: {text}");
    }
    let signature = |t: &str| {
        t.lines()
            .find_map(|l| l.strip_prefix("signature (1 thread): "))
            .map(str::to_string)
    };
    let first = signature(&text).expect("a signature line");
    assert!(first.parse::<u64>().unwrap() > 0);
    assert_eq!(
        signature(&run()),
        Some(first),
        "one thread and a depth limit are deterministic"
    );
}
