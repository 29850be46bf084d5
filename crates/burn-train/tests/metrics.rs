//! The built-in metrics on small batches whose values are worked out by
//! hand in the comments.

use burn_tensor::{Device, Int, Tensor};
use burn_train::metric::{
    AccuracyMetric, AurocMetric, ClassReduction, ClassificationInput, FBetaScoreMetric,
    LearningRateMetric, LossInput, LossMetric, Metric, MetricMetadata, Numeric, PrecisionMetric,
    Progress, RecallMetric, TopKAccuracyMetric,
};

fn input(rows: &[&[f32]], targets: &[i64]) -> ClassificationInput {
    let device = Device::flex();
    let classes = rows[0].len();
    let flat: Vec<f32> = rows.iter().flat_map(|r| r.iter().copied()).collect();
    let outputs = Tensor::<1>::from_floats(flat.as_slice(), &device).reshape([rows.len(), classes]);
    let targets = Tensor::<1, Int>::from_data(targets, &device);
    ClassificationInput::new(outputs, targets)
}

fn meta() -> MetricMetadata {
    MetricMetadata::default()
}

fn assert_close(actual: f64, expected: f64) {
    assert!(
        (actual - expected).abs() < 1e-6,
        "expected {expected}, got {actual}"
    );
}

#[test]
fn accuracy_counts_argmax_hits_and_skips_padding() {
    // argmax [1, 0, 1] against targets [1, 1, 1]: 2 of 3.
    let batch = input(&[&[0.1, 0.9], &[0.8, 0.2], &[0.3, 0.7]], &[1, 1, 1]);
    let mut metric = AccuracyMetric::new();
    let entry = metric.update(&batch, &meta());
    assert_close(metric.value(), 200.0 / 3.0);
    assert_eq!(entry.name, "Accuracy");

    // With targets [1, 0, 1] and pad token 0 only samples 0 and 2 count, both hits.
    let batch = input(&[&[0.1, 0.9], &[0.8, 0.2], &[0.3, 0.7]], &[1, 0, 1]);
    let mut metric = AccuracyMetric::new().with_pad_token(0);
    metric.update(&batch, &meta());
    assert_close(metric.value(), 100.0);
}

#[test]
fn accuracy_epoch_value_weights_batches_by_counted_samples() {
    let mut metric = AccuracyMetric::new();
    // 1 of 1, then 0 of 3: the epoch is 1 of 4 = 25 %, not the mean 50 %.
    metric.update(&input(&[&[0.0, 1.0]], &[1]), &meta());
    metric.update(
        &input(&[&[0.0, 1.0], &[0.0, 1.0], &[0.0, 1.0]], &[0, 0, 0]),
        &meta(),
    );
    assert_close(metric.running_value(), 25.0);
    metric.clear();
    assert!(metric.running_value().is_nan());
}

#[test]
fn top_k_counts_targets_within_the_k_best_and_ties_as_hits() {
    // Row 0: target score 0.2, two scores above it -> rank 2, miss for k = 2.
    // Row 1: target score 0.1, two above -> miss.
    // Row 2: target (class 1) 0.4 ties class 0, none strictly above -> hit.
    let batch = input(
        &[&[0.5, 0.3, 0.2], &[0.1, 0.2, 0.7], &[0.4, 0.4, 0.2]],
        &[2, 0, 1],
    );
    let mut top2 = TopKAccuracyMetric::new(2);
    top2.update(&batch, &meta());
    assert_close(top2.value(), 100.0 / 3.0);
    assert_eq!(top2.name(), "Top-2 Accuracy");

    // Top-3 of 3 classes always hits.
    let mut top3 = TopKAccuracyMetric::new(3);
    top3.update(&batch, &meta());
    assert_close(top3.value(), 100.0);
}

/// Targets [0,0,1,1,2,2], predictions [0,1,1,1,2,0]:
/// class 0: tp 1, fp 1, fn 1 -> P 1/2, R 1/2, F1 1/2
/// class 1: tp 2, fp 1, fn 0 -> P 2/3, R 1,   F1 4/5
/// class 2: tp 1, fp 0, fn 1 -> P 1,   R 1/2, F1 2/3
fn three_class_batch() -> ClassificationInput {
    let onehot =
        |c: usize| -> Vec<f32> { (0..3).map(|i| if i == c { 1.0 } else { 0.0 }).collect() };
    let rows: Vec<Vec<f32>> = [0, 1, 1, 1, 2, 0].iter().map(|&c| onehot(c)).collect();
    let refs: Vec<&[f32]> = rows.iter().map(|r| r.as_slice()).collect();
    input(&refs, &[0, 0, 1, 1, 2, 2])
}

#[test]
fn precision_recall_f1_macro_and_micro() {
    let batch = three_class_batch();
    let mut p = PrecisionMetric::new().with_reduction(ClassReduction::Macro);
    let mut r = RecallMetric::new().with_reduction(ClassReduction::Macro);
    let mut f = FBetaScoreMetric::f1().with_reduction(ClassReduction::Macro);
    p.update(&batch, &meta());
    r.update(&batch, &meta());
    f.update(&batch, &meta());
    assert_close(p.value(), 100.0 * (0.5 + 2.0 / 3.0 + 1.0) / 3.0);
    assert_close(r.value(), 100.0 * (0.5 + 1.0 + 0.5) / 3.0);
    assert_close(f.value(), 100.0 * (0.5 + 0.8 + 2.0 / 3.0) / 3.0);
    assert_eq!(p.name(), "Precision (macro)");

    // Micro: 4 tp, 2 fp, 2 fn -> all three are 4/6, the accuracy.
    let mut p = PrecisionMetric::new();
    let mut r = RecallMetric::new();
    let mut f = FBetaScoreMetric::f1();
    p.update(&batch, &meta());
    r.update(&batch, &meta());
    f.update(&batch, &meta());
    for value in [p.value(), r.value(), f.value()] {
        assert_close(value, 400.0 / 6.0);
    }
}

