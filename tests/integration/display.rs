//! Integration tests on a real virtual display: Xvfb + sgt-flood, captured
//! through gridbot's capture layer and clicked through its actuator (the
//! real binary, run as a subprocess with `DISPLAY` set).

use crate::util::*;
use gridbot::actuator::Mouse;
use gridbot::display::VirtualDisplay;

/// Colour index of every cell as seen in a window capture, or the first
/// cell whose colour is not in the palette.
fn read_cells(image: &image::RgbaImage, w: usize, h: usize) -> Result<Vec<u8>, String> {
    let mut cells = Vec::with_capacity(w * h);
    for r in 0..h {
        for c in 0..w {
            let (x, y) = flood_cell_centre_in_window(r as u32, c as u32);
            let px = *image.get_pixel(x, y);
            match FLOOD_PALETTE.iter().position(|p| close(px, *p, 8)) {
                Some(i) => cells.push(i as u8),
                None => {
                    return Err(format!(
                        "cell ({r},{c}) at window pixel ({x},{y}) has colour {px:?}"
                    ))
                }
            }
        }
    }
    Ok(cells)
}

/// The acceptance test of the foundation: capture, click, capture again, and
/// the flood shows up where it should. Fails if either capture or click is broken.
#[test]
fn clicking_a_cell_floods_the_top_left_region() {
    let game = FloodOnDisplay::start(FLOOD_ID, true);
    let tmp = TempDir::new("flood-click");
    let (w, h, expected) = parse_flood_id(FLOOD_ID);

    // Before: the capture shows exactly the board of the game ID (poll: the
    // window may be mapped a moment before it is drawn).
    let before = poll(TIMEOUT, || {
        let img = screenshot(game.name(), Some("Flood"), &tmp.join("before.png"));
        (read_cells(&img, w, h).ok()? == expected).then_some(img)
    })
    .unwrap_or_else(|| {
        let img = image::open(tmp.join("before.png")).unwrap().to_rgba8();
        panic!(
            "capture never matched the game ID: {:?}",
            read_cells(&img, w, h)
        )
    });
    let top_left = expected[0];

    // Click a cell far from the top-left region with a different colour.
    let target = (0..w * h)
        .rev()
        .find(|&i| expected[i] != top_left)
        .expect("board has two colours");
    let (row, col) = ((target / w) as u32, (target % w) as u32);
    let new_colour = expected[target];
    let (sx, sy) = game.cell_centre(row, col);
    assert_success(&run(gridbot(Some(game.name())).args([
        "click",
        &sx.to_string(),
        &sy.to_string(),
    ])));

    // After: the top-left cell (and every cell of its old region) now has
    // the clicked cell's colour; cells outside the region are unchanged.
    let after = poll(TIMEOUT, || {
        let img = screenshot(game.name(), Some("Flood"), &tmp.join("after.png"));
        let cells = read_cells(&img, w, h).ok()?;
        (cells[0] != top_left).then_some((img, cells))
    });
    let Some((after_img, after_cells)) = after else {
        panic!("the top-left cell never changed colour after clicking cell ({row},{col}) at screen ({sx},{sy})");
    };
    assert_eq!(
        after_cells[0], new_colour,
        "top-left cell took the clicked cell's colour"
    );
    let region = flood_region(&expected, w, h);
    for i in 0..w * h {
        let want = if region.contains(&i) {
            new_colour
        } else {
            expected[i]
        };
        assert_eq!(
            after_cells[i],
            want,
            "cell ({},{}) after the flood",
            i / w,
            i % w
        );
    }
    let (x, y) = flood_cell_centre_in_window(0, 0);
    assert_ne!(
        before.get_pixel(x, y),
        after_img.get_pixel(x, y),
        "the picture changed at the top-left cell"
    );
}

/// Indices of the cells connected to (0,0) through cells of its colour.
fn flood_region(cells: &[u8], w: usize, h: usize) -> Vec<usize> {
    let mut region = vec![0];
    let mut i = 0;
    while i < region.len() {
        let (r, c) = (region[i] / w, region[i] % w);
        let mut next = vec![];
        if r > 0 {
            next.push(region[i] - w)
        }
        if r + 1 < h {
            next.push(region[i] + w)
        }
        if c > 0 {
            next.push(region[i] - 1)
        }
        if c + 1 < w {
            next.push(region[i] + 1)
        }
        for n in next {
            if cells[n] == cells[0] && !region.contains(&n) {
                region.push(n);
            }
        }
        i += 1;
    }
    region
}

/// Without a window manager, window capture falls back to the X tree and a
/// cut of the monitor; the origin is still the window's screen position.
#[test]
fn window_capture_works_without_a_window_manager() {
    let game = FloodOnDisplay::start(FLOOD_ID, false);
    let tmp = TempDir::new("no-wm");
    let (w, h, expected) = parse_flood_id(FLOOD_ID);
    let out = poll(TIMEOUT, || {
        let img = screenshot(game.name(), Some("Flood"), &tmp.join("w.png"));
        (read_cells(&img, w, h).ok()? == expected).then_some(img)
    });
    let img = out.expect("window capture shows the board");
    assert_eq!(
        (img.width(), img.height()),
        (game.window.width, game.window.height)
    );
    let full = screenshot(game.name(), None, &tmp.join("full.png"));
    assert_eq!((full.width(), full.height()), (800, 600));
    let (sx, sy) = game.cell_centre(0, 0);
    assert!(close(
        *full.get_pixel(sx as u32, sy as u32),
        FLOOD_PALETTE[expected[0] as usize],
        8
    ));
}

