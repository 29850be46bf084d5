//! The [`Metric`] and [`Numeric`] traits, what a metric is told about
//! training ([`MetricMetadata`]), what it reports ([`SerializedEntry`],
//! [`NumericEntry`]) and how it is described to loggers and renderers
//! ([`MetricDefinition`]).

use std::string::String;
use std::sync::Arc;

use burn_core::data::dataloader::Progress;
use burn_optim::LearningRate;
use burn_tensor::TensorReadError;

/// Where training stands when a metric is updated.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricMetadata {
    /// Items processed in the current pass, out of its total.
    pub progress: Progress,
    /// The iteration (batch) within the pass, from 1, when known.
    pub iteration: Option<usize>,
    /// The learning rate of the update this batch made (training only).
    ///
    /// Burn 0.23 carries a per-parameter-group `ModuleLearningRate` here;
    /// this workspace's optimizers take one rate per step, so this is that
    /// rate.
    pub lr: Option<LearningRate>,
}

/// A metric's name, shared cheaply between the processor, the store and the
/// renderers.
pub type MetricName = Arc<String>;

/// Identifies a metric across events, loggers and runs: its name, which is
/// unique among the metrics of a run.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MetricId {
    id: Arc<String>,
}

impl MetricId {
    /// The id `id`.
    pub fn new(id: Arc<String>) -> Self {
        Self { id }
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.id
    }
}

/// What kind of values a metric produces.
#[derive(Clone, Debug, PartialEq)]
pub enum MetricAttributes {
    /// A number, with a unit and a direction of improvement.
    Numeric(NumericAttributes),
    /// Text only.
    None,
}

/// The unit and the direction of improvement of a numeric metric.
#[derive(Clone, Debug, PartialEq)]
pub struct NumericAttributes {
    /// The unit, shown beside the values (`"%"`, `"iter/sec"`).
    pub unit: Option<String>,
    /// Whether larger values are better (accuracy) or smaller (loss).
    pub higher_is_better: bool,
}

impl Default for NumericAttributes {
    fn default() -> Self {
        Self {
            unit: None,
            higher_is_better: true,
        }
    }
}

impl From<NumericAttributes> for MetricAttributes {
    fn from(attributes: NumericAttributes) -> Self {
        MetricAttributes::Numeric(attributes)
    }
}

/// A metric as loggers and renderers learn of it when training starts.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricDefinition {
    /// The metric's id.
    pub metric_id: MetricId,
    /// Its name.
    pub name: MetricName,
    /// A short description, if it has one.
    pub description: Option<String>,
    /// Numeric or text.
    pub attributes: MetricAttributes,
}

impl MetricDefinition {
    /// The definition of `metric` under `metric_id`.
    pub fn new<Me: Metric>(metric_id: MetricId, metric: &Me) -> Self {
        Self {
            metric_id,
            name: metric.name(),
            description: metric.description(),
            attributes: metric.attributes(),
        }
    }
}

/// A metric: fed one batch at a time, computed at the end of each pass of
/// an epoch, then cleared.
///
/// `Input` is what the metric reads; an output type provides it through
/// [`Adaptor`]. Give each metric an input type of its own (as the built-in
/// ones do), so an output's adaptors never clash.
pub trait Metric: Send + Sync + Clone {
    /// What the metric reads from an output.
    type Input;

    /// The metric's name, unique among the metrics of a run: a metric that
    /// exists with several parameters (top-k accuracy) names them.
    fn name(&self) -> MetricName;

    /// A short description.
    fn description(&self) -> Option<String> {
        None
    }

    /// Numeric or text (text by default).
    fn attributes(&self) -> MetricAttributes {
        MetricAttributes::None
    }

    /// Adds one batch and returns the entry to show and log.
    ///
    /// # Errors
    /// When reading the input's tensors fails; the state may then hold part
    /// of the batch or none of it.
    fn update(
        &mut self,
        item: &Self::Input,
        metadata: &MetricMetadata,
    ) -> Result<SerializedEntry, TensorReadError>;

    /// The value over everything since the last [`clear`](Metric::clear):
    /// the epoch value of the pass that just ended.
    ///
    /// # Errors
    /// When reading accumulated tensors fails.
    fn compute(&mut self) -> Result<SerializedEntry, TensorReadError>;

    /// Forgets everything since the last clear.
    fn clear(&mut self);
}

/// A metric whose values are numbers: plotted, aggregated per epoch, and
/// usable for early stopping and checkpoint selection.
///
/// A metric that only accumulates during the epoch and computes once at its
/// end (AUROC) returns `None` from [`value`](Numeric::value) and
/// [`running_value`](Numeric::running_value) until then.
pub trait Numeric {
    /// The value of the last update, if the metric has one.
    fn value(&self) -> Option<NumericEntry>;
    /// The value over the pass so far, if the metric has one.
    fn running_value(&self) -> Option<NumericEntry>;
    /// The epoch value, after [`Metric::compute`].
    fn final_value(&self) -> NumericEntry;
}

/// Turns an output into a metric's input: implement `Adaptor<LossInput>`
/// for a model's output type to make [`LossMetric`](super::LossMetric)
/// available to it, and so on.
pub trait Adaptor<T> {
    /// The metric input this output provides.
    fn adapt(&self) -> T;
}

