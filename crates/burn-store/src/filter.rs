//! [`PathFilter`]: which tensors a save or load touches, by module path.

use std::fmt;
use std::sync::Arc;

use regex::Regex;

type Predicate = dyn Fn(&str, &str) -> bool + Send + Sync;

/// Selects tensors by their module path (`"encoder.layers.0.weight"`).
///
/// A path passes when it matches at least one *include* rule (or there is
/// none) and no *exclude* rule. Rules are regular expressions (searched,
/// so anchor them with `^…$` for a whole-path match), globs over dotted
/// paths (`*` within one segment, `**` across segments, `?` one character),
/// exact paths, or predicates given the path and the container path
/// (`"Struct:Model.Vec.Struct:Linear"`).
///
/// ```
/// use burn_store::PathFilter;
///
/// let filter = PathFilter::new()
///     .with_glob("encoder.**")
///     .with_full_path("head.weight")
///     .without_regex(r"\.bias$");
/// assert!(filter.matches("encoder.layers.0.weight"));
/// assert!(filter.matches("head.weight"));
/// assert!(!filter.matches("encoder.layers.0.bias"));
/// assert!(!filter.matches("decoder.weight"));
///
/// let only_linear = PathFilter::new().with_predicate(|_path, containers| containers.ends_with("Struct:Linear"));
/// assert!(only_linear.matches_with_container("fc.weight", "Struct:Model.Struct:Linear"));
/// ```
#[derive(Clone, Default)]
pub struct PathFilter {
    include: Vec<Rule>,
    exclude: Vec<Rule>,
    nothing: bool,
}

#[derive(Clone)]
enum Rule {
    Regex(Regex),
    Glob(String, Regex),
    Exact(String),
    Predicate(Arc<Predicate>),
}

impl Rule {
    fn matches(&self, path: &str, containers: &str) -> bool {
        match self {
            Rule::Regex(re) | Rule::Glob(_, re) => re.is_match(path),
            Rule::Exact(exact) => exact == path,
            Rule::Predicate(p) => p(path, containers),
        }
    }
}

impl PathFilter {
    /// A filter with no rule: every path passes.
    pub fn new() -> Self {
        Self::default()
    }

    /// Every path passes (the same as [`new`](Self::new)).
    pub fn all() -> Self {
        Self::default()
    }

    /// No path passes, whatever rules are added.
    pub fn none() -> Self {
        Self {
            nothing: true,
            ..Self::default()
        }
    }

    /// Removes every rule, so that every path passes again.
    pub fn match_all(self) -> Self {
        Self::default()
    }

    /// Includes paths the regular expression matches (searched, not anchored).
    ///
    /// # Panics
    /// If `pattern` is not a valid regular expression; see
    /// [`try_with_regex`](Self::try_with_regex).
    pub fn with_regex(self, pattern: impl AsRef<str>) -> Self {
        let pattern = pattern.as_ref();
        self.try_with_regex(pattern)
            .unwrap_or_else(|e| panic!("PathFilter::with_regex: invalid pattern `{pattern}`: {e}"))
    }

    /// Includes paths the regular expression matches.
    pub fn try_with_regex(mut self, pattern: impl AsRef<str>) -> Result<Self, regex::Error> {
        self.include
            .push(Rule::Regex(Regex::new(pattern.as_ref())?));
        Ok(self)
    }

    /// Includes the paths each regular expression matches.
    ///
    /// # Panics
    /// If a pattern is not a valid regular expression.
    pub fn with_regexes<I, S>(self, patterns: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        patterns.into_iter().fold(self, Self::with_regex)
    }

    /// Excludes paths the regular expression matches.
    ///
    /// # Panics
    /// If `pattern` is not a valid regular expression.
    pub fn without_regex(mut self, pattern: impl AsRef<str>) -> Self {
        let pattern = pattern.as_ref();
        let re = Regex::new(pattern).unwrap_or_else(|e| {
            panic!("PathFilter::without_regex: invalid pattern `{pattern}`: {e}")
        });
        self.exclude.push(Rule::Regex(re));
        self
    }

    /// Includes paths the glob matches (the whole path).
    pub fn with_glob(mut self, glob: impl AsRef<str>) -> Self {
        self.include.push(glob_rule(glob.as_ref()));
        self
    }

    /// Excludes paths the glob matches (the whole path).
    pub fn without_glob(mut self, glob: impl AsRef<str>) -> Self {
        self.exclude.push(glob_rule(glob.as_ref()));
        self
    }

