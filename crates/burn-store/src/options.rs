//! The options every store shares, the steps of a load and a save, and the
//! builder methods each store exposes (written once, as a macro).
//!
//! A load: the file's tensors (views, unread) → [`SplitAdapter`] →
//! [`KeyRemapper`] → contiguous indices (optional) → by name, a duplicate
//! being an error → [`ModuleSnapshot::apply`] with the filter and the
//! load adapter → the strictness check. A save: [`ModuleSnapshot::collect`]
//! with the filter and the save adapter → [`KeyRemapper`] → the writer,
//! which reads each tensor when it reaches it.

use std::collections::BTreeMap;

use crate::{
    ApplyResult, KeyRemapper, ModuleAdapter, ModuleSnapshot, PathFilter, SplitAdapter, StoreError,
    StoreTensor, map_indices_contiguous_except,
};

pub(crate) struct StoreOptions {
    pub filter: PathFilter,
    pub remapper: KeyRemapper,
    pub split: SplitAdapter,
    pub from_adapter: Option<Box<dyn ModuleAdapter>>,
    pub to_adapter: Option<Box<dyn ModuleAdapter>>,
    pub validate: bool,
    pub allow_partial: bool,
    pub strict: bool,
    pub skip_enum_variants: bool,
    pub map_indices_contiguous: bool,
    pub keep_indices: PathFilter,
    pub metadata: BTreeMap<String, String>,
    pub overwrite: bool,
}

impl Default for StoreOptions {
    fn default() -> Self {
        Self {
            filter: PathFilter::new(),
            remapper: KeyRemapper::new(),
            split: SplitAdapter::new(),
            from_adapter: None,
            to_adapter: None,
            validate: true,
            allow_partial: false,
            strict: false,
            skip_enum_variants: false,
            map_indices_contiguous: false,
            keep_indices: PathFilter::none(),
            metadata: BTreeMap::new(),
            overwrite: true,
        }
    }
}

impl StoreOptions {
    /// The source tensors by name, after splitting, remapping and index
    /// renumbering.
    pub fn prepare_source(
        &self,
        tensors: Vec<StoreTensor>,
        file: &str,
    ) -> Result<BTreeMap<String, StoreTensor>, StoreError> {
        let tensors = if self.split.is_empty() {
            tensors
        } else {
            self.split.split(tensors)?
        };
        let (tensors, _) = self.remapper.remap(tensors);
        let tensors = if self.map_indices_contiguous {
            map_indices_contiguous_except(tensors, |prefix| self.keep_indices.matches(prefix)).0
        } else {
            tensors
        };
        by_name(tensors, file)
    }

    /// Applies `tensors` to `module`, then the strictness check.
    pub fn apply<M: ModuleSnapshot>(
        &self,
        module: &mut M,
        tensors: &BTreeMap<String, StoreTensor>,
        file: &str,
    ) -> Result<ApplyResult, StoreError> {
        self.apply_with(module, tensors, file, self.from_adapter.clone())
    }

    /// [`apply`](Self::apply) with `adapter` instead of the load adapter.
    pub fn apply_with<M: ModuleSnapshot>(
        &self,
        module: &mut M,
        tensors: &BTreeMap<String, StoreTensor>,
        file: &str,
        adapter: Option<Box<dyn ModuleAdapter>>,
    ) -> Result<ApplyResult, StoreError> {
        let filter = (!self.filter.is_empty()).then(|| self.filter.clone());
        let result = module.apply(
            tensors.values().cloned(),
            filter,
            adapter,
            self.skip_enum_variants,
        );
        self.check(result, file)
    }

    fn check(&self, result: ApplyResult, file: &str) -> Result<ApplyResult, StoreError> {
        let refused = self.validate && !result.errors.is_empty();
        let missing = !self.allow_partial && !result.missing.is_empty();
        let strict = self.strict && !result.is_complete();
        if refused || missing || strict {
            return Err(StoreError::Apply {
                file: file.to_owned(),
                result: Box::new(result),
            });
        }
        Ok(result)
    }

    /// The module's tensors as the file will name them.
    pub fn collect<M: ModuleSnapshot>(&self, module: &M) -> Vec<StoreTensor> {
        let filter = (!self.filter.is_empty()).then(|| self.filter.clone());
        let tensors = module.collect(filter, self.to_adapter.clone(), self.skip_enum_variants);
        self.remapper.remap(tensors).0
    }
}

/// Tensors by name; a name given twice is an error.
pub(crate) fn by_name(
    tensors: Vec<StoreTensor>,
    file: &str,
) -> Result<BTreeMap<String, StoreTensor>, StoreError> {
    let mut map = BTreeMap::new();
    for tensor in tensors {
        let name = tensor.name().to_owned();
        if map.insert(name.clone(), tensor).is_some() {
            return Err(StoreError::DuplicateName {
                file: file.to_owned(),
                name,
            });
        }
    }
    Ok(map)
}

