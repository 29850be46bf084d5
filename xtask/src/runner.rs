//! Running external commands and sequencing named steps with timing.

use std::ffi::OsStr;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// The workspace root: the parent of this crate's manifest directory.
pub fn workspace_root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir.parent().unwrap_or(manifest_dir).to_path_buf()
}

/// A command that runs in the workspace root.
pub fn command(program: impl AsRef<OsStr>, args: &[&str]) -> Command {
    let mut cmd = Command::new(program);
    cmd.args(args).current_dir(workspace_root());
    cmd
}

/// A `cargo` command that runs in the workspace root.
pub fn cargo(args: &[&str]) -> Command {
    command("cargo", args)
}

/// The command line as a person would type it, for log output.
pub fn describe(cmd: &Command) -> String {
    let program = Path::new(cmd.get_program())
        .file_name()
        .unwrap_or(cmd.get_program())
        .to_string_lossy()
        .into_owned();
    std::iter::once(program)
        .chain(cmd.get_args().map(|arg| arg.to_string_lossy().into_owned()))
        .collect::<Vec<_>>()
        .join(" ")
}

fn spawn_error(cmd: &Command, err: io::Error) -> String {
    if err.kind() == io::ErrorKind::NotFound {
        format!("`{}` was not found on PATH", describe(cmd))
    } else {
        format!("could not start `{}`: {err}", describe(cmd))
    }
}

fn status_error(cmd: &Command, status: ExitStatus) -> String {
    match status.code() {
        Some(code) => format!("`{}` exited with status {code}", describe(cmd)),
        None => format!("`{}` was terminated by a signal", describe(cmd)),
    }
}

fn announce(cmd: &Command) {
    println!("$ {}", describe(cmd));
    let _ = io::stdout().flush();
}

/// Runs a command with inherited output; an unsuccessful exit is an error.
pub fn run(cmd: &mut Command) -> Result<(), String> {
    announce(cmd);
    let status = cmd.status().map_err(|err| spawn_error(cmd, err))?;
    if status.success() {
        Ok(())
    } else {
        Err(status_error(cmd, status))
    }
}

/// What a command printed and how it ended, for callers that must tell one
/// kind of failure from another.
pub struct Captured {
    pub success: bool,
    pub output: String,
    pub failure: String,
}

/// Runs a command, forwarding its output as it arrives and also keeping a copy.
pub fn run_captured(cmd: &mut Command) -> Result<Captured, String> {
    announce(cmd);
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|err| spawn_error(cmd, err))?;

    let stdout = child
        .stdout
        .take()
        .map(|pipe| thread::spawn(move || forward(pipe, io::stdout())));
    let stderr = child
        .stderr
        .take()
        .map(|pipe| thread::spawn(move || forward(pipe, io::stderr())));
    let status = child
        .wait()
        .map_err(|err| format!("waiting for `{}` failed: {err}", describe(cmd)))?;

    let mut output = String::new();
    for handle in [stdout, stderr].into_iter().flatten() {
        let bytes = handle.join().unwrap_or_default();
        output.push_str(&String::from_utf8_lossy(&bytes));
    }
    Ok(Captured {
        success: status.success(),
        output,
        failure: status_error(cmd, status),
    })
}

fn forward(mut from: impl Read, mut to: impl Write) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut buffer = [0u8; 8192];
    loop {
        match from.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => {
                let _ = to.write_all(&buffer[..n]);
                let _ = to.flush();
                kept.extend_from_slice(&buffer[..n]);
            }
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
    kept
}

/// How a step that did not fail ended.
#[derive(Debug)]
pub enum Outcome {
    Passed,
    /// The step passed, but part of it could not run here; the notice is
    /// shown in the summary.
    PassedWithNotice(String),
    /// The step could not run here (no network, nothing to check yet); the
    /// reason is shown in the summary.
    Skipped(String),
}

/// `Err` carries the reason the step failed.
pub type StepResult = Result<Outcome, String>;

/// One named, timed unit of work.
pub struct Step<'a> {
    pub name: &'static str,
    pub run: Box<dyn FnOnce() -> StepResult + 'a>,
}

impl<'a> Step<'a> {
    pub fn new(name: &'static str, run: impl FnOnce() -> StepResult + 'a) -> Self {
        Self {
            name,
            run: Box::new(run),
        }
    }
}

enum Status {
    Ok,
    OkWithNotice(String),
    Skipped(String),
    Failed,
    NotRun,
}

struct Record {
    name: &'static str,
    status: Status,
    time: Duration,
}

