//! protocol.md's example sessions answer as written: each fenced block of
//! `> COMMAND` lines is fed to a fresh `ferrohex` (default settings, one
//! search thread) and every answer it shows is compared with the real one.
//! A command shown without an answer is set-up: it must succeed. In an
//! answer, `...` stands for any text (a machine's memory, a long list).

mod common;

/// One command of an example and the answer the document shows (`None`
/// when it shows none).
struct Step {
    command: String,
    answer: Option<String>,
}

/// The example sessions of `doc`, with the line each starts on.
fn examples(doc: &str) -> Vec<(usize, Vec<Step>)> {
    let mut out = Vec::new();
    let mut block: Option<(usize, Vec<String>)> = None;
    for (i, line) in doc.lines().enumerate() {
        if line.starts_with("```") {
            match block.take() {
                None => block = Some((i + 1, Vec::new())),
                Some((start, lines)) => {
                    if lines.first().is_some_and(|l| l.starts_with("> ")) {
                        out.push((start, steps(&lines)));
                    }
                }
            }
        } else if let Some((_, lines)) = block.as_mut() {
            lines.push(line.to_string());
        }
    }
    out
}

fn steps(lines: &[String]) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    for line in lines {
        if let Some(cmd) = line.strip_prefix("> ") {
            steps.push(Step {
                command: cmd.to_string(),
                answer: None,
            });
        } else if let Some(step) = steps.last_mut() {
            match step.answer.as_mut() {
                Some(a) => {
                    a.push('\n');
                    a.push_str(line);
                }
                None if line.is_empty() => {}
                None => step.answer = Some(line.to_string()),
            }
        }
    }
    for s in &mut steps {
        if let Some(a) = s.answer.as_mut() {
            *a = a.trim_end().to_string();
        }
    }
    steps
}

/// Whether `text` matches `pattern`, where `...` matches any text.
fn matches(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split("...").collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || !text[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(i) => rest = &rest[i + part.len()..],
            None => return false,
        }
    }
    true
}

/// Each line without its trailing spaces, the whole without its trailing
/// blank lines.
fn tidy(text: &str) -> String {
    text.lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
        .trim_end()
        .to_string()
}

/// The answers of a fresh engine (default settings, one search thread) to
/// `commands`, in order.
fn run(commands: &[&str]) -> Vec<String> {
    let mut input = commands.join("\n");
    input.push('\n');
    let out = common::run_with(&["--threads", "1"], input.as_bytes());
    common::answers(&out.stdout)
        .iter()
        .map(|a| tidy(a))
        .collect()
}

#[test]
fn the_examples_answer_as_written() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md")).unwrap();
    let examples = examples(&doc);
    assert!(examples.len() >= 20, "found {} examples", examples.len());
    let mut wrong = Vec::new();
    for (line, steps) in &examples {
        let commands: Vec<&str> = steps.iter().map(|s| s.command.as_str()).collect();
        let answers = run(&commands);
        if answers.len() != steps.len() {
            wrong.push(format!(
                "line {line}: {} answers to {commands:?}",
                answers.len()
            ));
            continue;
        }
        for (step, got) in steps.iter().zip(&answers) {
            let ok = match &step.answer {
                Some(want) => matches(&tidy(want), got),
                None => got.starts_with('='),
            };
            if !ok {
                wrong.push(format!(
                    "line {line}: > {}\n  documented: {}\n  answered:   {got}",
                    step.command,
                    step.answer.as_deref().unwrap_or("(success)")
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn wildcards_match_any_text() {
    assert!(matches("= a1 ...", "= a1 b2 c3"));
    assert!(matches("? x: ... MiB at most", "? x: 20594 MiB at most"));
    assert!(!matches("? x: ... MiB at most", "? y: 20594 MiB at most"));
    assert!(!matches("= a1", "= a1 b2"));
}
