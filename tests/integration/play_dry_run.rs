//! `gridbot play flood --dry-run` reads and solves the board on the screen
//! and prints the clicks it would make, without touching the mouse.

use crate::play_util::{pointer, xdotool};
use crate::util::{assert_success, gridbot, parse_flood_id, run, stdout, FloodOnDisplay, FLOOD_ID};

#[test]
fn dry_run_prints_the_board_and_clicks_and_does_not_click() {
    let game = FloodOnDisplay::start(FLOOD_ID, false);
    xdotool(game.name(), &["mousemove", "--sync", "700", "550"]);
    let out = run(gridbot(Some(game.name())).args(["play", "flood", "--dry-run"]));
    assert_success(&out);
    let text = stdout(&out);

    let (w, _, cells) = parse_flood_id(FLOOD_ID);
    let expected: Vec<String> = cells
        .chunks(w)
        .map(|row| row.iter().map(|c| c.to_string()).collect())
        .collect();
    assert!(
        text.contains(&format!("board: {}", expected.join("/"))),
        "{text}"
    );
    let plan = text
        .lines()
        .find(|l| l.starts_with("plan: "))
        .expect("plan line");
    assert!(plan.contains("optimal_moves=proven"), "{plan}");
    let n: usize = plan["plan: ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let clicks: Vec<&str> = text.lines().filter(|l| l.contains(". click ")).collect();
    assert_eq!(clicks.len(), n, "{text}");
    // Every click is on the board inside the window.
    for line in clicks {
        let (x, y) = line
            .rsplit_once(" at (")
            .and_then(|(_, p)| p.trim_end_matches(')').split_once(", "))
            .map(|(x, y)| (x.parse::<i32>().unwrap(), y.parse::<i32>().unwrap()))
            .expect("a point");
        let (x0, y0) = game.cell_centre(0, 0);
        let (x1, y1) = game.cell_centre(11, 11);
        assert!(
            x >= x0 - 16 && x <= x1 + 16 && y >= y0 - 16 && y <= y1 + 16,
            "{line}"
        );
    }
    // The mouse was not touched.
    assert_eq!(pointer(game.name()), (700, 550));
}