#[test]
fn binary_outputs_use_the_threshold_and_report_the_positive_class() {
    // Scores [0.9, 0.8, 0.4, 0.2], targets [1, 0, 1, 1] -> predictions [1, 1, 0, 0]:
    // tp 1, fp 1, fn 2 -> P 1/2, R 1/3, F1 = 2PR/(P+R) = 0.4,
    // F2 = 5PR/(4P+R) = (5/6)/(7/3) = 5/14.
    let batch = input(&[&[0.9], &[0.8], &[0.4], &[0.2]], &[1, 0, 1, 1]);
    let mut p = PrecisionMetric::new();
    let mut r = RecallMetric::new();
    let mut f1 = FBetaScoreMetric::f1();
    let mut f2 = FBetaScoreMetric::new(2.0);
    for m in [&mut f1, &mut f2] {
        m.update(&batch, &meta());
    }
    p.update(&batch, &meta());
    r.update(&batch, &meta());
    assert_close(p.value(), 50.0);
    assert_close(r.value(), 100.0 / 3.0);
    assert_close(f1.value(), 40.0);
    assert_close(f2.value(), 500.0 / 14.0);
    assert_eq!(p.name(), "Precision");

    // A threshold of 0.3 makes sample 2 positive: tp 2, fp 1 -> P 2/3.
    let mut p = PrecisionMetric::new().with_threshold(0.3);
    p.update(&batch, &meta());
    assert_close(p.value(), 200.0 / 3.0);
}

#[test]
fn precision_epoch_value_comes_from_summed_counts() {
    // Batch A: [0.9, 0.8] vs [1, 0] -> tp 1, fp 1 (P 1/2).
    // Batch B: [0.7, 0.1] vs [1, 0] -> tp 1, fp 0 (P 1).
    // Epoch: tp 2, fp 1 -> 2/3, not the batch mean 3/4.
    let mut p = PrecisionMetric::new();
    p.update(&input(&[&[0.9], &[0.8]], &[1, 0]), &meta());
    p.update(&input(&[&[0.7], &[0.1]], &[1, 0]), &meta());
    assert_close(p.value(), 100.0);
    assert_close(p.running_value(), 200.0 / 3.0);
}

#[test]
fn auroc_binary_with_ties_and_one_vs_rest() {
    // scikit-learn's example: scores [0.1, 0.4, 0.35, 0.8], targets [0, 0, 1, 1].
    // Positive/negative pairs: 0.35>0.1, 0.35<0.4, 0.8>0.1, 0.8>0.4 -> 3/4.
    let mut auroc = AurocMetric::new();
    auroc.update(
        &input(&[&[0.1], &[0.4], &[0.35], &[0.8]], &[0, 0, 1, 1]),
        &meta(),
    );
    assert_close(auroc.value(), 75.0);

    // A tie between the only positive and the only negative counts 1/2.
    let mut auroc = AurocMetric::new();
    auroc.update(&input(&[&[0.5], &[0.5]], &[0, 1]), &meta());
    assert_close(auroc.value(), 50.0);

    // Three classes; each row is a permutation of the logits {0, 1, 2}, so
    // within a column the softmax orders samples as their logits (no ties,
    // which rounding could break either way):
    // rows [0,2,1], [1,0,2], [2,1,0] with targets [0, 2, 1].
    // Class 0 column (0, 1, 2): its positive, sample 0, is lowest -> 0.
    // Class 1 column (2, 0, 1): positive sample 2 (1) beats sample 1 (0)
    // and loses to sample 0 (2) -> 1/2.
    // Class 2 column (1, 2, 0): positive sample 1 is highest -> 1.
    // Macro mean: (0 + 1/2 + 1) / 3 = 1/2.
    let mut auroc = AurocMetric::new();
    auroc.update(
        &input(
            &[&[0.0, 2.0, 1.0], &[1.0, 0.0, 2.0], &[2.0, 1.0, 0.0]],
            &[0, 2, 1],
        ),
        &meta(),
    );
    assert_close(auroc.value(), 50.0);

    // The epoch value pools the samples of every batch: batches
    // [0.1 (t0), 0.35 (t1)] and [0.4 (t0), 0.8 (t1)] pool to the first example.
    let mut auroc = AurocMetric::new();
    auroc.update(&input(&[&[0.1], &[0.35]], &[0, 1]), &meta());
    auroc.update(&input(&[&[0.4], &[0.8]], &[0, 1]), &meta());
    assert_close(auroc.running_value(), 75.0);
}

#[test]
fn loss_epoch_value_weights_by_batch_size() {
    let device = Device::flex();
    let mut loss = LossMetric::new();
    let at = |processed| MetricMetadata {
        progress: Progress {
            items_processed: processed,
            items_total: 6,
        },
        ..MetricMetadata::default()
    };
    // 4 items at loss 1, then 2 items at loss 4: (4·1 + 2·4) / 6 = 2.
    loss.update(&LossInput::new(Tensor::from_floats([1.0], &device)), &at(4));
    loss.update(&LossInput::new(Tensor::from_floats([4.0], &device)), &at(6));
    assert_close(loss.value(), 4.0);
    assert_close(loss.running_value(), 2.0);
}

#[test]
fn learning_rate_reads_the_metadata() {
    let mut lr = LearningRateMetric::new();
    let entry = lr.update(
        &(),
        &MetricMetadata {
            lr: Some(0.01),
            ..MetricMetadata::default()
        },
    );
    assert_close(lr.value(), 0.01);
    assert_eq!(entry.serialized, "0.01");
}