/// The builder methods of a store with `options: StoreOptions` and
/// `cache: Option<BTreeMap<String, StoreTensor>>` fields.
macro_rules! store_builders {
    () => {
        /// Loads and saves only the module paths `filter` passes.
        pub fn filter(mut self, filter: $crate::PathFilter) -> Self {
            self.options.filter = filter;
            self
        }

        /// Also includes module paths the regular expression matches (see
        /// [`PathFilter::with_regex`](crate::PathFilter::with_regex), which
        /// panics on an invalid pattern).
        pub fn with_regex(mut self, pattern: impl AsRef<str>) -> Self {
            self.options.filter = self.options.filter.with_regex(pattern);
            self
        }

        /// Also includes module paths each regular expression matches.
        pub fn with_regexes<I, S>(mut self, patterns: I) -> Self
        where
            I: IntoIterator<Item = S>,
            S: AsRef<str>,
        {
            self.options.filter = self.options.filter.with_regexes(patterns);
            self
        }

        /// Also includes module paths the glob matches.
        pub fn with_glob(mut self, glob: impl AsRef<str>) -> Self {
            self.options.filter = self.options.filter.with_glob(glob);
            self
        }

        /// Also includes exactly `path`.
        pub fn with_full_path(mut self, path: impl Into<String>) -> Self {
            self.options.filter = self.options.filter.with_full_path(path);
            self
        }

        /// Also includes exactly each of `paths`.
        pub fn with_full_paths<I, S>(mut self, paths: I) -> Self
        where
            I: IntoIterator<Item = S>,
            S: Into<String>,
        {
            self.options.filter = self.options.filter.with_full_paths(paths);
            self
        }

        /// Also includes paths for which `predicate(path, container_path)` holds.
        pub fn with_predicate<F>(mut self, predicate: F) -> Self
        where
            F: Fn(&str, &str) -> bool + Send + Sync + 'static,
        {
            self.options.filter = self.options.filter.with_predicate(predicate);
            self
        }

        /// Drops every filter rule: all paths.
        pub fn match_all(mut self) -> Self {
            self.options.filter = $crate::PathFilter::new();
            self
        }

        /// Renames tensors with `remapper` (stored names → module paths
        /// when loading, module paths → stored names when saving).
        pub fn remap(mut self, remapper: $crate::KeyRemapper) -> Self {
            self.options.remapper = remapper;
            self.cache = None;
            self
        }

        /// Appends the rename rule `from` → `to` (a regular expression and
        /// its replacement).
        ///
        /// # Panics
        /// If `from` is not a valid regular expression (build a
        /// [`KeyRemapper`](crate::KeyRemapper) to handle the error).
        pub fn with_key_remapping(mut self, from: impl AsRef<str>, to: impl Into<String>) -> Self {
            let from = from.as_ref();
            self.options.remapper = core::mem::take(&mut self.options.remapper)
                .add_pattern(from, to)
                .unwrap_or_else(|e| panic!("with_key_remapping: invalid pattern `{from}`: {e}"));
            self.cache = None;
            self
        }

        /// Splits packed source tensors before they are matched (see
        /// [`SplitAdapter`](crate::SplitAdapter)); joined to earlier rules.
        pub fn with_split(mut self, split: $crate::SplitAdapter) -> Self {
            self.options.split = core::mem::take(&mut self.options.split).and(split);
            self.cache = None;
            self
        }

        /// Whether a tensor refused for a parameter (shape, kind, dtype, a
        /// read error) fails the load (default `true`).
        pub fn validate(mut self, validate: bool) -> Self {
            self.options.validate = validate;
            self
        }

        /// Whether module parameters the source lacks are tolerated
        /// (default `false`): they keep their values.
        pub fn allow_partial(mut self, allow: bool) -> Self {
            self.options.allow_partial = allow;
            self
        }

        /// Strict mode (default off): any refused, missing or unused
        /// tensor fails the load, whatever `validate` and `allow_partial`
        /// say.
        pub fn strict(mut self, strict: bool) -> Self {
            self.options.strict = strict;
            self
        }

        /// Whether module paths leave out enum variant names.
        pub fn skip_enum_variants(mut self, skip: bool) -> Self {
            self.options.skip_enum_variants = skip;
            self
        }

        /// Whether index segments of source names are renumbered `0, 1, …`
        /// under each prefix (see [`map_indices_contiguous`](crate::map_indices_contiguous)).
        pub fn map_indices_contiguous(mut self, map: bool) -> Self {
            self.options.map_indices_contiguous = map;
            self.cache = None;
            self
        }

        /// Renumbers indices except under the prefixes the regular
        /// expression matches.
        ///
        /// # Panics
        /// If `pattern` is not a valid regular expression.
        pub fn map_indices_contiguous_except(mut self, pattern: impl AsRef<str>) -> Self {
            // The default keeps nothing (`PathFilter::none()`); the first
            // pattern starts a filter of its own.
            let keep =
                core::mem::replace(&mut self.options.keep_indices, $crate::PathFilter::new());
            let keep = if keep.criteria_count() == 0 {
                $crate::PathFilter::new()
            } else {
                keep
            };
            self.options.keep_indices = keep.with_regex(pattern);
            self.options.map_indices_contiguous = true;
            self.cache = None;
            self
        }

        /// The adapter tensors pass through when loading.
        pub fn with_from_adapter(mut self, adapter: impl $crate::ModuleAdapter + 'static) -> Self {
            self.options.from_adapter = Some(Box::new(adapter));
            self
        }

        /// The adapter tensors pass through when saving.
        pub fn with_to_adapter(mut self, adapter: impl $crate::ModuleAdapter + 'static) -> Self {
            self.options.to_adapter = Some(Box::new(adapter));
            self
        }

        /// Adds a metadata entry written with the file.
        pub fn metadata(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
            self.options.metadata.insert(key.into(), value.into());
            self
        }

        /// Removes every metadata entry (the defaults included).
        pub fn clear_metadata(mut self) -> Self {
            self.options.metadata.clear();
            self
        }

        /// Whether saving may replace an existing file (default `true`).
        pub fn overwrite(mut self, overwrite: bool) -> Self {
            self.options.overwrite = overwrite;
            self
        }
    };
}

pub(crate) use store_builders;
