//! The built-in metrics on small batches whose values are worked out by
//! hand in the comments.

use burn_core::data::dataloader::Progress;
use burn_tensor::{Bool, Device, Int, Tensor};
use burn_train::metric::{
    AccuracyInput, AccuracyMetric, AurocMetric, ClassReduction, ConfusionStatsInput,
    FBetaScoreMetric, LearningRateMetric, LossInput, LossMetric, Metric, MetricMetadata, Numeric,
    NumericEntry, PerplexityInput, PerplexityMetric, PrecisionMetric, RecallMetric,
    TopKAccuracyInput, TopKAccuracyMetric,
};

fn scores(rows: &[&[f32]]) -> Tensor<2> {
    let classes = rows[0].len();
    let flat: Vec<f32> = rows.iter().flat_map(|r| r.iter().copied()).collect();
    Tensor::<1>::from_floats(flat.as_slice(), &Device::flex()).reshape([rows.len(), classes])
}

fn targets(targets: &[i64]) -> Tensor<1, Int> {
    Tensor::<1, Int>::from_data(targets, &Device::flex())
}

/// Multi-hot targets of `classes` columns, one `true` per row.
fn labels(targets: &[usize], classes: usize) -> Tensor<2, Bool> {
    let flat: Vec<bool> = targets
        .iter()
        .flat_map(|&t| (0..classes).map(move |c| c == t))
        .collect();
    Tensor::<1, Bool>::from_data(flat.as_slice(), &Device::flex()).reshape([targets.len(), classes])
}

fn meta() -> MetricMetadata {
    MetricMetadata {
        progress: Progress::new(0, 0),
        iteration: None,
        lr: None,
    }
}

fn value(metric: &impl Numeric) -> f64 {
    metric.value().expect("a batch value").current()
}

fn running(metric: &impl Numeric) -> f64 {
    metric.running_value().expect("an epoch value").current()
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
    let rows: &[&[f32]] = &[&[0.1, 0.9], &[0.8, 0.2], &[0.3, 0.7]];
    let mut metric = AccuracyMetric::new();
    let entry = metric
        .update(
            &AccuracyInput::new(scores(rows), targets(&[1, 1, 1])),
            &meta(),
        )
        .unwrap();
    assert_close(value(&metric), 200.0 / 3.0);
    assert_eq!(metric.name().as_str(), "Accuracy");
    // Logged with its count, so epoch means can be weighted.
    assert_eq!(
        NumericEntry::deserialize(&entry.serialized),
        Ok(NumericEntry::Aggregated {
            aggregated_value: 200.0 / 3.0,
            count: 3
        })
    );

    // With targets [1, 0, 1] and pad token 0 only samples 0 and 2 count, both hits.
    let mut metric = AccuracyMetric::new().with_pad_token(0);
    metric
        .update(
            &AccuracyInput::new(scores(rows), targets(&[1, 0, 1])),
            &meta(),
        )
        .unwrap();
    assert_close(value(&metric), 100.0);
}

#[test]
fn accuracy_epoch_value_weights_batches_by_counted_samples() {
    let mut metric = AccuracyMetric::new();
    // 1 of 1, then 0 of 3: the epoch is 1 of 4 = 25 %, not the mean 50 %.
    let batch = |rows: &[&[f32]], t: &[i64]| AccuracyInput::new(scores(rows), targets(t));
    metric
        .update(&batch(&[&[0.0, 1.0]], &[1]), &meta())
        .unwrap();
    metric
        .update(
            &batch(&[&[0.0, 1.0], &[0.0, 1.0], &[0.0, 1.0]], &[0, 0, 0]),
            &meta(),
        )
        .unwrap();
    assert_close(running(&metric), 25.0);
    let epoch = metric.compute().unwrap();
    assert_eq!(
        NumericEntry::deserialize(&epoch.serialized),
        Ok(NumericEntry::Final(25.0))
    );
    metric.clear();
    assert!(running(&metric).is_nan());
}

