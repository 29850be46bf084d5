//! The checks behind `cargo run-checks` and `cargo xtask check <step>`.

use crate::runner::{self, Outcome, Step, StepResult, cargo};
use crate::tools::{self, Availability};

/// Crates that must build without their default (std) features. Add new
/// no_std crates here; names without a `crates/<name>` directory are skipped,
/// so the list can run ahead of the workspace.
pub const NO_STD_CRATES: &[&str] = &[
    "burn-std",
    "burn-backend",
    "burn-ir",
    "burn-flex",
    "burn-dispatch",
];

/// One step of run-checks, in the order they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepKind {
    Format,
    Typos,
    Deny,
    Clippy,
    NoStd,
    Tests,
}

impl StepKind {
    pub const ALL: [StepKind; 6] = [
        StepKind::Format,
        StepKind::Typos,
        StepKind::Deny,
        StepKind::Clippy,
        StepKind::NoStd,
        StepKind::Tests,
    ];

    pub fn name(self) -> &'static str {
        match self {
            StepKind::Format => "format",
            StepKind::Typos => "typos",
            StepKind::Deny => "deny",
            StepKind::Clippy => "clippy",
            StepKind::NoStd => "no-std",
            StepKind::Tests => "tests",
        }
    }

    pub fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|step| step.name()).collect()
    }

    pub fn from_name(name: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|step| step.name() == name)
            .ok_or_else(|| {
                format!(
                    "unknown step `{name}`; expected one of: {}",
                    Self::names().join(", ")
                )
            })
    }

    fn into_step(self, backend: Backend) -> Step<'static> {
        match self {
            StepKind::Format => Step::new(self.name(), format),
            StepKind::Typos => Step::new(self.name(), typos),
            StepKind::Deny => Step::new(self.name(), deny),
            StepKind::Clippy => Step::new(self.name(), move || clippy(backend)),
            StepKind::NoStd => Step::new(self.name(), no_std),
            StepKind::Tests => Step::new(self.name(), move || tests(backend)),
        }
    }
}

/// The backend the clippy and test steps build for.
///
/// Flex (the default) runs the whole workspace's tests. A CubeCL runtime
/// runs the shared suites of `burn-backend-tests` and burn-cubecl's own
/// tests with that runtime's feature; its clippy step lints the workspace
/// with the runtime's features on top of Flex's, so burn-cubecl's kernels and
/// the code behind the runtime features are linted too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Backend {
    #[default]
    Flex,
    /// The CubeCL backend on WGPU (Mesa's lavapipe where there is no GPU).
    Wgpu,
    /// The CubeCL backend on CUDA (needs an NVIDIA GPU to run the tests).
    Cuda,
}

/// The features that enable Flex for every crate whose tests need a backend,
/// the router and graph capture (whose tests run on Flex), backend
/// extensions (their tests route to Flex), tracing, and the facade's domain
/// modules (`burn::linalg`, `burn::vision`, `burn::signal`, whose published
/// paths `api_surface` uses).
const FLEX_FEATURES: &str = "burn-backend-tests/flex,burn-tensor/flex,burn-dispatch/flex,burn/flex,burn/router,burn/capture,burn/extension,burn/tracing,burn/linalg,burn/vision,burn/signal";
/// The second Flex run of the shared suites: through the operation IR and
/// the router (`cargo test-router`) onto Flex under the Fusion decorator, so
/// every op is recorded as IR twice (the router's, then Fusion's queue) and
/// element-wise chains run fused. One build covers both layers.
///
/// The same build also has the remote device (`burn-backend-tests/remote`):
/// a third run, with [`REMOTE_ENV`] set, sends every op of the suites over
/// WebSocket on loopback to a server of fused Flex in the test process.
/// Sharing the build costs the remote run only burn-remote's own crates.
///
/// The facade's tests of backend extensions under Fusion
/// (`extension_fusion`) run on that build too: it already has fused Flex.
const ROUTER_FEATURES: &str =
    "burn-backend-tests/router,burn-backend-tests/fusion,burn-backend-tests/remote,burn/extension";
