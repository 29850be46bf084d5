//! Contributor automation for the workspace.
//!
//! Invoked through the cargo aliases in `.cargo/config.toml`:
//!
//! ```text
//! cargo xtask <command> [options]
//! cargo run-checks [--backend <name>]
//! ```
//!
//! The crate depends on the standard library only, so it builds in seconds on a
//! fresh machine and adds nothing to the dependency audit.

mod books;
mod books_links;
mod checks;
mod cli;
mod rebuild;
mod runner;
mod tools;

use std::process::ExitCode;

use cli::Command;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command = match cli::parse(&args) {
        Ok(command) => command,
        Err(message) => {
            eprintln!("error: {message}");
            eprintln!();
            eprintln!("Run `cargo xtask --help` for usage.");
            return ExitCode::from(2);
        }
    };

    let result = match command {
        Command::Help => {
            print!("{}", cli::HELP);
            Ok(())
        }
        Command::RunChecks { backend } => checks::run_all(backend),
        Command::Check { step, backend } => checks::run_one(step, backend),
        Command::Books { book, action } => books::run(book, action),
        Command::RebuildTime => rebuild::run(),
    };

    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
