//! Transcript tests: the real binary over pipes, one command family each.

mod common;
use common::*;

/// The number of stones in a showboard answer for a board of `rows` rows.
fn stones(answer: &str, rows: usize) -> usize {
    answer
        .lines()
        .skip(2)
        .take(rows)
        .map(|l| l.chars().filter(|&c| c == 'B' || c == 'W').count())
        .sum()
}

fn board_of(answer: &str) -> String {
    assert!(answer.starts_with("= "), "{answer}");
    answer.to_string()
}

#[test]
fn answers_have_the_exact_bytes_hexgui_expects() {
    // HexGui takes an answer by its first two characters, "= " or "? ",
    // so even an empty answer carries the space.
    let out = run_raw(&[], b"play b a1\nplay b a1\n4 name\n");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "= \n\n? cell a1 is occupied\n\n=4 ferrohex\n\n"
    );
}

#[test]
fn identification_commands() {
    let a = session(
        "protocol_version\nname\nversion\nknown_command play\nknown_command frobnicate\nknown_command reg_genmove\n",
    );
    assert_eq!(a[0], "= 2");
    assert_eq!(a[1], "= ferrohex");
    assert_eq!(a[2], format!("= {}", env!("CARGO_PKG_VERSION")));
    assert_eq!(a[3], "= true");
    assert_eq!(a[4], "= false");
    assert_eq!(a[5], "= true");
}

#[test]
fn list_commands_names_every_command_once_and_each_is_known() {
    let a = session("list_commands\n");
    let names: Vec<&str> = a[0].trim_start_matches("= ").lines().collect();
    for must in [
        "protocol_version",
        "name",
        "version",
        "known_command",
        "list_commands",
        "quit",
        "boardsize",
        "clear_board",
        "play",
        "genmove",
        "reg_genmove",
        "undo",
        "showboard",
        "final_score",
        "all_legal_moves",
        "loadsgf",
        "printsgf",
        "time_left",
        "time_settings",
        "param_game",
        "param_ferrohex",
        "hexgui-analyze_commands",
        "gogui-interrupt",
    ] {
        assert!(names.contains(&must), "{must} missing from {names:?}");
    }
    let input: String = names
        .iter()
        .map(|n| format!("known_command {n}\n"))
        .collect();
    assert!(session(&input).iter().all(|a| a == "= true"));
}

#[test]
fn ids_are_echoed_on_success_and_failure() {
    let a = session("12 name\n7 frobnicate\n0 boardsize 99\n3 play b a1\n");
    assert_eq!(
        a,
        [
            "=12 ferrohex",
            "?7 unknown command: frobnicate",
            "?0 board size 99x99 is not supported: each side must be 1 to 26",
            "=3"
        ]
    );
}

#[test]
fn comments_blank_lines_tabs_and_control_characters() {
    let a = session(
        "# a comment\n\n   \nname # trailing comment\n\tplay\tb\ta1\nna\u{1}me\n\u{7f}version\n",
    );
    assert_eq!(a.len(), 4, "{a:?}");
    assert_eq!(a[0], "= ferrohex");
    assert_eq!(a[1], "=");
    assert_eq!(a[2], "= ferrohex");
    assert!(a[3].starts_with("= 0."), "{a:?}");
}

#[test]
fn crlf_and_cr_input() {
    let a = session("name\r\n5 version\r\nplay B A1\r\nshowboard\r\n");
    assert_eq!(a[0], "= ferrohex");
    assert!(a[1].starts_with("=5 "));
    assert_eq!(a[2], "=");
    assert!(a[3].contains("1(B)"), "{}", a[3]);
}

#[test]
fn eof_ends_cleanly_and_quit_stops_reading() {
    let out = run_raw(&[], b"name");
    assert!(out.status.success());
    assert_eq!(
        answers(&out.stdout),
        ["= ferrohex"],
        "a last line without newline still counts"
    );
    let out = run_raw(&[], b"");
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    let a = session("quit\nname\n");
    assert_eq!(a, ["="]);
}