/// Runs the steps in order and stops at the first failure. Prints a header
/// before each step, a one-line result after it, and a summary table at the end.
pub fn run_steps(title: &str, steps: Vec<Step<'_>>) -> Result<(), String> {
    let total_steps = steps.len();
    let started = Instant::now();
    let mut records: Vec<Record> = steps
        .iter()
        .map(|step| Record {
            name: step.name,
            status: Status::NotRun,
            time: Duration::ZERO,
        })
        .collect();
    let mut failure = None;

    for (index, step) in steps.into_iter().enumerate() {
        println!();
        println!("==> [{}/{}] {}", index + 1, total_steps, step.name);
        let _ = io::stdout().flush();

        let step_started = Instant::now();
        let result = (step.run)();
        let elapsed = step_started.elapsed();
        let record = &mut records[index];
        record.time = elapsed;

        match result {
            Ok(Outcome::Passed) => {
                println!("{} ... ok ({})", step.name, seconds(elapsed));
                record.status = Status::Ok;
            }
            Ok(Outcome::PassedWithNotice(notice)) => {
                println!(
                    "{} ... ok ({}), with notice: {notice}",
                    step.name,
                    seconds(elapsed)
                );
                record.status = Status::OkWithNotice(notice);
            }
            Ok(Outcome::Skipped(reason)) => {
                println!("{} ... skipped ({}): {reason}", step.name, seconds(elapsed));
                record.status = Status::Skipped(reason);
            }
            Err(reason) => {
                println!("{} ... FAILED ({})", step.name, seconds(elapsed));
                record.status = Status::Failed;
                failure = Some(format!("step `{}` failed: {reason}", step.name));
                break;
            }
        }
    }

    print_summary(title, &records, started.elapsed());
    match failure {
        Some(message) => Err(message),
        None => Ok(()),
    }
}

fn print_summary(title: &str, records: &[Record], total: Duration) {
    let width = records
        .iter()
        .map(|record| record.name.len())
        .chain(std::iter::once("total".len()))
        .max()
        .unwrap_or(0);

    println!();
    println!("{title} summary");
    println!("  {:<width$}  {:<8}  {:>9}", "step", "result", "time");
    println!("  {:-<width$}  {:-<8}  {:->9}", "", "", "");
    for record in records {
        let (result, note) = match &record.status {
            Status::Ok => ("ok", String::new()),
            Status::OkWithNotice(notice) => ("ok", format!("  {notice}")),
            Status::Skipped(reason) => ("skipped", format!("  {reason}")),
            Status::Failed => ("FAILED", String::new()),
            Status::NotRun => ("not run", String::new()),
        };
        let time = match record.status {
            Status::NotRun => "-".to_string(),
            _ => seconds(record.time),
        };
        println!("  {:<width$}  {result:<8}  {time:>9}{note}", record.name);
    }
    println!("  {:<width$}  {:<8}  {:>9}", "total", "", seconds(total));
    let _ = io::stdout().flush();
}

/// Formats a duration as seconds with one decimal, e.g. `12.3 s`.
pub fn seconds(duration: Duration) -> String {
    format!("{:.1} s", duration.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_have_one_decimal() {
        assert_eq!(seconds(Duration::from_millis(12_345)), "12.3 s");
        assert_eq!(seconds(Duration::ZERO), "0.0 s");
    }

    #[test]
    fn steps_stop_at_first_failure() {
        let mut ran = Vec::new();
        let result = {
            let ran = std::cell::RefCell::new(&mut ran);
            run_steps(
                "test",
                vec![
                    Step::new("one", || {
                        ran.borrow_mut().push("one");
                        Ok(Outcome::Passed)
                    }),
                    Step::new("two", || {
                        ran.borrow_mut().push("two");
                        Ok(Outcome::Skipped("nothing to do".into()))
                    }),
                    Step::new("three", || {
                        ran.borrow_mut().push("three");
                        Err("broken".into())
                    }),
                    Step::new("four", || {
                        ran.borrow_mut().push("four");
                        Ok(Outcome::Passed)
                    }),
                ],
            )
        };
        assert_eq!(ran, ["one", "two", "three"]);
        let message = result.unwrap_err();
        assert!(message.contains("`three`"), "{message}");
        assert!(message.contains("broken"), "{message}");
    }

    #[test]
    fn describe_uses_program_file_name() {
        let cmd = command("/usr/bin/env", &["--version"]);
        assert_eq!(describe(&cmd), "env --version");
    }

    #[cfg(unix)]
    #[test]
    fn captured_output_is_kept() {
        let mut cmd = command("sh", &["-c", "echo out; echo err >&2; exit 3"]);
        let captured = run_captured(&mut cmd).unwrap();
        assert!(!captured.success);
        assert!(captured.output.contains("out"));
        assert!(captured.output.contains("err"));
        assert!(
            captured.failure.contains("status 3"),
            "{}",
            captured.failure
        );
    }
}