#[test]
fn top_k_counts_targets_within_the_k_best_and_ties_as_hits() {
    // Row 0: target score 0.2, two scores above it -> rank 2, miss for k = 2.
    // Row 1: target score 0.1, two above -> miss.
    // Row 2: target (class 1) 0.4 ties class 0, none strictly above -> hit.
    let rows: &[&[f32]] = &[&[0.5, 0.3, 0.2], &[0.1, 0.2, 0.7], &[0.4, 0.4, 0.2]];
    let input = || TopKAccuracyInput::new(scores(rows), targets(&[2, 0, 1]));
    let mut top2 = TopKAccuracyMetric::new(2);
    top2.update(&input(), &meta()).unwrap();
    assert_close(value(&top2), 100.0 / 3.0);
    assert_ne!(top2.name(), TopKAccuracyMetric::new(3).name());

    // Top-3 of 3 classes always hits.
    let mut top3 = TopKAccuracyMetric::new(3);
    top3.update(&input(), &meta()).unwrap();
    assert_close(value(&top3), 100.0);
}

/// Targets [0,0,1,1,2,2], top-1 predictions [0,1,1,1,2,0]:
/// class 0: tp 1, fp 1, fn 1 -> P 1/2, R 1/2, F1 1/2
/// class 1: tp 2, fp 1, fn 0 -> P 2/3, R 1,   F1 4/5
/// class 2: tp 1, fp 0, fn 1 -> P 1,   R 1/2, F1 2/3
fn three_class_batch() -> ConfusionStatsInput {
    let onehot = |c: usize| -> Vec<f32> { (0..3).map(|i| f32::from(i == c)).collect() };
    let rows: Vec<Vec<f32>> = [0, 1, 1, 1, 2, 0].iter().map(|&c| onehot(c)).collect();
    let refs: Vec<&[f32]> = rows.iter().map(|r| r.as_slice()).collect();
    ConfusionStatsInput::new(scores(&refs), labels(&[0, 0, 1, 1, 2, 2], 3))
}

#[test]
fn precision_recall_f1_macro_and_micro() {
    let batch = three_class_batch();
    let mut p = PrecisionMetric::multiclass(1, ClassReduction::Macro);
    let mut r = RecallMetric::multiclass(1, ClassReduction::Macro);
    let mut f = FBetaScoreMetric::multiclass(1.0, 1, ClassReduction::Macro);
    p.update(&batch, &meta()).unwrap();
    r.update(&batch, &meta()).unwrap();
    f.update(&batch, &meta()).unwrap();
    assert_close(value(&p), 100.0 * (0.5 + 2.0 / 3.0 + 1.0) / 3.0);
    assert_close(value(&r), 100.0 * (0.5 + 1.0 + 0.5) / 3.0);
    assert_close(value(&f), 100.0 * (0.5 + 0.8 + 2.0 / 3.0) / 3.0);

    // Micro: 4 tp, 2 fp, 2 fn -> all three are 4/6, the accuracy.
    let mut p = PrecisionMetric::multiclass(1, ClassReduction::Micro);
    let mut r = RecallMetric::multiclass(1, ClassReduction::Micro);
    let mut f = FBetaScoreMetric::multiclass(1.0, 1, ClassReduction::Micro);
    p.update(&batch, &meta()).unwrap();
    r.update(&batch, &meta()).unwrap();
    f.update(&batch, &meta()).unwrap();
    for metric_value in [value(&p), value(&r), value(&f)] {
        assert_close(metric_value, 400.0 / 6.0);
    }
    // Each configuration has its own name.
    assert_ne!(
        p.name(),
        PrecisionMetric::multiclass(1, ClassReduction::Macro).name()
    );
}

#[test]
fn binary_outputs_use_the_threshold() {
    // Scores [0.9, 0.8, 0.4, 0.2], targets [1, 0, 1, 1] -> predictions [1, 1, 0, 0]:
    // tp 1, fp 1, fn 2 -> P 1/2, R 1/3, F1 = 2PR/(P+R) = 0.4,
    // F2 = 5PR/(4P+R) = (5/6)/(7/3) = 5/14.
    let positive =
        |t: &[bool]| Tensor::<1, Bool>::from_data(t, &Device::flex()).reshape([t.len(), 1]);
    let batch = ConfusionStatsInput::new(
        scores(&[&[0.9], &[0.8], &[0.4], &[0.2]]),
        positive(&[true, false, true, true]),
    );
    let mut p = PrecisionMetric::binary(0.5);
    let mut r = RecallMetric::binary(0.5);
    let mut f1 = FBetaScoreMetric::binary(1.0, 0.5);
    let mut f2 = FBetaScoreMetric::binary(2.0, 0.5);
    p.update(&batch, &meta()).unwrap();
    r.update(&batch, &meta()).unwrap();
    f1.update(&batch, &meta()).unwrap();
    f2.update(&batch, &meta()).unwrap();
    assert_close(value(&p), 50.0);
    assert_close(value(&r), 100.0 / 3.0);
    assert_close(value(&f1), 40.0);
    assert_close(value(&f2), 500.0 / 14.0);

    // A threshold of 0.3 makes sample 2 positive: tp 2, fp 1 -> P 2/3.
    let mut p = PrecisionMetric::binary(0.3);
    p.update(&batch, &meta()).unwrap();
    assert_close(value(&p), 200.0 / 3.0);
}