/// The variable that selects the remote device in that build.
const REMOTE_ENV: (&str, &str) = ("BURN_BACKEND_TESTS_REMOTE", "1");
/// The executables of that run: the suites at f32 (the other dtypes'
/// executables run on plain Flex in the workspace run; the layers under
/// test do not depend on the dtype, and each executable costs minutes of
/// release build on CI's two cores).
const ROUTER_TESTS: [&str; 8] = [
    "--test",
    "tensor",
    "--test",
    "autodiff",
    "--test",
    "checkpointing",
    "--test",
    "extension_fusion",
];
/// The executables of the remote run (checkpointing is the autodiff
/// layer's, which the router run already covers on the same build).
const REMOTE_TESTS: [&str; 4] = ["--test", "tensor", "--test", "autodiff"];
/// Linted on top of [`FLEX_FEATURES`]: the code behind the `fusion` and
/// remote features (not part of the workspace test run).
const CLIPPY_EXTRA: &str = "burn/fusion,burn-backend-tests/fusion,burn/remote-server,burn-backend-tests/remote,burn/cubecl,burn/template";

/// The example crates whose kernels need a GPU runtime (WGPU): left out of
/// the Flex runs, whose build has no CubeCL, and tested (and linted) in the
/// WGPU run, on lavapipe in CI.
const GPU_EXAMPLES: [&str; 2] = ["custom-cubecl-kernel", "custom-wgpu-kernel"];
const EXCLUDE_GPU_EXAMPLES: [&str; 4] =
    ["--exclude", GPU_EXAMPLES[0], "--exclude", GPU_EXAMPLES[1]];

/// The f32 suites on a CubeCL runtime without the Fusion decorator.
fn no_fusion(features: &'static str) -> Vec<&'static str> {
    vec![
        "test",
        "--release",
        "-p",
        "burn-backend-tests",
        "-p",
        "burn-cubecl",
        "--features",
        features,
        "--test",
        "tensor",
        "--test",
        "autodiff",
    ]
}

/// One `cargo` command of the tests step, with the environment it needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestRun {
    /// Variables set for the command.
    pub env: Vec<(&'static str, &'static str)>,
    /// The arguments to `cargo`.
    pub args: Vec<&'static str>,
}

impl TestRun {
    fn new(args: Vec<&'static str>) -> Self {
        Self {
            env: Vec::new(),
            args,
        }
    }
}

impl Backend {
    pub const SUPPORTED: [Backend; 3] = [Backend::Flex, Backend::Wgpu, Backend::Cuda];