/// Every output provides the unit input of the metrics that read only the
/// metadata or the machine (learning rate, speed, CPU, memory).
impl<T> Adaptor<()> for T {
    fn adapt(&self) {}
}

/// An update as text: one form for people, one for the log files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SerializedEntry {
    /// What the renderers show.
    pub formatted: String,
    /// What the logs store (a [`NumericEntry`] serialization for numeric
    /// metrics).
    pub serialized: String,
}

impl SerializedEntry {
    /// The text a metric logs when it has no value for this batch.
    pub const NOT_AVAILABLE: &'static str = "N/A";

    /// An entry from its two forms.
    pub fn new(formatted: String, serialized: String) -> Self {
        Self {
            formatted,
            serialized,
        }
    }

    /// The entry of a metric with no value yet (`unit` is shown beside it).
    pub fn not_available(unit: Option<&str>) -> Self {
        let na = Self::NOT_AVAILABLE;
        let formatted = match unit {
            Some(unit) => format!("{na} {unit}"),
            None => na.to_string(),
        };
        Self::new(formatted, na.to_string())
    }

    /// Whether this entry holds no value.
    pub fn is_not_available(&self) -> bool {
        self.serialized.is_empty() || self.serialized == Self::NOT_AVAILABLE
    }
}

/// One update of one metric, as the processor hands it on.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricEntry {
    /// The metric it belongs to.
    pub metric_id: MetricId,
    /// The update.
    pub serialized_entry: SerializedEntry,
}

impl MetricEntry {
    /// The entry `serialized_entry` of metric `metric_id`.
    pub fn new(metric_id: MetricId, serialized_entry: SerializedEntry) -> Self {
        Self {
            metric_id,
            serialized_entry,
        }
    }
}

/// A numeric value as logged: one value, a value measured over `count`
/// items (so means can be weighted), or the epoch's final value.
///
/// The log form is `"v"`, `"v,count"` and `"v,final"`.
#[derive(Clone, Debug, PartialEq)]
pub enum NumericEntry {
    /// One value.
    Value(f64),
    /// A value measured over `count` items.
    Aggregated {
        /// The value.
        aggregated_value: f64,
        /// How many items it was measured over.
        count: usize,
    },
    /// The epoch value, computed once at the end of a pass.
    Final(f64),
}

impl NumericEntry {
    /// The number itself.
    pub fn current(&self) -> f64 {
        match self {
            NumericEntry::Value(value) | NumericEntry::Final(value) => *value,
            NumericEntry::Aggregated {
                aggregated_value, ..
            } => *aggregated_value,
        }
    }

    /// The log form.
    pub fn serialize(&self) -> String {
        match self {
            NumericEntry::Value(value) => format!("{value}"),
            NumericEntry::Aggregated {
                aggregated_value,
                count,
            } => format!("{aggregated_value},{count}"),
            NumericEntry::Final(value) => format!("{value},final"),
        }
    }

    /// Parses the log form.
    ///
    /// ```
    /// use burn_train::metric::NumericEntry;
    ///
    /// assert_eq!(NumericEntry::deserialize("0.5"), Ok(NumericEntry::Value(0.5)));
    /// assert_eq!(
    ///     NumericEntry::deserialize("2,8"),
    ///     Ok(NumericEntry::Aggregated { aggregated_value: 2.0, count: 8 })
    /// );
    /// assert_eq!(NumericEntry::deserialize("1.5,final"), Ok(NumericEntry::Final(1.5)));
    /// assert!(NumericEntry::deserialize("N/A").is_err());
    /// ```
    pub fn deserialize(entry: &str) -> Result<Self, String> {
        let number = |text: &str| {
            text.trim()
                .parse::<f64>()
                .map_err(|err| format!("numeric entry {entry:?}: {err}"))
        };
        let mut parts = entry.split(',');
        let (first, second, rest) = (parts.next(), parts.next(), parts.next());
        match (first, second, rest) {
            (Some(value), None, None) => Ok(NumericEntry::Value(number(value)?)),
            (Some(value), Some("final"), None) => Ok(NumericEntry::Final(number(value)?)),
            (Some(value), Some(count), None) => Ok(NumericEntry::Aggregated {
                aggregated_value: number(value)?,
                count: count
                    .trim()
                    .parse()
                    .map_err(|err| format!("numeric entry {entry:?}: count: {err}"))?,
            }),
            _ => Err(format!(
                "numeric entry {entry:?}: expected `v`, `v,count` or `v,final`"
            )),
        }
    }

    /// Whether `self` is better than `other` in the given direction.
    pub fn better_than(&self, other: &NumericEntry, higher_is_better: bool) -> bool {
        if higher_is_better {
            self.current() > other.current()
        } else {
            self.current() < other.current()
        }
    }
}

/// `float` with `precision` decimals, in scientific notation when it is so
/// small that the decimals would show only zeros.
///
/// ```
/// use burn_train::metric::format_float;
///
/// assert_eq!(format_float(91.256, 2), "91.26");
/// assert_eq!(format_float(0.00042, 2), "4.20e-4");
/// ```
pub fn format_float(float: f64, precision: usize) -> String {
    let smallest_shown = 10_f64.powi(-(precision as i32));
    let magnitude = float.abs();
    if magnitude != 0.0 && magnitude < smallest_shown {
        format!("{float:.precision$e}")
    } else {
        format!("{float:.precision$}")
    }
}