#[test]
fn boardsize_square_rectangular_and_refused() {
    let a = session(
        "boardsize 4 5\nshowboard\nboardsize 0\nboardsize 27\nboardsize 5 0\nboardsize x\nboardsize -3\nboardsize 1 2 3\nshowboard\n",
    );
    assert_eq!(a[0], "=");
    let board = board_of(&a[1]);
    assert!(board.contains("  a b c d\n1 . . . . 1\n"), "{board}");
    assert!(board.contains("    5 . . . . 5\n"), "{board}");
    for e in &a[2..8] {
        assert!(e.starts_with("? "), "{e}");
    }
    assert!(a[3].contains("1 to 26"));
    assert!(a[5].contains("invalid board size"));
    assert!(a[7].contains("wrong number of arguments"));
    assert_eq!(a[1], a[8], "refused boardsize commands change nothing");
}

#[test]
fn rectangular_boards_have_their_own_edges() {
    // 4 columns, 5 rows: Black needs a chain down 5 rows.
    let a = session(
        "boardsize 4 5\nplay b a1\nplay b a2\nplay b a3\nplay b a4\nfinal_score\nplay b a5\nfinal_score\nplay w b1\n",
    );
    assert!(
        a[5].starts_with("? "),
        "4 stones do not reach row 5: {}",
        a[5]
    );
    assert_eq!(a[7], "= B+");
    assert!(a[8].contains("game is over"), "{}", a[8]);
    let a = session(
        "boardsize 4 5\nplay w a1\nplay w b1\nplay w c1\nplay w d1\nfinal_score\nplay w e1\n",
    );
    assert_eq!(a[5], "= W+");
    assert!(
        a[6].contains("off the 4x5 board") || a[6].contains("game is over"),
        "{}",
        a[6]
    );
    let a = session("boardsize 4 5\nplay w e1\nplay b a6\nplay b d5\n");
    assert!(a[1].contains("off the 4x5 board"), "{}", a[1]);
    assert!(a[2].contains("off the 4x5 board"), "{}", a[2]);
    assert_eq!(a[3], "=");
}

#[test]
fn play_refuses_occupied_off_board_and_after_a_win() {
    let a = session(
        "boardsize 3\nplay b b2\nshowboard\nplay w b2\nplay w d1\nplay w a4\nplay x a1\nplay b\nplay b pass\nshowboard\nplay b b1\nplay b b3\nplay w a1\nfinal_score\n",
    );
    assert_eq!(a[1], "=");
    assert!(a[3].contains("occupied"), "{}", a[3]);
    assert!(a[4].contains("off the 3x3 board"), "{}", a[4]);
    assert!(a[5].contains("off the 3x3 board"), "{}", a[5]);
    assert!(a[6].contains("invalid color"), "{}", a[6]);
    assert!(a[7].contains("wrong number of arguments"), "{}", a[7]);
    assert!(a[8].contains("invalid move"), "{}", a[8]);
    assert_eq!(a[2], a[9], "refused moves leave the board unchanged");
    assert_eq!(a[10], "=", "alternation is not enforced");
    assert_eq!(a[11], "=");
    assert!(a[12].contains("game is over"), "{}", a[12]);
    assert_eq!(a[13], "= B+");
}

#[test]
fn genmove_plays_and_reg_genmove_does_not() {
    let a =
        session("boardsize 5\nreg_genmove b\nshowboard\ngenmove b\nshowboard\nall_legal_moves w\n");
    let cell = a[1].trim_start_matches("= ").to_string();
    assert_eq!(stones(&a[2], 5), 0, "reg_genmove left the board empty");
    let played = a[3].trim_start_matches("= ").to_string();
    assert!(a[4].contains("(B)"), "{}", a[4]);
    assert_eq!(stones(&a[4], 5), 1);
    assert!(a[4].contains("White to play"));
    assert_eq!(a[5].trim_start_matches("= ").split(' ').count(), 24);
    assert!(!a[5].split(' ').any(|c| c == played));
    assert_eq!(cell.len(), 2, "a cell name: {cell}");
}