    pub fn name(self) -> &'static str {
        match self {
            Backend::Flex => "flex",
            Backend::Wgpu => "wgpu",
            Backend::Cuda => "cuda",
        }
    }

    pub fn from_name(name: &str) -> Result<Self, String> {
        Self::SUPPORTED
            .into_iter()
            .find(|backend| backend.name() == name)
            .ok_or_else(|| {
                let supported: Vec<&str> = Self::SUPPORTED.iter().map(|b| b.name()).collect();
                format!(
                    "unsupported backend `{name}`; supported backends: {}",
                    supported.join(", ")
                )
            })
    }

    /// The `cargo` commands of the tests step, in order: the backend's
    /// tests, then for Flex the shared suites through the router onto fused
    /// Flex, then (same build) through a remote device served by fused Flex.
    pub fn test_commands(self) -> Vec<TestRun> {
        match self {
            Backend::Flex => {
                let suites = vec![
                    "test",
                    "--release",
                    "-p",
                    "burn-backend-tests",
                    "-p",
                    "burn",
                    "--features",
                    ROUTER_FEATURES,
                ];
                let mut router = suites.clone();
                router.extend(ROUTER_TESTS);
                let mut remote = suites;
                remote.extend(REMOTE_TESTS);
                vec![
                    TestRun::new(self.test_command().to_vec()),
                    TestRun::new(router),
                    TestRun {
                        env: vec![REMOTE_ENV],
                        args: remote,
                    },
                ]
            }
            // Then the f32 suites without fusion, each kernel launched on
            // its own. burn-cubecl keeps its `fusion` feature (unused
            // there) so that its build, the longest, is shared.
            // Then, on the same build, the facade's test of a backend
            // extension with a `#[cube]` kernel of its own (the facade's
            // `wgpu` is what gives it `burn::cubecl` and `Cube`).
            Backend::Wgpu => {
                let mut extension = self.test_command().to_vec();
                extension.extend([
                    "-p",
                    "burn",
                    "--test",
                    "extension_cube",
                    "--test",
                    "extension_template",
                ]);
                vec![
                    TestRun::new(self.test_command().to_vec()),
                    TestRun::new(extension),
                    TestRun::new(no_fusion(
                        "burn-backend-tests/wgpu,burn-cubecl/wgpu,burn-cubecl/fusion",
                    )),
                ]
            }
            Backend::Cuda => vec![
                TestRun::new(self.test_command().to_vec()),
                TestRun::new(no_fusion(
                    "burn-backend-tests/cuda,burn-cubecl/cuda,burn-cubecl/fusion",
                )),
            ],
        }
    }

    /// Arguments to `cargo` that run the tests for this backend.
    pub fn test_command(self) -> &'static [&'static str] {
        match self {
            // Crates whose tests need a backend get it as a feature; the
            // shared suite of burn-backend-tests runs on the same build.
            Backend::Flex => &[
                "test",
                "--workspace",
                "--exclude",
                GPU_EXAMPLES[0],
                "--exclude",
                GPU_EXAMPLES[1],
                "--release",
                "--features",
                FLEX_FEATURES,
            ],
            // The shared suites on the runtime under the Fusion decorator
            // (the facade's default for GPUs), the backend's own tests, its
            // fused kernels' included, and the domain crates' tests on a
            // WGPU device (their f64 cases skip: WGPU has none).
            Backend::Wgpu => &[
                "test",
                "--release",
                "-p",
                "burn-backend-tests",
                "-p",
                "burn-cubecl",
                "-p",
                "burn-signal",
                "-p",
                "burn-linalg",
                "-p",
                "burn-vision",
                "-p",
                GPU_EXAMPLES[0],
                "-p",
                GPU_EXAMPLES[1],
                "--features",
                "burn-backend-tests/wgpu,burn-backend-tests/fusion,burn-cubecl/wgpu,burn-cubecl/fusion,burn/wgpu,burn/extension,burn/cubecl,burn/template,burn-signal/wgpu,burn-linalg/wgpu,burn-vision/wgpu",
            ],
            Backend::Cuda => &[
                "test",
                "--release",
                "-p",
                "burn-backend-tests",
                "-p",
                "burn-cubecl",
                "--features",
                "burn-backend-tests/cuda,burn-backend-tests/fusion,burn-cubecl/cuda,burn-cubecl/fusion",
            ],
        }
    }

    /// The `--features` of the clippy step: Flex's, plus the runtime's for
    /// the CubeCL backends (never `--all-features`: the CubeCL `cpu` runtime
    /// downloads LLVM while building).
    pub fn clippy_features(self) -> String {
        let runtime = match self {
            Backend::Flex => return format!("{FLEX_FEATURES},{CLIPPY_EXTRA}"),
            Backend::Wgpu => "wgpu",
            Backend::Cuda => "cuda",
        };
        let extra: Vec<String> = [
            "burn-cubecl",
            "burn-dispatch",
            "burn-tensor",
            "burn",
            "burn-backend-tests",
        ]
        .iter()
        .map(|krate| format!("{krate}/{runtime}"))
        .collect();
        format!("{FLEX_FEATURES},{CLIPPY_EXTRA},{}", extra.join(","))
    }
}

/// `cargo run-checks`: every step, in order, stopping at the first failure.
pub fn run_all(backend: Backend) -> Result<(), String> {
    println!(
        "run-checks: backend {} in {}",
        backend.name(),
        runner::workspace_root().display()
    );
    let steps = StepKind::ALL
        .into_iter()
        .map(|kind| kind.into_step(backend))
        .collect();
    runner::run_steps("run-checks", steps)
}

/// `cargo xtask check <step>`: a single step.
pub fn run_one(kind: StepKind, backend: Backend) -> Result<(), String> {
    let title = format!("check {}", kind.name());
    runner::run_steps(&title, vec![kind.into_step(backend)])
}

fn format() -> StepResult {
    runner::run(&mut cargo(&["fmt", "--all", "--", "--check"]))
        .map_err(|err| format!("{err}; run `cargo fmt --all` to fix the formatting"))?;
    Ok(Outcome::Passed)
}

fn typos() -> StepResult {
    let path = match tools::ensure(&tools::TYPOS)? {
        Availability::Ready(path) => path,
        Availability::NoNetwork(reason) => return Ok(skip_notice(reason)),
    };
    runner::run(&mut runner::command(path, &[])).map_err(|err| {
        format!("{err}; fix the spelling, or allow the word in _typos.toml if it is intended")
    })?;
    Ok(Outcome::Passed)
}

