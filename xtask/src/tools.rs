//! Finding the external tools the checks use, and installing them with
//! `cargo install --locked` when they are missing.

use std::env;
use std::path::PathBuf;
use std::time::Instant;

use crate::runner::{self, seconds};

/// A command-line tool published on crates.io.
pub struct Tool {
    /// Executable name, without any platform suffix.
    pub binary: &'static str,
    /// Crate that provides the executable.
    pub krate: &'static str,
}

pub const TYPOS: Tool = Tool {
    binary: "typos",
    krate: "typos-cli",
};

pub const CARGO_DENY: Tool = Tool {
    binary: "cargo-deny",
    krate: "cargo-deny",
};

pub const MDBOOK: Tool = Tool {
    binary: "mdbook",
    krate: "mdbook",
};

/// Whether a tool can be used on this machine.
pub enum Availability {
    /// The tool is installed at this path.
    Ready(PathBuf),
    /// The tool is missing and could not be installed because the package
    /// registry is unreachable; the string explains this for the user.
    NoNetwork(String),
}

/// Returns the tool's path, installing it first when it is missing.
///
/// An install that fails for lack of network is reported as
/// [`Availability::NoNetwork`] so the caller can skip; any other install
/// failure is an error.
pub fn ensure(tool: &Tool) -> Result<Availability, String> {
    if let Some(path) = locate(tool.binary) {
        return Ok(Availability::Ready(path));
    }

    println!(
        "`{}` is not installed; installing crate `{}` (this compiles it from source)",
        tool.binary, tool.krate
    );
    let started = Instant::now();
    let captured = runner::run_captured(&mut runner::cargo(&["install", tool.krate, "--locked"]))?;
    let elapsed = seconds(started.elapsed());

    if captured.success {
        println!("installed `{}` in {elapsed}", tool.krate);
        return locate(tool.binary).map(Availability::Ready).ok_or_else(|| {
            format!(
                "`{}` was installed but `{}` is not on PATH nor in cargo's bin directory",
                tool.krate, tool.binary
            )
        });
    }
    if looks_like_no_network(&captured.output) {
        println!(
            "notice: `cargo install {} --locked` could not reach the package registry (after {elapsed})",
            tool.krate
        );
        return Ok(Availability::NoNetwork(format!(
            "`{}` is not installed and could not be downloaded (no network)",
            tool.krate
        )));
    }
    Err(format!(
        "installing `{}` failed: {}",
        tool.krate, captured.failure
    ))
}

/// Looks for an executable on PATH, then in cargo's own bin directory (where
/// `cargo install` puts it even when that directory is not on PATH).
pub fn locate(binary: &str) -> Option<PathBuf> {
    let file_name = format!("{binary}{}", env::consts::EXE_SUFFIX);
    let path_dirs = env::var_os("PATH")
        .map(|paths| env::split_paths(&paths).collect::<Vec<_>>())
        .unwrap_or_default();
    path_dirs
        .into_iter()
        .chain(cargo_bin_dir())
        .map(|dir| dir.join(&file_name))
        .find(|candidate| is_executable(candidate))
}

fn cargo_bin_dir() -> Option<PathBuf> {
    env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")))
        .map(|home| home.join("bin"))
}

#[cfg(unix)]
fn is_executable(path: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .map(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

#[cfg(not(unix))]
fn is_executable(path: &std::path::Path) -> bool {
    path.is_file()
}

/// Fragments of cargo's (and curl's, and git's) messages when a download fails
/// because the network or the registry cannot be reached. Compared in lower case.
const NO_NETWORK_SIGNS: &[&str] = &[
    "could not resolve host",
    "couldn't resolve host",
    "failed to resolve address",
    "dns error",
    "couldn't connect to server",
    "could not connect to server",
    "connection refused",
    "network unreachable",
    "network is unreachable",
    "failed to download",
    "failed to query replaced source registry",
    "unable to update registry",
    "spurious network error",
    "operation timed out",
    "timed out",
    "offline mode",
    "--offline",
];

/// True when a failed command's output says the network could not be reached.
pub fn looks_like_no_network(output: &str) -> bool {
    let output = output.to_lowercase();
    NO_NETWORK_SIGNS.iter().any(|sign| output.contains(sign))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn network_failures_are_recognised() {
        let offline = "error: failed to query replaced source registry `crates-io`\n\
            Caused by: [6] Couldn't resolve host name (Could not resolve host: index.crates.io)";
        assert!(looks_like_no_network(offline));
        assert!(looks_like_no_network(
            "error: no matching package named `typos-cli` found\nnote: offline mode (via `net.offline`) is enabled"
        ));
    }

    #[test]
    fn compile_errors_are_not_network_failures() {
        let compile = "error[E0308]: mismatched types\nerror: failed to compile `typos-cli v1.0.0`";
        assert!(!looks_like_no_network(compile));
    }

    #[test]
    fn locate_finds_a_standard_program() {
        if cfg!(unix) {
            assert!(locate("sh").is_some());
        }
        assert!(locate("surely-not-an-installed-program-xyz").is_none());
    }
}
