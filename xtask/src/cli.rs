//! Hand-written argument parsing; the command surface is small enough that a
//! parser crate would cost more build time than it saves.

use crate::books::{Book, BookAction};
use crate::checks::{Backend, StepKind};

pub const HELP: &str = "\
Contributor tasks for the burn-rs workspace.

USAGE:
    cargo xtask <COMMAND> [OPTIONS]
    cargo run-checks [--backend <NAME>]      (alias of `cargo xtask run-checks`)

COMMANDS:
    run-checks [--backend <NAME>]
        Run every check a change must pass, in order, stopping at the first
        failure:
          format   cargo fmt --all -- --check
          typos    typos (spell check; installs typos-cli when missing)
          deny     cargo deny check licenses bans sources, then advisories
                   (installs cargo-deny when missing)
          clippy   cargo clippy --workspace --all-targets -- -D warnings, with
                   the backend's features (a CubeCL runtime's on top of Flex's)
          no-std   cargo build --no-default-features for the no_std crates
          tests    flex: cargo test --workspace --release, with Flex enabled;
                   wgpu, cuda: cargo test --release -p burn-backend-tests
                   -p burn-cubecl, with the runtime's feature
        A tool that cannot be installed because there is no network is skipped
        with a notice, as is the advisory check when its database cannot be
        fetched.

    check <STEP> [--backend <NAME>]
        Run a single step of run-checks. STEP is one of:
        format, typos, deny, clippy, no-std, tests.

    books <burn|contributor> <build|check-links|test|open> [--port <N>]
        Work on a book with mdbook (installed when missing):
          build        build the HTML into <book-dir>/book; fails on any
                       warning mdbook logs (a missing include, …), then
                       runs check-links
          check-links  check that every internal link of the built HTML
                       (a page, a #anchor) resolves
          test         build `burn` with `flex`, then compile and run the
                       book's Rust blocks with `mdbook test`
          open         serve the book and open it in a browser, on port N
                       when given, otherwise the first free port from 3000

    rebuild-time
        Build a small application crate outside the workspace that depends on
        `burn` with `flex`, then time its release rebuild after one-line edits
        of its tensor code (median of 5, with and without CARGO_INCREMENTAL).

    help, --help, -h
        Print this text.

OPTIONS:
    --backend <NAME>
        Backend the clippy and tests steps build for. Supported: flex (the
        default), wgpu (the CubeCL backend on WGPU; runs on Mesa's lavapipe
        without a GPU), cuda (the CubeCL backend on CUDA; needs an NVIDIA GPU).

EXAMPLES:
    cargo run-checks
    cargo run-checks --backend wgpu
    cargo xtask check typos
    cargo xtask books contributor open --port 4000
";

/// A parsed command line.
#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    Help,
    RunChecks { backend: Backend },
    Check { step: StepKind, backend: Backend },
    Books { book: Book, action: BookAction },
    RebuildTime,
}

/// Parses the arguments that follow the program name.
pub fn parse(args: &[String]) -> Result<Command, String> {
    let mut args = args.iter().map(String::as_str);
    let Some(first) = args.next() else {
        return Ok(Command::Help);
    };
    let rest: Vec<&str> = args.collect();
    if rest.iter().any(|arg| is_help(arg)) {
        return Ok(Command::Help);
    }

    match first {
        "help" | "--help" | "-h" => Ok(Command::Help),
        "rebuild-time" => Ok(Command::RebuildTime),
        "run-checks" => {
            let backend = parse_backend_options(&rest)?;
            Ok(Command::RunChecks { backend })
        }
        "check" => {
            let Some((step, options)) = rest.split_first() else {
                return Err(format!(
                    "`check` needs a step name; one of: {}",
                    StepKind::names().join(", ")
                ));
            };
            let step = StepKind::from_name(step)?;
            let backend = parse_backend_options(options)?;
            Ok(Command::Check { step, backend })
        }
        "books" => parse_books(&rest),
        other => Err(format!("unknown command `{other}`")),
    }
}

fn is_help(arg: &str) -> bool {
    matches!(arg, "--help" | "-h")
}

/// Splits `--name value` and `--name=value` into a name and a value.
fn take_option<'a>(
    arg: &'a str,
    iter: &mut impl Iterator<Item = &'a str>,
) -> Result<(&'a str, &'a str), String> {
    if let Some((name, value)) = arg.split_once('=') {
        return Ok((name, value));
    }
    let value = iter
        .next()
        .ok_or_else(|| format!("option `{arg}` needs a value"))?;
    Ok((arg, value))
}