fn deny() -> StepResult {
    match tools::ensure(&tools::CARGO_DENY)? {
        Availability::Ready(_) => {}
        Availability::NoNetwork(reason) => return Ok(skip_notice(reason)),
    }
    runner::run(&mut cargo(&[
        "deny", "check", "licenses", "bans", "sources",
    ]))
    .map_err(|err| format!("{err}; see deny.toml for the policy"))?;

    let advisories = runner::run_captured(&mut cargo(&["deny", "check", "advisories"]))?;
    if advisories.success {
        return Ok(Outcome::Passed);
    }
    if advisory_database_unavailable(&advisories.output) {
        let reason = "licenses, bans and sources passed; advisories skipped because the \
                      advisory database could not be fetched (no network)";
        println!("notice: {reason}");
        return Ok(Outcome::PassedWithNotice(reason.to_string()));
    }
    Err(advisories.failure)
}

/// True when `cargo deny check advisories` failed because it could not fetch
/// or open its database, rather than because it found an advisory.
fn advisory_database_unavailable(output: &str) -> bool {
    let lower = output.to_lowercase();
    let about_database = lower.contains("advisory database") || lower.contains("advisory-db");
    let fetch_failed = ["fetch", "clone", "failed to open", "unable to open"]
        .iter()
        .any(|sign| lower.contains(sign));
    tools::looks_like_no_network(output) || (about_database && fetch_failed)
}

fn clippy(backend: Backend) -> StepResult {
    // With the backend's features enabled, so the code behind them (tests
    // and examples that need a device included) is linted too.
    let features = backend.clippy_features();
    let mut args = vec!["clippy", "--workspace", "--all-targets"];
    if backend == Backend::Flex {
        args.extend(EXCLUDE_GPU_EXAMPLES);
    }
    args.extend(["--features", &features, "--", "-D", "warnings"]);
    runner::run(&mut cargo(&args))?;
    Ok(Outcome::Passed)
}

fn no_std() -> StepResult {
    let crates_dir = runner::workspace_root().join("crates");
    let (present, missing): (Vec<&str>, Vec<&str>) = NO_STD_CRATES
        .iter()
        .partition(|name| crates_dir.join(name).join("Cargo.toml").is_file());

    if !missing.is_empty() {
        println!(
            "notice: skipping no_std crates that do not exist yet: {}",
            missing.join(", ")
        );
    }
    if present.is_empty() {
        return Ok(Outcome::Skipped(
            "none of the no_std crates exist yet".to_string(),
        ));
    }

    let mut args = vec!["build"];
    for name in &present {
        args.extend(["-p", name]);
    }
    args.push("--no-default-features");
    runner::run(&mut cargo(&args))?;
    Ok(Outcome::Passed)
}

fn tests(backend: Backend) -> StepResult {
    println!("backend: {}", backend.name());
    for run in backend.test_commands() {
        let mut command = cargo(&run.args);
        command.envs(run.env.iter().copied());
        runner::run(&mut command)?;
    }
    Ok(Outcome::Passed)
}

