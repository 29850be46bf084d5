//! [`ModulePath`]: the dotted path of the parameter being visited.

use core::fmt;
use std::string::String;
use std::vec::Vec;

/// The path of the current position in a traversal, kept by feeding it the
/// `enter_module` / `exit_module` calls of a visitor or mapper.
///
/// Inside a parameter hook it is that parameter's path: segments are field
/// names, element indices and enum variant names, joined with `'.'`
/// (`"encoder.layers.0.weight"`), which is how records name parameters.
///
/// ```
/// use burn_core::module::ModulePath;
///
/// let mut path = ModulePath::default();
/// path.enter("layers");
/// path.enter("0");
/// path.enter("weight");
/// assert_eq!(path.to_string(), "layers.0.weight");
/// path.exit();
/// assert_eq!(path.segments(), ["layers", "0"]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModulePath {
    segments: Vec<String>,
}

impl ModulePath {
    /// Descends into `name`.
    pub fn enter(&mut self, name: &str) {
        self.segments.push(name.into());
    }

    /// Comes back up one level.
    ///
    /// # Panics
    /// At the root: an `exit_module` without its `enter_module` is a bug in
    /// a hand-written `Module` impl.
    pub fn exit(&mut self) {
        self.segments
            .pop()
            .expect("ModulePath::exit at the root: exit_module without enter_module");
    }

    /// The segments from the root.
    pub fn segments(&self) -> &[String] {
        &self.segments
    }

    /// Whether this is the root.
    pub fn is_empty(&self) -> bool {
        self.segments.is_empty()
    }
}

impl fmt::Display for ModulePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, segment) in self.segments.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            f.write_str(segment)?;
        }
        Ok(())
    }
}