#[test]
fn multilabel_precision_counts_every_label() {
    // Scores [[0.9, 0.6], [0.2, 0.7]] at 0.5 predict [[1, 1], [0, 1]];
    // targets [[1, 0], [1, 1]]: label 0 tp 1, fn 1; label 1 tp 1, fp 1.
    // Micro precision 2/3, recall 2/3; macro precision (1 + 1/2) / 2.
    let batch = ConfusionStatsInput::new(
        scores(&[&[0.9, 0.6], &[0.2, 0.7]]),
        Tensor::<1, Bool>::from_data([true, false, true, true], &Device::flex()).reshape([2, 2]),
    );
    let mut micro = PrecisionMetric::multilabel(0.5, ClassReduction::Micro);
    let mut macro_ = PrecisionMetric::multilabel(0.5, ClassReduction::Macro);
    let mut recall = RecallMetric::multilabel(0.5, ClassReduction::Micro);
    micro.update(&batch, &meta()).unwrap();
    macro_.update(&batch, &meta()).unwrap();
    recall.update(&batch, &meta()).unwrap();
    assert_close(value(&micro), 200.0 / 3.0);
    assert_close(value(&macro_), 75.0);
    assert_close(value(&recall), 200.0 / 3.0);
}

#[test]
fn precision_epoch_value_comes_from_summed_counts() {
    // Batch A: [0.9, 0.8] vs [1, 0] -> tp 1, fp 1 (P 1/2).
    // Batch B: [0.7, 0.1] vs [1, 0] -> tp 1, fp 0 (P 1).
    // Epoch: tp 2, fp 1 -> 2/3, not the batch mean 3/4.
    let batch = |a: f32, b: f32| {
        ConfusionStatsInput::new(
            scores(&[&[a], &[b]]),
            Tensor::<1, Bool>::from_data([true, false], &Device::flex()).reshape([2, 1]),
        )
    };
    let mut p = PrecisionMetric::binary(0.5);
    p.update(&batch(0.9, 0.8), &meta()).unwrap();
    p.update(&batch(0.7, 0.1), &meta()).unwrap();
    assert_close(value(&p), 100.0);
    assert_close(running(&p), 200.0 / 3.0);
}

#[test]
fn auroc_binary_with_ties_and_one_vs_rest() {
    let binary = |s: &[f32], t: &[bool]| {
        let rows: Vec<&[f32]> = s.iter().map(std::slice::from_ref).collect();
        ConfusionStatsInput::new(
            scores(&rows),
            Tensor::<1, Bool>::from_data(t, &Device::flex()).reshape([t.len(), 1]),
        )
    };
    // scikit-learn's example: scores [0.1, 0.4, 0.35, 0.8], targets [0, 0, 1, 1].
    // Positive/negative pairs: 0.35>0.1, 0.35<0.4, 0.8>0.1, 0.8>0.4 -> 3/4.
    let mut auroc = AurocMetric::binary();
    auroc
        .update(
            &binary(&[0.1, 0.4, 0.35, 0.8], &[false, false, true, true]),
            &meta(),
        )
        .unwrap();
    assert_close(value(&auroc), 75.0);
    // The epoch value is only known at the end of the pass.
    assert!(auroc.running_value().is_none());

    // A tie between the only positive and the only negative counts 1/2.
    let mut auroc = AurocMetric::binary();
    auroc
        .update(&binary(&[0.5, 0.5], &[false, true]), &meta())
        .unwrap();
    assert_close(value(&auroc), 50.0);

    // Three classes; each row is a permutation of the logits {0, 1, 2}, so
    // within a column the softmax orders samples as their logits:
    // rows [0,2,1], [1,0,2], [2,1,0] with targets [0, 2, 1].
    // Class 0 column (0, 1, 2): its positive, sample 0, is lowest -> 0.
    // Class 1 column (2, 0, 1): positive sample 2 (1) beats sample 1 (0)
    // and loses to sample 0 (2) -> 1/2.
    // Class 2 column (1, 2, 0): positive sample 1 is highest -> 1.
    // Macro mean: (0 + 1/2 + 1) / 3 = 1/2.
    let mut auroc = AurocMetric::multiclass(ClassReduction::Macro);
    auroc
        .update(
            &ConfusionStatsInput::new(
                scores(&[&[0.0, 2.0, 1.0], &[1.0, 0.0, 2.0], &[2.0, 1.0, 0.0]]),
                labels(&[0, 2, 1], 3),
            ),
            &meta(),
        )
        .unwrap();
    assert_close(value(&auroc), 50.0);

    // The epoch value pools the samples of every batch: batches
    // [0.1 (t0), 0.35 (t1)] and [0.4 (t0), 0.8 (t1)] pool to the first example.
    let mut auroc = AurocMetric::binary();
    auroc
        .update(&binary(&[0.1, 0.35], &[false, true]), &meta())
        .unwrap();
    auroc
        .update(&binary(&[0.4, 0.8], &[false, true]), &meta())
        .unwrap();
    auroc.compute().unwrap();
    assert_close(auroc.final_value().current(), 75.0);
}

