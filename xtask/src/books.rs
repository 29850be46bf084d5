//! `cargo xtask books`: build, check, test or serve the mdBook books.
//!
//! The books are written for mdBook 0.5 (its `book.toml` rejects fields that
//! 0.4 accepted, such as `multilingual`). `build` treats every warning or
//! error mdBook logs as a failure, because mdBook reports a missing
//! `{{#include}}` file and still exits successfully, then checks the internal
//! links of the generated HTML (see `books_links.rs`).

use std::env;
use std::fs;
use std::net::TcpListener;
use std::path::{Path, PathBuf};

use crate::books_links;
use crate::runner;
use crate::tools::{self, Availability};

/// First port tried by `open` when no `--port` is given.
const DEFAULT_PORT: u16 = 3000;
/// How many ports from [`DEFAULT_PORT`] upwards are tried before asking the
/// operating system for any free one.
const PORT_ATTEMPTS: u16 = 100;
/// Where a book's HTML goes, inside the book's directory (ignored by git).
const OUTPUT_DIR: &str = "book";
/// The target directory, under cargo's, of the `burn` build that `test`
/// links the books' examples against. It holds this one build only, so the
/// examples' `extern crate burn;` finds a single candidate.
const TEST_TARGET_DIR: &str = "book-test";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Book {
    /// The user guide, in `burn-book/`.
    Burn,
    /// The guide for people working on the framework, in `contributor-book/`.
    Contributor,
}

impl Book {
    pub fn from_name(name: &str) -> Result<Self, String> {
        match name {
            "burn" => Ok(Book::Burn),
            "contributor" => Ok(Book::Contributor),
            other => Err(format!(
                "unknown book `{other}`; expected `burn` or `contributor`"
            )),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Book::Burn => "burn",
            Book::Contributor => "contributor",
        }
    }

