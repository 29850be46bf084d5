//! `cargo xtask books`: build or serve the mdBook books.

use std::net::TcpListener;
use std::path::PathBuf;

use crate::runner;
use crate::tools::{self, Availability};

/// First port tried by `open` when no `--port` is given.
const DEFAULT_PORT: u16 = 3000;
/// How many ports from [`DEFAULT_PORT`] upwards are tried before asking the
/// operating system for any free one.
const PORT_ATTEMPTS: u16 = 100;

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
    Build,
    Open { port: Option<u16> },
}

pub fn run(book: Book, action: BookAction) -> Result<(), String> {
    let dir = runner::workspace_root().join(book.directory());
    ensure_book_exists(book, &dir)?;

    let mdbook = match tools::ensure(&tools::MDBOOK)? {
        Availability::Ready(path) => path,
        Availability::NoNetwork(reason) => {
            return Err(format!("cannot build the {} book: {reason}", book.name()));
        }
    };
    let dir_arg = dir.to_string_lossy().into_owned();

    match action {
        BookAction::Build => {
            runner::run(&mut runner::command(&mdbook, &["build", &dir_arg]))?;
            println!(
                "built the {} book into {}",
                book.name(),
                dir.join("book").display()
            );
            Ok(())
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
    }
}

fn ensure_book_exists(book: Book, dir: &std::path::Path) -> Result<(), String> {
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
}
