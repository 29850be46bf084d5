//! Shared by the integration tests: the committed data files and PyTorch's
//! values for them.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::OnceLock;

/// The committed file `name` of `tests/data`.
pub fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// `tests/data/expected.json`: what PyTorch held for each file.
pub fn expected() -> &'static serde_json::Value {
    static EXPECTED: OnceLock<serde_json::Value> = OnceLock::new();
    EXPECTED.get_or_init(|| {
        let text =
            std::fs::read_to_string(data("expected.json")).expect("tests/data/expected.json");
        serde_json::from_str(&text).expect("valid JSON")
    })
}

/// A fresh scratch directory for one test.
pub fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("burn-store-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}
pub mod craft;