#[test]
fn genmove_takes_an_immediate_win_and_refuses_when_over() {
    // Black has a1-a2-a3 down a 4x4 board's first column but for a4.
    let a = session(
        "boardsize 4\nplay b a1\nplay b a2\nplay b a3\nplay w b3\ngenmove b\nfinal_score\ngenmove w\n",
    );
    assert_eq!(a[5], "= a4");
    assert_eq!(a[6], "= B+");
    assert!(a[7].starts_with("? ") && a[7].contains("over"), "{}", a[7]);
}

#[test]
fn genmove_blocks_the_only_winning_reply() {
    // White's a1-b1-c1 reaches the right edge only through d1.
    let a = session("boardsize 4\nplay w a1\nplay w b1\nplay w c1\nplay b a2\ngenmove b\n");
    assert_eq!(a[5], "= d1");
}

#[test]
fn undo_takes_back_moves_and_refuses_on_an_empty_game() {
    let a = session(
        "boardsize 5\nundo\nshowboard\nplay b c3\nplay w b2\nundo\nshowboard\nundo\nundo\nshowboard\n",
    );
    assert!(a[1].contains("no move to undo"), "{}", a[1]);
    assert_eq!(a[5], "=");
    assert!(a[6].contains("Last move: black c3"), "{}", a[6]);
    assert_eq!(stones(&a[6], 5), 1);
    assert!(a[6].contains("White to play"), "{}", a[6]);
    assert_eq!(a[7], "=");
    assert!(a[8].starts_with("? "));
    assert_eq!(a[2], a[9]);
    assert!(a[9].contains("Black to play"));
}

#[test]
fn showboard_draws_a_rhombus_with_labels_turn_and_winner() {
    let a =
        session("boardsize 3\nplay b a1\nplay w b2\nshowboard\nplay b a2\nplay b a3\nshowboard\n");
    let expected = "= \n  a b c\n1 B . . 1\n 2 .(W). 2\n  3 . . . 3\n    a b c\nBlack (B) joins top and bottom, White (W) joins left and right.\nLast move: white b2\nBlack to play.";
    assert_eq!(a[3], expected);
    assert!(a[6].contains("Game over: black has won."), "{}", a[6]);
    // Two-digit rows line up: row 10 of an 11x11 board.
    let a = session("boardsize 11\nshowboard\n");
    assert!(
        a[1].contains("\n         10 . . . . . . . . . . . 10\n"),
        "{}",
        a[1]
    );
    assert!(
        a[1].contains("\n          11 . . . . . . . . . . . 11\n"),
        "{}",
        a[1]
    );
    assert!(a[1].contains("\n 1 . . . . . . . . . . . 1\n"), "{}", a[1]);
}

#[test]
fn final_score_needs_a_winner() {
    let a = session("boardsize 2\nfinal_score\nplay w a1\nplay w b1\nfinal_score\n");
    assert!(
        a[1].starts_with("? ") && a[1].contains("not over"),
        "{}",
        a[1]
    );
    assert_eq!(a[4], "= W+");
}

#[test]
fn all_legal_moves_lists_empty_cells() {
    let a = session(
        "boardsize 3\nall_legal_moves b\nplay b b2\nall_legal_moves white\nplay b b1\nplay b b3\nall_legal_moves b\nall_legal_moves q\n",
    );
    assert_eq!(a[1], "= a1 b1 c1 a2 b2 c2 a3 b3 c3");
    assert_eq!(a[3], "= a1 b1 c1 a2 c2 a3 b3 c3");
    assert_eq!(a[6], "=", "no legal moves once the game is won");
    assert!(a[7].contains("invalid color"));
}