fn skip_notice(reason: String) -> Outcome {
    println!("notice: skipping this step: {reason}");
    Outcome::Skipped(reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_names_round_trip() {
        for step in StepKind::ALL {
            assert_eq!(StepKind::from_name(step.name()), Ok(step));
        }
    }

    #[test]
    fn steps_run_in_the_documented_order() {
        assert_eq!(
            StepKind::names(),
            ["format", "typos", "deny", "clippy", "no-std", "tests"]
        );
    }

    #[test]
    fn flex_is_the_default_backend() {
        assert_eq!(Backend::default(), Backend::Flex);
        assert_eq!(Backend::from_name("flex"), Ok(Backend::Flex));
    }

    #[test]
    fn unknown_backend_error_lists_the_supported_ones() {
        let err = Backend::from_name("tpu").unwrap_err();
        assert!(err.contains("`tpu`"), "{err}");
        assert!(
            err.contains("supported backends: flex, wgpu, cuda"),
            "{err}"
        );
    }

    #[test]
    fn backend_names_round_trip() {
        for backend in Backend::SUPPORTED {
            assert_eq!(Backend::from_name(backend.name()), Ok(backend));
        }
        assert_eq!(Backend::from_name("wgpu"), Ok(Backend::Wgpu));
        assert_eq!(Backend::from_name("cuda"), Ok(Backend::Cuda));
    }

    #[test]
    fn cubecl_runtimes_test_the_shared_suites_and_the_backend() {
        assert_eq!(
            Backend::Wgpu.test_command().join(" "),
            "test --release -p burn-backend-tests -p burn-cubecl -p burn-signal -p burn-linalg \
             -p burn-vision -p custom-cubecl-kernel -p custom-wgpu-kernel --features burn-backend-tests/wgpu,burn-backend-tests/fusion,\
             burn-cubecl/wgpu,burn-cubecl/fusion,burn/wgpu,burn/extension,burn/cubecl,\
             burn/template,burn-signal/wgpu,burn-linalg/wgpu,burn-vision/wgpu"
        );
        assert_eq!(
            Backend::Cuda.test_command().join(" "),
            "test --release -p burn-backend-tests -p burn-cubecl \
             --features burn-backend-tests/cuda,burn-backend-tests/fusion,\
             burn-cubecl/cuda,burn-cubecl/fusion"
        );
        // WGPU's extension test shares the fused build.
        let wgpu = Backend::Wgpu.test_commands();
        assert_eq!(wgpu[1].args[..wgpu[0].args.len()], wgpu[0].args[..]);
        assert!(
            wgpu[1]
                .args
                .join(" ")
                .ends_with("-p burn --test extension_cube --test extension_template")
        );
        for backend in [Backend::Wgpu, Backend::Cuda] {
            let commands = backend.test_commands();
            assert_eq!(commands.len(), if backend == Backend::Wgpu { 3 } else { 2 });
            let plain = commands.last().unwrap().args.join(" ");
            assert!(!plain.contains("burn-backend-tests/fusion"), "{plain}");
            // The same burn-cubecl build as the fused run.
            assert!(plain.contains("burn-cubecl/fusion"), "{plain}");
            assert!(plain.ends_with("--test tensor --test autodiff"), "{plain}");
        }
        assert!(Backend::Flex.test_command().contains(&"--workspace"));
    }

    #[test]
    fn flex_tests_also_run_the_suites_through_the_router() {
        let commands = Backend::Flex.test_commands();
        assert_eq!(commands.len(), 3);
        let router = commands[1].args.join(" ");
        assert!(router.contains("-p burn-backend-tests"), "{router}");
        assert!(router.contains("burn-backend-tests/router"), "{router}");
        assert!(router.contains("burn-backend-tests/fusion"), "{router}");
        assert!(
            router.ends_with("--test checkpointing --test extension_fusion"),
            "{router}"
        );
        assert!(router.contains("-p burn ") && router.contains("burn/extension"));
        assert!(FLEX_FEATURES.contains("burn/router") && FLEX_FEATURES.contains("burn/capture"));
    }

    #[test]
    fn flex_tests_run_the_suites_on_a_remote_device_from_the_router_build() {
        let commands = Backend::Flex.test_commands();
        let (router, remote) = (&commands[1], &commands[2]);
        assert!(router.env.is_empty());
        assert_eq!(remote.env, vec![("BURN_BACKEND_TESTS_REMOTE", "1")]);
        // One build: the same features, so cargo reuses the router's.
        assert_eq!(router.args[..8], remote.args[..8]);
        let remote = remote.args.join(" ");
        assert!(remote.contains("burn-backend-tests/remote"), "{remote}");
        assert!(
            remote.ends_with("--test tensor --test autodiff"),
            "{remote}"
        );
    }

    #[test]
    fn clippy_lints_burn_cubecl_with_the_runtime() {
        let flex = Backend::Flex.clippy_features();
        assert!(!flex.contains("burn-cubecl"), "{flex}");
        let wgpu = Backend::Wgpu.clippy_features();
        assert!(wgpu.starts_with(&flex), "{wgpu}");
        assert!(wgpu.contains("burn-cubecl/wgpu"), "{wgpu}");
        assert!(wgpu.contains("burn-backend-tests/wgpu"), "{wgpu}");
        assert!(!wgpu.contains("cuda"), "{wgpu}");
        assert!(Backend::Cuda.clippy_features().contains("burn-cubecl/cuda"));
        for backend in Backend::SUPPORTED {
            // `cpu` downloads LLVM while building: never enabled here.
            let features = backend.clippy_features();
            assert!(!features.contains("/cpu"), "{features}");
            assert!(!backend.test_command().contains(&"--all-features"));
        }
    }

    #[test]
    fn advisory_fetch_failures_are_told_apart_from_findings() {
        assert!(advisory_database_unavailable(
            "error: failed to fetch advisory database https://github.com/rustsec/advisory-db"
        ));
        assert!(!advisory_database_unavailable(
            "error[vulnerability]: Use-after-free in some-crate\n advisories FAILED"
        ));
    }
}