    fn directory(self) -> &'static str {
        match self {
            Book::Burn => "burn-book",
            Book::Contributor => "contributor-book",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BookAction {
    /// Build the HTML, failing on mdBook warnings and broken internal links.
    Build,
    /// Check the internal links of the HTML of the last build.
    CheckLinks,
    /// Compile and run the book's Rust examples against `burn` with `flex`.
    Test,
    /// Serve the book and open it in a browser.
    Open { port: Option<u16> },
}

impl BookAction {
    /// The action names, as typed on the command line.
    pub const NAMES: [&'static str; 4] = ["build", "check-links", "test", "open"];

    /// Parses an action name; `port` only applies to `open`.
    pub fn from_name(name: &str, port: Option<u16>) -> Result<Self, String> {
        let action = match name {
            "build" => BookAction::Build,
            "check-links" => BookAction::CheckLinks,
            "test" => BookAction::Test,
            "open" => return Ok(BookAction::Open { port }),
            other => {
                return Err(format!(
                    "unknown book action `{other}`; expected one of: {}",
                    Self::NAMES.join(", ")
                ));
            }
        };
        if port.is_some() {
            return Err("`--port` only applies to `open`".to_string());
        }
        Ok(action)
    }
}

pub fn run(book: Book, action: BookAction) -> Result<(), String> {
    let dir = runner::workspace_root().join(book.directory());
    ensure_book_exists(book, &dir)?;
    let output = dir.join(OUTPUT_DIR);

    if action == BookAction::CheckLinks {
        if !output.join("index.html").is_file() {
            return Err(format!(
                "the {} book has not been built (no {}); run `cargo xtask books {} build`",
                book.name(),
                output.join("index.html").display(),
                book.name()
            ));
        }
        return check_links(book, &output);
    }

    let mdbook = match tools::ensure(&tools::MDBOOK)? {
        Availability::Ready(path) => path,
        Availability::NoNetwork(reason) => {
            return Err(format!("cannot build the {} book: {reason}", book.name()));
        }
    };
    let dir_arg = dir.to_string_lossy().into_owned();

    match action {
        BookAction::Build => {
            let output_arg = output.to_string_lossy().into_owned();
            let captured = runner::run_captured(&mut runner::command(
                &mdbook,
                &["build", &dir_arg, "--dest-dir", &output_arg],
            ))?;
            if !captured.success {
                return Err(captured.failure);
            }
            let problems = logged_problems(&captured.output);
            if !problems.is_empty() {
                return Err(format!(
                    "mdbook built the {} book but reported {} problem line(s) \
                     (a missing include file, a bad anchor, …):\n  {}",
                    book.name(),
                    problems.len(),
                    problems.join("\n  ")
                ));
            }
            println!("built the {} book into {}", book.name(), output.display());
            check_links(book, &output)
        }
        BookAction::Test => {
            let deps = build_test_library()?;
            let deps_arg = deps.to_string_lossy().into_owned();
            runner::run(&mut runner::command(
                &mdbook,
                &["test", &dir_arg, "--library-path", &deps_arg],
            ))
            .map_err(|err| {
                format!(
                    "{err}; a Rust block of the {} book failed to compile or run \
                     (see the rustdoc output above)",
                    book.name()
                )
            })
        }
        BookAction::Open { port } => {
            let port = match port {
                Some(port) => port,
                None => free_port()?,
            };
            println!(
                "serving the {} book at http://localhost:{port} (Ctrl-C to stop)",
                book.name()
            );
            let port = port.to_string();
            runner::run(&mut runner::command(
                &mdbook,
                &["serve", &dir_arg, "--port", &port, "--open"],
            ))
        }
        BookAction::CheckLinks => unreachable!("handled before mdbook is needed"),
    }
}

fn ensure_book_exists(book: Book, dir: &Path) -> Result<(), String> {
    let config: PathBuf = dir.join("book.toml");
    if config.is_file() {
        Ok(())
    } else {
        Err(format!(
            "the {} book has no {}; it should be an mdBook project in {}/ \
             (has it been written yet?)",
            book.name(),
            config.display(),
            book.directory()
        ))
    }
}

/// The lines of mdBook's log at warning or error level, without colour codes.
///
/// mdBook 0.5 prefixes each line with its level (` WARN …`, `ERROR …`);
/// 0.4 wrote `[WARN]` after a timestamp. Both are recognised.
fn logged_problems(log: &str) -> Vec<String> {
    log.lines()
        .map(strip_ansi)
        .filter(|line| {
            let trimmed = line.trim_start();
            trimmed.starts_with("WARN ")
                || trimmed.starts_with("ERROR ")
                || line.contains("[WARN]")
                || line.contains("[ERROR]")
        })
        .collect()
}

/// Removes ANSI colour sequences (`ESC [ … letter`).
fn strip_ansi(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for next in chars.by_ref() {
                if next.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn check_links(book: Book, output: &Path) -> Result<(), String> {
    let report = books_links::check_site(output)?;
    if report.broken.is_empty() {
        println!(
            "links of the {} book: {} internal links in {} pages, none broken",
            book.name(),
            report.links,
            report.pages
        );
        return Ok(());
    }
    for link in &report.broken {
        println!("broken link: {link}");
    }
    Err(format!(
        "the {} book has {} broken internal link(s) (listed above, paths relative to {})",
        book.name(),
        report.broken.len(),
        output.display()
    ))
}

/// Builds `burn` with `flex` and the features the book's chapters use
/// (`pytorch`, `capture`, `router`) in its own target directory and returns the
/// directory holding it and its dependencies, for `mdbook test -L`.
///
/// mdBook passes the directory to rustdoc as a search path only, so an
/// example names the crate with `extern crate burn;` and rustdoc must find
/// exactly one `libburn-*.rlib` there: copies left by an older build (another
/// hash after a lock-file change) are removed.
fn build_test_library() -> Result<PathBuf, String> {
    let target_root = env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| runner::workspace_root().join("target"));
    let target = target_root.join(TEST_TARGET_DIR);
    let target_arg = target.to_string_lossy().into_owned();
    runner::run(&mut runner::cargo(&[
        "build",
        "--package",
        "burn",
        "--features",
        // `pytorch` brings `store` with it (the saving and loading chapter
        // shows the SafeTensors and PyTorch stores); `capture` and `router`
        // are the graph capture chapter's.
        "flex,pytorch,capture,router",
        "--target-dir",
        &target_arg,
    ]))?;

    let deps = target.join("debug").join("deps");
    let files: Vec<(String, std::time::SystemTime)> = fs::read_dir(&deps)
        .map_err(|err| format!("cannot read {}: {err}", deps.display()))?
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let modified = entry.metadata().and_then(|meta| meta.modified()).ok()?;
            Some((name, modified))
        })
        .collect();
    let stale = stale_library_files("burn", &files)
        .ok_or_else(|| format!("no libburn-*.rlib in {}", deps.display()))?;
    for name in stale {
        let path = deps.join(name);
        fs::remove_file(&path)
            .map_err(|err| format!("cannot remove stale {}: {err}", path.display()))?;
    }
    Ok(deps)
}

/// The `lib<krate>-<hash>.rlib` and `.rmeta` files among `files` (name and
/// modification time) that belong to another build than the newest `.rlib`;
/// `None` when there is no `.rlib` at all. rustc rejects an `extern crate`
/// that matches two hashes, whether as `.rlib` or `.rmeta`.
fn stale_library_files(
    krate: &str,
    files: &[(String, std::time::SystemTime)],
) -> Option<Vec<String>> {
    let prefix = format!("lib{krate}-");
    let hash_of = |name: &str, extension: &str| -> Option<String> {
        name.strip_prefix(&prefix)?
            .strip_suffix(extension)
            .map(str::to_string)
    };
    let newest = files
        .iter()
        .filter_map(|(name, modified)| Some((modified, hash_of(name, ".rlib")?)))
        .max()?
        .1;
    Some(
        files
            .iter()
            .filter(|(name, _)| {
                [".rlib", ".rmeta"]
                    .iter()
                    .any(|extension| hash_of(name, extension).is_some_and(|hash| hash != newest))
            })
            .map(|(name, _)| name.clone())
            .collect(),
    )
}

/// The first free local port from [`DEFAULT_PORT`] upwards, or any free port.
fn free_port() -> Result<u16, String> {
    (DEFAULT_PORT..DEFAULT_PORT.saturating_add(PORT_ATTEMPTS))
        .find(|port| TcpListener::bind(("127.0.0.1", *port)).is_ok())
        .map(Ok)
        .unwrap_or_else(|| {
            TcpListener::bind(("127.0.0.1", 0))
                .and_then(|listener| listener.local_addr())
                .map(|addr| addr.port())
                .map_err(|err| format!("could not find a free port: {err}"))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_port_can_be_bound() {
        let port = free_port().unwrap();
        assert!(TcpListener::bind(("127.0.0.1", port)).is_ok());
    }

    #[test]
    fn missing_book_is_a_clear_error() {
        let dir = std::env::temp_dir().join("xtask-no-such-book");
        let err = ensure_book_exists(Book::Burn, &dir).unwrap_err();
        assert!(err.contains("book.toml"), "{err}");
        assert!(err.contains("burn-book"), "{err}");
    }

    #[test]
    fn actions_parse_and_port_is_only_for_open() {
        assert_eq!(BookAction::from_name("build", None), Ok(BookAction::Build));
        assert_eq!(
            BookAction::from_name("check-links", None),
            Ok(BookAction::CheckLinks)
        );
        assert_eq!(BookAction::from_name("test", None), Ok(BookAction::Test));
        assert_eq!(
            BookAction::from_name("open", Some(4000)),
            Ok(BookAction::Open { port: Some(4000) })
        );
        assert!(BookAction::from_name("build", Some(4000)).is_err());
        let err = BookAction::from_name("publish", None).unwrap_err();
        assert!(err.contains("check-links"), "{err}");
    }

    #[test]
    fn mdbook_warnings_and_errors_are_found() {
        // Lines as mdBook 0.5.4 prints them for a missing include, and the
        // 0.4 style with a timestamp.
        let log = " INFO Book building has started\n\
            ERROR Error updating \"{{#include ../missing.rs:foo}}\", Could not read file\n \
            WARN Caused By: No such file or directory (os error 2)\n \
            INFO HTML book written to `book`\n\
            2024-01-01 10:00:00 [WARN] (mdbook::preprocess): Unknown anchor\n\
            \u{1b}[33m WARN\u{1b}[0m coloured\n";
        let problems = logged_problems(log);
        assert_eq!(problems.len(), 4, "{problems:?}");
        assert!(problems[0].starts_with("ERROR Error updating"));
        assert_eq!(problems[3], " WARN coloured");
    }

    #[test]
    fn only_the_newest_library_build_is_kept() {
        use std::time::{Duration, SystemTime};
        let at = |secs| SystemTime::UNIX_EPOCH + Duration::from_secs(secs);
        let files = [
            ("libburn-aaa.rlib".to_string(), at(10)),
            ("libburn-aaa.rmeta".to_string(), at(10)),
            ("libburn-bbb.rlib".to_string(), at(20)),
            ("libburn-bbb.rmeta".to_string(), at(20)),
            ("libburn-ccc.rmeta".to_string(), at(30)),
            ("libburn_tensor-ddd.rlib".to_string(), at(40)),
            ("libburn-aaa.d".to_string(), at(10)),
        ];
        let mut stale = stale_library_files("burn", &files).unwrap();
        stale.sort();
        assert_eq!(
            stale,
            ["libburn-aaa.rlib", "libburn-aaa.rmeta", "libburn-ccc.rmeta"]
        );
        assert_eq!(stale_library_files("burn", &files[4..]), None);
    }

    #[test]
    fn a_clean_log_has_no_problems() {
        let log = " INFO Book building has started\n INFO Running the html backend\n \
            INFO HTML book written to `/tmp/book`\n";
        assert!(logged_problems(log).is_empty());
    }
}
