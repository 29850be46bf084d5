//! Compile-fail tests: each file of `tests/compile_fail/` is a crate root
//! that must not compile, and its first line says what the error names
//! (`//~ ERROR <text>`). They are built as the binaries of one scratch crate
//! (one `cargo check --keep-going`, in a target directory of their own so
//! the outer build's lock is never waited on), and each file's errors are
//! searched for its text. The macros' messages are what a user sees: this
//! checks they survive to rustc's output, pointed at the user's code.

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> Vec<(String, String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/compile_fail");
    let mut fixtures: Vec<(String, String, String)> = std::fs::read_dir(&dir)
        .expect("tests/compile_fail is readable")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "rs"))
        .map(|path| {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let source = std::fs::read_to_string(&path).expect("a fixture is readable");
            let expected = source
                .lines()
                .next()
                .and_then(|l| l.strip_prefix("//~ ERROR "))
                .unwrap_or_else(|| panic!("{name}.rs: first line must be `//~ ERROR <text>`"))
                .to_owned();
            (name, source, expected)
        })
        .collect();
    fixtures.sort();
    fixtures
}

fn scratch_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    target.join("compile-fail")
}

#[test]
fn documented_misuses_fail_to_compile_with_their_messages() {
    let fixtures = fixtures();
    assert!(fixtures.len() >= 5, "fixtures missing");
    let root = scratch_dir();
    let krate = root.join("crate");
    let bins = krate.join("src/bin");
    let _ = std::fs::remove_dir_all(&bins);
    std::fs::create_dir_all(&bins).expect("scratch crate directory");
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::write(
        krate.join("Cargo.toml"),
        format!(
            "[package]\nname = \"compile-fail\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
             publish = false\n\n[dependencies]\nburn-backend-extension = {{ path = {:?} }}\n\n\
             [workspace]\n",
            manifest_dir.display().to_string()
        ),
    )
    .expect("scratch manifest");
    for (name, source, _) in &fixtures {
        // The binaries need a `main`; the fixtures are the items above it.
        std::fs::write(
            bins.join(format!("{name}.rs")),
            format!("{source}\nfn main() {{}}\n"),
        )
        .expect("fixture copy");
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(&krate)
        .env("CARGO_TARGET_DIR", root.join("target"))
        .env_remove("RUSTFLAGS")
        .args([
            "check",
            "--offline",
            "--bins",
            "--keep-going",
            "--quiet",
            "--message-format",
            "short",
        ])
        .output()
        .expect("cargo runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "the fixtures compiled:\n{stderr}");
    for (name, _, expected) in &fixtures {
        let file = format!("src/bin/{name}.rs:");
        let found = stderr
            .lines()
            .filter(|line| line.contains(&file) && line.contains("error"))
            .any(|line| line.contains(expected.as_str()));
        assert!(
            found,
            "{name}.rs: no error naming `{expected}`; its errors were:\n{}",
            stderr
                .lines()
                .filter(|line| line.contains(&file))
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}
