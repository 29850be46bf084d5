//! `cargo xtask rebuild-time`: how long an application waits after editing
//! one line of its tensor code.
//!
//! The seeds promise a sub-5-second incremental release rebuild of model
//! code; the bridge design (thin generic methods over non-generic helpers)
//! exists for it. This command measures it the way a user meets it: an
//! application crate *outside* the workspace depends on the `burn` facade with
//! `flex`, is built once, then one line of its `main.rs` is changed and the
//! release rebuild timed, several times, with and without incremental
//! compilation. The application is `xtask/rebuild-probe`, copied under
//! `target/` so the edits never touch the repository; it uses the upstream
//! method names and never names a backend type.

use std::fs;
use std::path::Path;
use std::time::Instant;

use crate::runner;

const EDITS: usize = 5;

/// Builds the probe application, then times release rebuilds after one-line edits.
pub fn run() -> Result<(), String> {
    let root = runner::workspace_root();
    let dir = root.join("target").join("rebuild-probe");
    fs::create_dir_all(dir.join("src")).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let template = root.join("xtask").join("rebuild-probe");
    let manifest = read(&template.join("Cargo.toml"))?.replace(
        "../../crates/burn",
        &root.join("crates").join("burn").display().to_string(),
    );
    write(&dir.join("Cargo.toml"), &manifest)?;
    let main = read(&template.join("src").join("main.rs"))?;
    if !main.contains(MARKER) {
        return Err(format!(
            "the probe's main.rs lost its marker line `{MARKER}`"
        ));
    }

    for incremental in ["0", "1"] {
        write_main(&dir, &main, 0)?;
        println!("rebuild-time: first build (CARGO_INCREMENTAL={incremental}) …");
        let first = build(&dir, incremental)?;
        println!("rebuild-time: first build took {first:.1} s");
        // An untimed edit first: whatever the first build left stale (a
        // dependency edited meanwhile) is rebuilt here, not in the timings.
        write_main(&dir, &main, EDITS + 1)?;
        build(&dir, incremental)?;
        let mut times = Vec::with_capacity(EDITS);
        for edit in 1..=EDITS {
            write_main(&dir, &main, edit)?;
            let t = build(&dir, incremental)?;
            println!("rebuild-time: edit {edit}: {t:.2} s");
            times.push(t);
        }
        times.sort_by(f64::total_cmp);
        println!(
            "rebuild-time: CARGO_INCREMENTAL={incremental}: median {:.2} s, min {:.2} s, max {:.2} s over {EDITS} one-line edits",
            times[EDITS / 2],
            times[0],
            times[EDITS - 1]
        );
    }
    Ok(())
}

/// The line the probe edits.
const MARKER: &str = "let scale = 2.5; // edited by the probe";

fn write_main(dir: &Path, main: &str, edit: usize) -> Result<(), String> {
    let line = format!("let scale = {}.5; // edited by the probe", 2 + edit);
    write(
        &dir.join("src").join("main.rs"),
        &main.replace(MARKER, &line),
    )
}

fn read(path: &Path) -> Result<String, String> {
    fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    fs::write(path, text).map_err(|e| format!("writing {}: {e}", path.display()))
}

/// Seconds one `cargo build --release` of the probe takes.
fn build(dir: &Path, incremental: &str) -> Result<f64, String> {
    let mut cmd = runner::cargo(&["build", "--release", "--quiet"]);
    cmd.current_dir(dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env("CARGO_INCREMENTAL", incremental);
    let start = Instant::now();
    runner::run(&mut cmd)?;
    Ok(start.elapsed().as_secs_f64())
}