#[test]
fn perplexity_is_exp_of_the_mean_token_nll_over_the_epoch() {
    // Uniform logits over 4 tokens: every target has probability 1/4, the
    // perplexity is 4 whatever the targets.
    let mut metric = PerplexityMetric::new();
    let uniform = scores(&[&[0.0, 0.0, 0.0, 0.0], &[1.0, 1.0, 1.0, 1.0]]);
    metric
        .update(&PerplexityInput::new(uniform, targets(&[0, 3])), &meta())
        .unwrap();
    assert_close(value(&metric), 4.0);

    // Logits [ln 3, 0] put probability 3/4 on token 0 and 1/4 on token 1.
    // Batch 2: targets 0 and 1 -> nll ln(4/3) + ln 4.
    // Epoch: (2·ln 4 + ln(4/3) + ln 4) / 4 tokens; the pad token (2) is
    // left out of a third batch.
    let ln3 = 3f32.ln();
    let mut metric = PerplexityMetric::new().with_pad_token(2);
    metric
        .update(
            &PerplexityInput::new(
                scores(&[&[0.0, 0.0, -1e9], &[0.0, 0.0, -1e9]]),
                targets(&[0, 1]),
            ),
            &meta(),
        )
        .unwrap();
    metric
        .update(
            &PerplexityInput::new(
                scores(&[&[ln3, 0.0, -1e9], &[ln3, 0.0, -1e9]]),
                targets(&[0, 1]),
            ),
            &meta(),
        )
        .unwrap();
    metric
        .update(
            &PerplexityInput::new(scores(&[&[5.0, 0.0, 0.0]]), targets(&[2])),
            &meta(),
        )
        .unwrap();
    let ln = |x: f64| x.ln();
    let expected = ((ln(2.0) * 2.0 + ln(4.0 / 3.0) + ln(4.0)) / 4.0).exp();
    metric.compute().unwrap();
    assert!((metric.final_value().current() - expected).abs() < 1e-5);
}

#[test]
fn loss_epoch_value_weights_by_batch_size() {
    let device = Device::flex();
    let mut loss = LossMetric::new();
    let at = |processed| MetricMetadata {
        progress: Progress::new(processed, 6),
        iteration: None,
        lr: None,
    };
    // 4 items at loss 1, then 2 items at loss 4: (4·1 + 2·4) / 6 = 2.
    loss.update(&LossInput::new(Tensor::from_floats([1.0], &device)), &at(4))
        .unwrap();
    loss.update(&LossInput::new(Tensor::from_floats([4.0], &device)), &at(6))
        .unwrap();
    assert_close(value(&loss), 4.0);
    assert_close(running(&loss), 2.0);
    // A loss per item counts its items: mean 3 over 2 items.
    let mut loss = LossMetric::new();
    loss.update(
        &LossInput::new(Tensor::from_floats([2.0, 4.0], &device)),
        &meta(),
    )
    .unwrap();
    assert_eq!(
        loss.value(),
        Some(NumericEntry::Aggregated {
            aggregated_value: 3.0,
            count: 2
        })
    );
}

#[test]
fn learning_rate_reads_the_metadata() {
    let mut lr = LearningRateMetric::new();
    let entry = lr
        .update(
            &(),
            &MetricMetadata {
                lr: Some(0.01),
                ..meta()
            },
        )
        .unwrap();
    assert_close(value(&lr), 0.01);
    assert_eq!(entry.formatted, "0.01");
}