#[test]
fn one_by_one_and_twenty_six_boards() {
    let a = session("boardsize 1\ngenmove w\nfinal_score\nboardsize 1 1\nplay b a1\nfinal_score\n");
    assert_eq!(a[1], "= a1");
    assert_eq!(a[2], "= W+");
    assert_eq!(a[5], "= B+");
    let a = session("boardsize 26\nplay b z26\nplay w a1\ngenmove b\nshowboard\n");
    assert_eq!(a[1], "=");
    assert!(a[3].starts_with("= ") && a[3].len() <= 5, "{}", a[3]);
    assert!(a[4].contains(" z\n"), "column z is labelled");
    assert!(a[4].contains("26 . "), "row 26 is drawn");
}

#[test]
fn time_commands() {
    let a = session(
        "time_settings 300 30 5\ntime_left b 120 0\ntime_left white 12.5 3\ntime_left w 10\ntime_left b -1\ntime_left b\ntime_settings 1 2\ntime_left x 1\n",
    );
    assert_eq!(&a[..4], ["=", "=", "=", "="]);
    for e in &a[4..] {
        assert!(e.starts_with("? "), "{e}");
    }
}

#[test]
fn genmove_respects_a_short_clock() {
    // One second left: the move must come well within it.
    let (a, took) = timed(|| {
        session_with(
            &["--max-time", "30"],
            "boardsize 11\ntime_left b 1 0\ngenmove b\n",
        )
    });
    assert!(a[2].starts_with("= "), "{a:?}");
    assert!(took.as_secs_f64() < 20.0, "took {took:?}");
}

#[test]
fn param_game_lists_and_sets_allow_swap() {
    let a = session(
        "param_game\nparam_game allow_swap 1\nparam_game\nparam_game allow_swap 2\nparam_game colour blue\nparam_game allow_swap\n",
    );
    assert_eq!(a[0], "= [bool] allow_swap 0\n[bool] safe 0");
    assert_eq!(a[1], "=");
    assert_eq!(a[2], "= [bool] allow_swap 1\n[bool] safe 0");
    assert!(a[3].contains("invalid value"));
    assert!(a[4].contains("unknown parameter"));
    assert!(a[5].contains("wrong number of arguments"));
}

#[test]
fn param_ferrohex_lists_and_sets_in_hexgui_form() {
    let a = session(
        "param_ferrohex\nparam_ferrohex max_time 2.5\nparam_ferrohex level easy\nparam_ferrohex max_depth 3\nparam_ferrohex\nparam_ferrohex level godlike\nparam_ferrohex max_time 0\nparam_ferrohex threads many\nparam_ferrohex nothing 1\nparam_ferrohex resign 1\n",
    );
    for line in a[0].trim_start_matches("= ").lines() {
        let (kind, rest) = line.split_once(' ').unwrap();
        assert!(kind.starts_with('[') && kind.ends_with(']'), "{line}");
        assert_eq!(rest.split(' ').count(), 2, "{line}");
    }
    assert_eq!(&a[1..4], ["=", "=", "="]);
    assert!(a[4].contains("[string] max_time 2.5"), "{}", a[4]);
    assert!(a[4].contains("level easy"), "{}", a[4]);
    assert!(a[4].contains("[string] max_depth 3"), "{}", a[4]);
    for e in &a[5..9] {
        assert!(e.starts_with("? "), "{e}");
    }
    assert_eq!(a[9], "=");
}

