//! protocol.md documents every parameter the engine lists, and only those.

use std::collections::BTreeSet;
use std::time::Duration;

use ferrohex::engine::{Engine, ParamGroup};
use ferrohex::search::SearchParams;

/// The text of protocol.md's section `### heading`, to the next heading.
fn section(doc: &str, heading: &str) -> String {
    let start = doc
        .find(&format!("### {heading}"))
        .unwrap_or_else(|| panic!("protocol.md has no section {heading}"));
    let rest = &doc[start + 4..];
    let end = rest.find("\n### ").unwrap_or(rest.len());
    rest[..end].to_string()
}

/// The names in the first column of a section's table.
fn table_names(section: &str) -> BTreeSet<String> {
    section
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect()
}

fn listed(group: ParamGroup) -> BTreeSet<String> {
    let params = SearchParams {
        threads: 1,
        tt_mb: 1,
        ..SearchParams::default()
    };
    let engine = Engine::new(params, Duration::from_secs(1));
    engine
        .params(group)
        .iter()
        .map(|s| s.name.to_string())
        .collect()
}

#[test]
fn every_parameter_is_documented() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md")).unwrap();
    for (group, heading) in [
        (ParamGroup::Engine, "param_ferrohex"),
        (ParamGroup::Solver, "param_dfpn"),
    ] {
        assert_eq!(
            table_names(&section(&doc, heading)),
            listed(group),
            "the table of {heading} in protocol.md"
        );
    }
    let game = section(&doc, "param_game");
    for name in listed(ParamGroup::Game) {
        assert!(game.contains(&format!("`{name}`")), "param_game's {name}");
    }
}
