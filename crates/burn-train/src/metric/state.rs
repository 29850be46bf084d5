//! Helpers for writing numeric metrics: [`NumericMetricState`], a running
//! mean weighted by item count, and [`FormatOptions`], how its values are
//! shown.

use std::string::String;

use super::{MetricName, NumericEntry, SerializedEntry, format_float};

/// How a numeric metric's values are shown: its name, a unit, decimals.
#[derive(Clone, Debug)]
pub struct FormatOptions {
    name: MetricName,
    unit: Option<String>,
    precision: Option<usize>,
}

impl FormatOptions {
    /// The options of metric `name`: no unit, every decimal.
    pub fn new(name: MetricName) -> Self {
        Self {
            name,
            unit: None,
            precision: None,
        }
    }

    /// Shows `unit` after the values.
    pub fn unit(mut self, unit: &str) -> Self {
        self.unit = Some(unit.to_string());
        self
    }

    /// Shows `precision` decimals.
    pub fn precision(mut self, precision: usize) -> Self {
        self.precision = Some(precision);
        self
    }

    /// The metric's name.
    pub fn name(&self) -> &MetricName {
        &self.name
    }

    /// The unit, if any.
    pub fn unit_value(&self) -> &Option<String> {
        &self.unit
    }

    /// The decimals, if fixed.
    pub fn precision_value(&self) -> Option<usize> {
        self.precision
    }

    /// `value` with the options' decimals and unit.
    pub(crate) fn show(&self, value: f64) -> String {
        let number = match self.precision {
            Some(precision) => format_float(value, precision),
            None => format!("{value}"),
        };
        match &self.unit {
            Some(unit) => format!("{number} {unit}"),
            None => number,
        }
    }
}

/// The state of a metric whose epoch value is the mean of its batch values
/// weighted by the items each was measured over (loss, accuracy).
///
/// The batch value is shown with the running epoch value:
/// `"0.23 (epoch 0.28)"`. Batch updates are logged as
/// [`NumericEntry::Aggregated`] (value and count), the epoch value as
/// [`NumericEntry::Final`].
///
/// ```
/// use std::sync::Arc;
/// use burn_train::metric::NumericEntry;
/// use burn_train::metric::state::{FormatOptions, NumericMetricState};
///
/// let mut state = NumericMetricState::new();
/// state.update(1.0, 1); // 1 item at 1.0
/// state.update(0.0, 3); // 3 items at 0.0
/// let entry = state.compute_update(FormatOptions::new(Arc::new("Loss".into())).precision(2));
/// assert_eq!(entry.formatted, "0.00 (epoch 0.25)");
/// assert_eq!(entry.serialized, "0,3");
/// assert_eq!(state.final_value(), NumericEntry::Final(0.25));
/// ```
#[derive(Clone, Debug)]
pub struct NumericMetricState {
    sum: f64,
    count: usize,
    current: f64,
    current_count: usize,
}

impl Default for NumericMetricState {
    fn default() -> Self {
        Self::new()
    }
}

impl NumericMetricState {
    /// An empty state.
    pub fn new() -> Self {
        Self {
            sum: 0.0,
            count: 0,
            current: f64::NAN,
            current_count: 0,
        }
    }

    /// Forgets every value.
    pub fn reset(&mut self) {
        *self = Self::new();
    }

    /// Records `value`, measured over `count` items (a batch size, or 1 for
    /// a value per batch). A zero count records the value without weighing
    /// in the epoch mean.
    pub fn update(&mut self, value: f64, count: usize) {
        self.current = value;
        self.current_count = count;
        if count > 0 {
            self.sum += value * count as f64;
            self.count += count;
        }
    }

    /// The entry of the last update.
    pub fn compute_update(&self, format: FormatOptions) -> SerializedEntry {
        SerializedEntry::new(
            format!(
                "{} (epoch {})",
                format.show(self.current),
                format.show(self.mean())
            ),
            self.current_value().serialize(),
        )
    }

    /// The entry of the epoch value.
    pub fn compute_final(&self, format: FormatOptions) -> SerializedEntry {
        SerializedEntry::new(format.show(self.mean()), self.final_value().serialize())
    }

    /// The last update, with its count.
    pub fn current_value(&self) -> NumericEntry {
        NumericEntry::Aggregated {
            aggregated_value: self.current,
            count: self.current_count,
        }
    }

    /// The weighted mean so far, with the items it covers.
    pub fn running_value(&self) -> NumericEntry {
        NumericEntry::Aggregated {
            aggregated_value: self.mean(),
            count: self.count,
        }
    }

    /// The weighted mean so far, as the epoch value.
    pub fn final_value(&self) -> NumericEntry {
        NumericEntry::Final(self.mean())
    }

    /// NaN before the first counted update.
    fn mean(&self) -> f64 {
        if self.count == 0 {
            f64::NAN
        } else {
            self.sum / self.count as f64
        }
    }
}