    /// Includes exactly `path`.
    pub fn with_full_path(mut self, path: impl Into<String>) -> Self {
        self.include.push(Rule::Exact(path.into()));
        self
    }

    /// Includes exactly each of `paths`.
    pub fn with_full_paths<I, S>(self, paths: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        paths.into_iter().fold(self, Self::with_full_path)
    }

    /// Excludes exactly `path`.
    pub fn without_full_path(mut self, path: impl Into<String>) -> Self {
        self.exclude.push(Rule::Exact(path.into()));
        self
    }

    /// Includes paths for which `predicate(path, container_path)` holds.
    pub fn with_predicate<F>(mut self, predicate: F) -> Self
    where
        F: Fn(&str, &str) -> bool + Send + Sync + 'static,
    {
        self.include.push(Rule::Predicate(Arc::new(predicate)));
        self
    }

    /// Excludes paths for which `predicate(path, container_path)` holds.
    pub fn without_predicate<F>(mut self, predicate: F) -> Self
    where
        F: Fn(&str, &str) -> bool + Send + Sync + 'static,
    {
        self.exclude.push(Rule::Predicate(Arc::new(predicate)));
        self
    }

    /// Whether `path` passes (predicates see an empty container path).
    pub fn matches(&self, path: &str) -> bool {
        self.matches_with_container(path, "")
    }

    /// Whether `path`, inside the containers `container_path`, passes.
    pub fn matches_with_container(&self, path: &str, container_path: &str) -> bool {
        if self.nothing {
            return false;
        }
        let included =
            self.include.is_empty() || self.include.iter().any(|r| r.matches(path, container_path));
        included && !self.exclude.iter().any(|r| r.matches(path, container_path))
    }

    /// Whether the filter has no rule (every path passes).
    pub fn is_empty(&self) -> bool {
        !self.nothing && self.include.is_empty() && self.exclude.is_empty()
    }

    /// The number of rules.
    pub fn criteria_count(&self) -> usize {
        self.include.len() + self.exclude.len()
    }
}

/// A glob over dotted paths as an anchored regular expression.
fn glob_rule(glob: &str) -> Rule {
    let mut re = String::from("^");
    let mut chars = glob.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '*' if chars.peek() == Some(&'*') => {
                chars.next();
                re.push_str(".*");
            }
            '*' => re.push_str(r"[^.]*"),
            '?' => re.push_str(r"[^.]"),
            c => re.push_str(&regex::escape(c.encode_utf8(&mut [0; 4]))),
        }
    }
    re.push('$');
    let compiled = Regex::new(&re).expect("an escaped glob is a valid regular expression");
    Rule::Glob(glob.to_owned(), compiled)
}

impl fmt::Debug for PathFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PathFilter({self})")
    }
}

impl fmt::Display for PathFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.nothing {
            return f.write_str("nothing");
        }
        if self.is_empty() {
            return f.write_str("everything");
        }
        let describe = |rule: &Rule| match rule {
            Rule::Regex(re) => format!("regex {:?}", re.as_str()),
            Rule::Glob(glob, _) => format!("glob {glob:?}"),
            Rule::Exact(path) => format!("path {path:?}"),
            Rule::Predicate(_) => "a predicate".to_owned(),
        };
        let include: Vec<String> = self.include.iter().map(describe).collect();
        let exclude: Vec<String> = self.exclude.iter().map(describe).collect();
        if !include.is_empty() {
            write!(f, "any of [{}]", include.join(", "))?;
        }
        if !exclude.is_empty() {
            write!(f, " except [{}]", exclude.join(", "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_respect_segments() {
        let f = PathFilter::new().with_glob("layers.*.weight");
        assert!(f.matches("layers.0.weight"));
        assert!(!f.matches("layers.0.attn.weight"));
        assert!(!f.matches("xlayers.0.weight"));
        let f = PathFilter::new().with_glob("layers.**.weight");
        assert!(f.matches("layers.0.attn.weight"));
        let f = PathFilter::new().with_glob("fc?.bias");
        assert!(f.matches("fc1.bias") && !f.matches("fc.bias"));
    }

    #[test]
    fn none_and_exclusions() {
        assert!(!PathFilter::none().with_glob("**").matches("a"));
        let f = PathFilter::new().without_full_path("a.b");
        assert!(f.matches("a.c") && !f.matches("a.b"));
        assert_eq!(f.criteria_count(), 1);
        assert!(PathFilter::new().try_with_regex("(").is_err());
    }
}