/// The mouse moves, reports its position and drags on a display it is told
/// about, without touching this process's `DISPLAY`.
#[test]
fn mouse_moves_and_drags_on_a_named_display() {
    let display = VirtualDisplay::start(640, 480).expect("start Xvfb");
    let mut mouse = Mouse::on_display(display.name()).expect("open input");
    mouse.move_to(100, 50).unwrap();
    assert_eq!(mouse.position().unwrap(), (100, 50));
    mouse.drag((10, 10), (300, 200)).unwrap();
    assert_eq!(mouse.position().unwrap(), (300, 200));
    mouse.click(639, 479).unwrap();
    let err = mouse.click(640, 10).unwrap_err().to_string();
    assert!(err.contains("outside the 640x480 screen"), "{err}");
    mouse.release_all();
}

/// Displays get distinct numbers, and dropping one stops its Xvfb.
#[test]
fn displays_are_independent_and_cleaned_up() {
    let a = VirtualDisplay::start(320, 240).unwrap();
    let b = VirtualDisplay::start(320, 240).unwrap();
    assert_ne!(a.name(), b.name());
    let (name, pid) = (a.name().to_string(), a.xvfb_pid());
    drop(a);
    assert!(
        !std::path::Path::new(&format!("/proc/{pid}")).exists(),
        "Xvfb {pid} still runs after drop"
    );
    assert!(
        gridbot::display::x11::connect(Some(&name)).is_err(),
        "{name} still accepts connections"
    );
    assert!(gridbot::display::x11::connect(Some(b.name())).is_ok());
}

#[test]
fn screenshot_without_display_says_how_to_get_one() {
    let tmp = TempDir::new("no-display");
    let out = run(gridbot(None)
        .args(["screenshot", "-o"])
        .arg(tmp.join("x.png")));
    assert_clean_failure(&out, "DISPLAY is not set");
    let out = run(gridbot(None).args(["click", "1", "1"]));
    assert_clean_failure(&out, "DISPLAY is not set");
}

#[test]
fn dead_display_is_named_in_the_error() {
    // A display number no server listens on. (Starting and stopping a
    // display raced with the other tests: the next Xvfb took the number.)
    let n = (900..1000)
        .find(|n| {
            !std::path::Path::new(&format!("/tmp/.X11-unix/X{n}")).exists()
                && !std::path::Path::new(&format!("/tmp/.X{n}-lock")).exists()
        })
        .expect("a free display number between 900 and 999");
    let name = format!(":{n}");
    let tmp = TempDir::new("dead-display");
    let out = run(gridbot(Some(&name))
        .args(["screenshot", "-o"])
        .arg(tmp.join("x.png")));
    assert_clean_failure(&out, &format!("cannot connect to X display {name}"));
}

#[test]
fn unknown_window_title_lists_open_windows() {
    let game = FloodOnDisplay::start(FLOOD_ID, true);
    let tmp = TempDir::new("no-window");
    let out = run(gridbot(Some(game.name()))
        .args(["screenshot", "--window", "No Such Game", "-o"])
        .arg(tmp.join("x.png")));
    assert_clean_failure(&out, "no window whose title contains \"No Such Game\"");
    assert!(
        stderr(&out).contains("\"Flood\""),
        "lists the open windows: {}",
        stderr(&out)
    );
}

/// In a Wayland session xcap would use the desktop's screenshot portal; the
/// CLI must still capture the X display named by `DISPLAY`.
#[test]
fn wayland_session_variables_do_not_redirect_capture() {
    let game = FloodOnDisplay::start(FLOOD_ID, true);
    let tmp = TempDir::new("wayland-env");
    let out = run(gridbot(Some(game.name()))
        .env("XDG_SESSION_TYPE", "wayland")
        .env("WAYLAND_DISPLAY", "wayland-0")
        .args(["screenshot", "--window", "Flood", "-o"])
        .arg(tmp.join("w.png")));
    assert_success(&out);
}

/// Xvfb dies with the thread that started it even when no destructor runs
/// (as when gridbot is killed): PR_SET_PDEATHSIG.
#[test]
fn xvfb_dies_when_its_owner_goes_away_without_cleanup() {
    let pid = std::thread::spawn(|| {
        let display = VirtualDisplay::start(320, 240).unwrap();
        let pid = display.xvfb_pid();
        std::mem::forget(display);
        pid
    })
    .join()
    .unwrap();
    let dead = || {
        // Gone, or a zombie waiting to be reaped.
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => Some(()),
            Ok(stat) => stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z')
                .then_some(()),
        }
    };
    assert!(
        poll(TIMEOUT, dead).is_some(),
        "Xvfb {pid} outlived the thread that started it"
    );
}
