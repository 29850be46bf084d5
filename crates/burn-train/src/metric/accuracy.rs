//! [`AccuracyMetric`] and [`TopKAccuracyMetric`].

use std::string::String;

use super::{
    ClassificationInput, HostScores, Metric, MetricEntry, MetricMetadata, Numeric, NumericState,
};

/// The share of samples whose highest score is the target class, in
/// percent. Samples whose target is the pad token (if one is set) are not
/// counted.
#[derive(Clone, Debug, Default)]
pub struct AccuracyMetric {
    state: NumericState,
    pad_token: Option<usize>,
}

impl AccuracyMetric {
    /// An accuracy metric counting every sample.
    pub fn new() -> Self {
        Self::default()
    }

    /// Ignores samples whose target is `pad_token`.
    pub fn with_pad_token(mut self, pad_token: usize) -> Self {
        self.pad_token = Some(pad_token);
        self
    }
}

impl Metric for AccuracyMetric {
    type Input = ClassificationInput;

    fn name(&self) -> String {
        "Accuracy".into()
    }

    fn update(&mut self, item: &ClassificationInput, _metadata: &MetricMetadata) -> MetricEntry {
        let host = item.to_host();
        let (correct, counted) = count_hits(&host, self.pad_token, |host, i, target| {
            host.argmax(i) as i64 == target
        });
        let name = self.name();
        update_percent(&mut self.state, &name, correct, counted)
    }

    fn clear(&mut self) {
        self.state.reset();
    }
}

impl Numeric for AccuracyMetric {
    fn value(&self) -> f64 {
        self.state.value()
    }

    fn running_value(&self) -> f64 {
        self.state.running_value()
    }
}

/// The share of samples whose target is among the `k` highest scores, in
/// percent. A target tied with the `k`-th score counts as a hit: its rank
/// is the number of classes scoring strictly higher.
#[derive(Clone, Debug)]
pub struct TopKAccuracyMetric {
    k: usize,
    state: NumericState,
    pad_token: Option<usize>,
}

impl TopKAccuracyMetric {
    /// Top-`k` accuracy.
    ///
    /// # Panics
    /// If `k` is 0.
    pub fn new(k: usize) -> Self {
        assert!(k > 0, "TopKAccuracyMetric::new: k must be at least 1");
        Self {
            k,
            state: NumericState::new(),
            pad_token: None,
        }
    }

    /// Ignores samples whose target is `pad_token`.
    pub fn with_pad_token(mut self, pad_token: usize) -> Self {
        self.pad_token = Some(pad_token);
        self
    }
}

impl Metric for TopKAccuracyMetric {
    type Input = ClassificationInput;

    fn name(&self) -> String {
        format!("Top-{} Accuracy", self.k)
    }

    fn update(&mut self, item: &ClassificationInput, _metadata: &MetricMetadata) -> MetricEntry {
        let host = item.to_host();
        let k = self.k;
        let (correct, counted) = count_hits(&host, self.pad_token, |host, i, target| {
            let row = host.row(i);
            match row.get(target as usize) {
                Some(&score) => row.iter().filter(|&&other| other > score).count() < k,
                None => false,
            }
        });
        let name = self.name();
        update_percent(&mut self.state, &name, correct, counted)
    }

    fn clear(&mut self) {
        self.state.reset();
    }
}

impl Numeric for TopKAccuracyMetric {
    fn value(&self) -> f64 {
        self.state.value()
    }

    fn running_value(&self) -> f64 {
        self.state.running_value()
    }
}

/// `(hits, counted)` over the samples whose target is not `pad_token`.
fn count_hits(
    host: &HostScores,
    pad_token: Option<usize>,
    hit: impl Fn(&HostScores, usize, i64) -> bool,
) -> (usize, usize) {
    let mut hits = 0;
    let mut counted = 0;
    for (i, &target) in host.targets.iter().enumerate() {
        if pad_token.is_some_and(|pad| target == pad as i64) {
            continue;
        }
        counted += 1;
        if hit(host, i, target) {
            hits += 1;
        }
    }
    (hits, counted)
}

/// Records `hits / counted` in percent, weighted by `counted`.
fn update_percent(
    state: &mut NumericState,
    name: &str,
    hits: usize,
    counted: usize,
) -> MetricEntry {
    let value = if counted == 0 {
        0.0
    } else {
        100.0 * hits as f64 / counted as f64
    };
    state.update(name, value, counted, " %")
}