#[test]
fn analyze_commands_are_in_gogui_form_and_each_runs() {
    let a = session("hexgui-analyze_commands\n");
    let lines: Vec<&str> = a[0].trim_start_matches("= ").lines().collect();
    assert!(lines.len() >= 5);
    let mut input = String::new();
    for l in &lines {
        let parts: Vec<&str> = l.split('/').collect();
        assert!(parts.len() >= 3, "{l}");
        assert!(
            [
                "param", "string", "plist", "pspairs", "inferior", "vc", "gfx", "sboard", "dboard",
                "none", "var", "cboard", "move", "hstring"
            ]
            .contains(&parts[0]),
            "{l}"
        );
        input.push_str(
            &parts[2]
                .replace("%c", "black")
                .replacen("%p", "a1", 1)
                .replacen("%p", "c3", 1),
        );
        input.push('\n');
    }
    let names: Vec<&str> = lines
        .iter()
        .map(|l| l.split('/').nth(2).unwrap().split(' ').next().unwrap())
        .collect();
    for n in [
        "param_game",
        "param_ferrohex",
        "showboard",
        "final_score",
        "all_legal_moves",
    ] {
        assert!(names.contains(&n), "{n}");
    }
    // Each runs; final_score fails while nobody has won, with its reason.
    let answers = session(&format!(
        "boardsize 3\nplay b a1\nplay w b2\ngenmove b\n{input}"
    ));
    for (cmd, a) in lines.iter().zip(&answers[4..]) {
        let ok = a.starts_with('=') || (cmd.contains("final_score") && a.contains("not over"));
        assert!(ok, "{cmd}: {a}");
    }
}

#[test]
fn swap_pieces_mirrors_and_undoes() {
    let a = session(
        "boardsize 5\nparam_game allow_swap 1\nplay b c2\nshowboard\nplay w swap-pieces\nshowboard\nundo\nshowboard\nplay w swap\nplay b swap\n",
    );
    assert_eq!(a[4], "=");
    assert!(a[5].contains("Last move: white swap-pieces"), "{}", a[5]);
    assert!(a[5].contains("Black to play"));
    assert!(
        a[5].contains("\n  3 .(W). . . 3\n") || a[5].contains("\n  3  . W"),
        "{}",
        a[5]
    );
    assert!(
        a[5].contains("\n 2 . . . . . 2\n"),
        "c2 is empty after the swap: {}",
        a[5]
    );
    assert_eq!(a[3], a[7], "undo restores the position before the swap");
    assert_eq!(a[8], "=");
    assert!(a[9].starts_with("? "), "{}", a[9]);
}

#[test]
fn swap_is_refused_unless_allowed_and_second() {
    let a = session(
        "boardsize 5\nplay b c2\nplay w swap-pieces\nparam_game allow_swap 1\nplay w a1\nplay w swap-pieces\nundo\nundo\nplay w swap-pieces\nboardsize 4 5\nplay b a5\nplay w swap\n",
    );
    assert!(a[2].contains("not allowed"), "{}", a[2]);
    assert!(a[5].contains("second move"), "{}", a[5]);
    assert!(a[8].contains("second move"), "{}", a[8]);
    assert!(a[11].contains("square"), "{}", a[11]);
}

#[test]
fn hexgui_session_runs_clean() {
    let a = session_with(
        &["--max-time", "1"],
        "name\nversion\nhexgui-analyze_commands\nboardsize 11 11\nclear_board\nplay black f6\ngenmove white\nundo\nshowboard\nquit\n",
    );
    assert_eq!(a.len(), 10, "{a:?}");
    assert!(a.iter().all(|x| x.starts_with('=')), "{a:?}");
    assert_eq!(
        stones(&a[8], 11),
        1,
        "genmove's stone was taken back: {}",
        a[8]
    );
    assert!(a[8].contains("White to play"), "{}", a[8]);
    assert!(a[8].contains("Last move: black f6"), "{}", a[8]);
}

#[test]
fn logging_goes_to_stderr_only() {
    let out = run_raw(
        &["--log", "trace"],
        b"boardsize 5\ngenmove b\nplay w zz\nshowboard\n",
    );
    let a = answers(&out.stdout);
    assert_eq!(a.len(), 4);
    assert!(out.status.success());
}