fn parse_backend_options(options: &[&str]) -> Result<Backend, String> {
    let mut backend = Backend::default();
    let mut iter = options.iter().copied();
    while let Some(arg) = iter.next() {
        if !arg.starts_with("--") {
            return Err(format!("unexpected argument `{arg}`"));
        }
        match take_option(arg, &mut iter)? {
            ("--backend", value) => backend = Backend::from_name(value)?,
            (name, _) => return Err(format!("unknown option `{name}`")),
        }
    }
    Ok(backend)
}

fn parse_books(rest: &[&str]) -> Result<Command, String> {
    let usage =
        "usage: cargo xtask books <burn|contributor> <build|check-links|test|open> [--port <N>]";
    let [book, action, options @ ..] = rest else {
        return Err(format!("`books` needs a book and an action\n{usage}"));
    };
    let book = Book::from_name(book)?;
    let mut port = None;
    let mut iter = options.iter().copied();
    while let Some(arg) = iter.next() {
        if !arg.starts_with("--") {
            return Err(format!("unexpected argument `{arg}`\n{usage}"));
        }
        match take_option(arg, &mut iter)? {
            ("--port", value) => {
                let parsed = value
                    .parse::<u16>()
                    .ok()
                    .filter(|port| *port != 0)
                    .ok_or_else(|| format!("`{value}` is not a valid port number (1-65535)"))?;
                port = Some(parsed);
            }
            (name, _) => return Err(format!("unknown option `{name}`\n{usage}")),
        }
    }
    let action = BookAction::from_name(action, port)?;
    Ok(Command::Books { book, action })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(line: &str) -> Result<Command, String> {
        let args: Vec<String> = line.split_whitespace().map(String::from).collect();
        parse(&args)
    }

    #[test]
    fn no_arguments_prints_help() {
        assert_eq!(parse_str(""), Ok(Command::Help));
        assert_eq!(parse_str("--help"), Ok(Command::Help));
        assert_eq!(parse_str("run-checks -h"), Ok(Command::Help));
    }

    #[test]
    fn run_checks_defaults_to_flex() {
        assert_eq!(
            parse_str("run-checks"),
            Ok(Command::RunChecks {
                backend: Backend::Flex
            })
        );
        assert_eq!(
            parse_str("run-checks --backend flex"),
            parse_str("run-checks --backend=flex")
        );
    }

    #[test]
    fn unsupported_backend_lists_supported_names() {
        let err = parse_str("run-checks --backend tpu").unwrap_err();
        assert!(err.contains("tpu"), "{err}");
        assert!(err.contains("flex, wgpu, cuda"), "{err}");
    }

    #[test]
    fn cubecl_runtimes_are_backends() {
        assert_eq!(
            parse_str("run-checks --backend wgpu"),
            Ok(Command::RunChecks {
                backend: Backend::Wgpu
            })
        );
        assert_eq!(
            parse_str("run-checks --backend=cuda"),
            Ok(Command::RunChecks {
                backend: Backend::Cuda
            })
        );
        assert_eq!(
            parse_str("check tests --backend wgpu"),
            Ok(Command::Check {
                step: StepKind::Tests,
                backend: Backend::Wgpu
            })
        );
        assert!(HELP.contains("wgpu"));
    }

    #[test]
    fn check_needs_a_known_step() {
        assert_eq!(
            parse_str("check typos"),
            Ok(Command::Check {
                step: StepKind::Typos,
                backend: Backend::Flex
            })
        );
        assert!(parse_str("check").is_err());
        assert!(parse_str("check spelling").is_err());
    }

    #[test]
    fn books_arguments() {
        assert_eq!(
            parse_str("books burn build"),
            Ok(Command::Books {
                book: Book::Burn,
                action: BookAction::Build
            })
        );
        assert_eq!(
            parse_str("books contributor open --port 4000"),
            Ok(Command::Books {
                book: Book::Contributor,
                action: BookAction::Open { port: Some(4000) }
            })
        );
        assert_eq!(
            parse_str("books burn check-links"),
            Ok(Command::Books {
                book: Book::Burn,
                action: BookAction::CheckLinks
            })
        );
        assert!(parse_str("books burn build --port 4000").is_err());
        assert!(parse_str("books burn test --port 4000").is_err());
        assert!(parse_str("books burn open --port 0").is_err());
        assert!(parse_str("books other build").is_err());
        assert!(parse_str("books burn").is_err());
    }

    #[test]
    fn unknown_things_are_rejected() {
        assert!(parse_str("deploy").is_err());
        assert!(parse_str("run-checks --fast").is_err());
        assert!(parse_str("run-checks extra").is_err());
        assert!(parse_str("run-checks --backend").is_err());
    }
}