#[test]
fn flags_version_help_and_bad_values() {
    let out = std::process::Command::new(binary())
        .arg("--version")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains(env!("CARGO_PKG_VERSION")));
    let out = std::process::Command::new(binary())
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout).to_string();
    for flag in ["--threads", "--max-time", "--tt-mb", "--log", "--level"] {
        assert!(help.contains(flag), "{flag} in help");
    }
    let out = std::process::Command::new(binary())
        .args(["--max-time", "-1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn eval_commands_give_a_value_for_every_empty_cell() {
    for cmd in ["eval", "eval-dist", "eval-twod", "eval-resist-cells"] {
        let a = session(&format!(
            "boardsize 4\nplay b b2\nplay w c3\n{cmd} b\n{cmd} white\n"
        ));
        for ans in &a[3..5] {
            let parts: Vec<&str> = ans.trim_start_matches("= ").split(' ').collect();
            assert_eq!(parts.len(), 2 * 14, "{cmd}: {ans}");
            for pair in parts.chunks(2) {
                assert!(
                    pair[0] != "b2" && pair[0] != "c3",
                    "{cmd}: occupied cell listed"
                );
                assert!(pair[1].parse::<i32>().is_ok(), "{cmd}: {ans}");
            }
        }
    }
    let a = session(
        "boardsize 3\neval-summary b\neval-resist w\nplay b a1\nplay b a2\nplay b a3\neval b\n",
    );
    assert!(
        a[1].contains("dist01") && a[1].contains("twodist") && a[1].contains("resistance"),
        "{}",
        a[1]
    );
    assert!(
        a[1].contains("stones needed: black 3.000 white 3.000"),
        "{}",
        a[1]
    );
    assert!(a[2].starts_with("= resistance: score"), "{}", a[2]);
    assert!(a[6].starts_with("? ") && a[6].contains("over"), "{}", a[6]);
}

#[test]
fn live_graphics_come_before_the_answer_when_enabled() {
    // The solvers stay out of genmove here: a proof would replace the
    // searched line that these blocks show.
    let out = run_raw(&["--max-time", "0.5"], b"boardsize 5\nplay b c3\nparam_dfpn genmove_empty 0\nparam_dfpn verify_empty 0\nparam_ferrohex use_guifx 1\nparam_ferrohex max_depth 3\ngenmove w\nferrohex-pv\nparam_ferrohex use_guifx 0\ngenmove b\n");
    let text = String::from_utf8(out.stdout).unwrap();
    let blocks: Vec<&str> = text.split_terminator("\n\n").collect();
    let gfx: Vec<&&str> = blocks
        .iter()
        .filter(|b| b.starts_with("gogui-gfx:\nab\nVAR W "))
        .collect();
    assert_eq!(gfx.len(), 3, "one block per finished depth: {text}");
    assert!(gfx.iter().all(|b| b.contains("\nTEXT depth ")), "{text}");
    let answers: Vec<&&str> = blocks
        .iter()
        .filter(|b| !b.starts_with("gogui-gfx:"))
        .collect();
    assert_eq!(answers.len(), 10, "{text}");
    let moved = answers[6].trim_start_matches("= ");
    assert!(
        answers[7].starts_with(&format!("= w {moved} b ")),
        "the PV starts with the move: {text}"
    );
    // The last depth's block is the one whose variation was played.
    assert!(gfx[2].contains(&format!("VAR W {moved} ")), "{text}");
    assert!(
        answers[8].starts_with("= "),
        "no blocks once use_guifx is off: {text}"
    );
}

#[test]
fn loadboard_sets_a_position_from_a_diagram() {
    let spiral = data("diagrams/connect-x-spiral.txt");
    let rect = data("diagrams/rect-5x3-o.txt");
    let a = session(&format!(
        "loadboard {0}\nfinal_score\nloadboard {0} seed\nfinal_score\nloadboard {1}\nshowboard\nloadboard /no/such.txt\nloadboard {0} upside-down\nshowboard\n",
        spiral.display(),
        rect.display()
    ));
    assert_eq!(a[0], "=");
    assert_eq!(
        a[1], "= W+",
        "X joins left and right in the common convention"
    );
    assert_eq!(a[3], "= B+", "the seed's letters swap the colours");
    assert_eq!(a[4], "=");
    assert!(a[5].contains("  a b c d e\n"), "5 columns: {}", a[5]);
    assert!(a[5].contains("Game over: black has won."), "{}", a[5]);
    assert!(a[6].starts_with("? cannot read"), "{}", a[6]);
    assert!(a[7].starts_with("? unknown letters"), "{}", a[7]);
    assert_eq!(a[5], a[8], "refused loads change nothing");
    // showboard's own picture reads back to the same position.
    let dir = common::tmp_root().join(format!("ferrohex-loadboard-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let first = session("boardsize 6\nplay b c3\nplay w d2\nplay b b5\nshowboard\n");
    let picture = dir.join("picture.txt");
    std::fs::write(&picture, first[4].as_bytes()).unwrap();
    let again = session(&format!("loadboard {}\nshowboard\n", picture.display()));
    assert_eq!(again[1], first[4]);
}

#[test]
fn showboard_svg_answers_or_writes_a_picture() {
    let dir = common::tmp_root().join(format!("ferrohex-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("board.svg");
    let a = session(&format!(
        "boardsize 4 3\nplay b b2\nshowboard-svg\nshowboard-svg {}\nshowboard-svg /no/such/dir/x.svg\n",
        file.display()
    ));
    let svg = a[2].trim_start_matches("= ");
    assert!(
        svg.starts_with("<?xml") && svg.trim_end().ends_with("</svg>"),
        "{svg}"
    );
    assert_eq!(a[3], "=");
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(written.trim_end(), svg.trim_end());
    assert!(a[4].starts_with("? cannot write"));
}

/// An 11x11 middle game (Black to move) from a game against MoHex.
const MIDDLE_GAME: &str = "k5 f6 e6 e7 j4 j3 d7 d8 i4 i3 h4 h3 f5 e4 c4 c3 b4 b3 f4 g2";

#[test]
fn the_resistance_commands_show_the_connection_search_circuit() {
    let mut input = String::from("boardsize 11\n");
    input += &alternate(MIDDLE_GAME);
    input += "eval-resist b\neval-resist w\neval-resist-cells b\n";
    let a = session(&input);
    let n = a.len();
    // Benzene's Wolve, after `vc-build b`, answers `eval-resist b` with
    // ln(R_white / R_black) = -0.852 here (-256 on this scale; its answer
    // is the same with its fill-in turned off: the command evaluates the
    // board without it). ferrohex evaluates the board its search sees,
    // with the fill-in Wolve's `vc-build b` lists (the corners, and White's
    // g2-h3 bridge carrier, which a decomposition captures), and scores
    // -209: Black is behind by less once White's stones there count as
    // joined. The adjacency circuit scores it -195.
    let score = |ans: &str| -> i32 {
        ans.split("score ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no score in {ans}"))
    };
    let b = score(&a[n - 3]);
    assert!((b + 209).abs() <= 10, "{}", a[n - 3]);
    assert_eq!(score(&a[n - 2]), -b, "{}", a[n - 2]);
    // Cells the fill-in takes (a1, in the corner behind White's b3 and
    // c3) carry no current; the cells of the fight carry the most.
    let cells: Vec<(String, i32)> = a[n - 1]
        .trim_start_matches("= ")
        .split(' ')
        .collect::<Vec<_>>()
        .chunks(2)
        .map(|p| (p[0].to_string(), p[1].parse().unwrap()))
        .collect();
    assert_eq!(cells.len(), 121 - 20, "{}", a[n - 1]);
    let value = |name: &str| cells.iter().find(|(c, _)| c == name).unwrap().1;
    // Wolve's fill-in here, every cell of it without current.
    for c in [
        "a1", "b1", "c1", "h1", "i1", "j1", "k1", "a2", "b2", "c2", "h2", "i2", "j2", "k2", "a3",
        "g3", "k3", "a4",
    ] {
        assert_eq!(value(c), 0, "{c}: {}", a[n - 1]);
    }
    let top = cells.iter().max_by_key(|(_, v)| *v).unwrap();
    assert_eq!(top.0, "e3", "{}", a[n - 1]);
}
