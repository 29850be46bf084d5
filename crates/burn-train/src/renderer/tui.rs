//! [`TuiMetricsRendererWrapper`]: the ratatui training dashboard.
//!
//! ```text
//! ┌ burn-train ─ epoch 3/10 ─ training ─ 00:00:12 ─ ↑↓ metric  ←→ history  q stop ┐
//! │ Metrics            │ Loss (recent: this epoch)                              │
//! │ > Loss             │  ⠉⠢⡀           train ── valid ──                        │
//! │   Accuracy         │     ⠈⠢⣀⣀⡀                                               │
//! │ train 0.23 (…)     │                                                        │
//! ├ Training ██████████████░░░░░░ 534/1258 items ─────────────────────────────────┤
//! ├ Total    ██████░░░░░░░░░░░░░░ epoch 3/10, about 00:00:30 left ────────────────┤
//! ```
//!
//! The dashboard draws at most ten times a second from the thread that
//! feeds it (the event processor's, not the training loop's), and reads the
//! keyboard at the same moments: ↑/↓ pick the plotted metric, ←/→ switch
//! between the recent history (the current epoch, batch by batch) and the
//! whole run, and `q` (or Ctrl-C, which raw mode turns into a key) asks the
//! learner to stop after the batch in progress. The terminal is taken on the
//! first draw and given back when the run ends, also when it ends with a
//! panic (ratatui's panic hook restores it). A
//! [`persistent`](TuiMetricsRendererWrapper::persistent) dashboard, or one
//! asked to [`manual_close`](MetricsRenderer::manual_close), stays on the
//! screen at the end until `q`.

use std::boxed::Box;
use std::string::String;
use std::time::{Duration, Instant};
use std::vec::Vec;

use burn_core::data::dataloader::Progress;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Axis, Block, Chart, Dataset, Gauge, GraphType, List, ListItem, ListState, Paragraph,
};
use ratatui::{DefaultTerminal, Frame};

use super::{
    EvaluationName, MetricState, MetricsRenderer, MetricsRendererEvaluation,
    MetricsRendererTraining,
};
use crate::learner::{Interrupter, LearnerSummary};
use crate::logger::{EvaluationProgressLogger, TrainingProgressLogger};
use crate::metric::{MetricAttributes, MetricDefinition, MetricId, NumericEntry};

/// How often the dashboard redraws, at most.
const REFRESH: Duration = Duration::from_millis(100);

/// The most points a plotted series keeps (older ones are thinned out).
const MAX_POINTS: usize = 4000;

/// Which span of history the plot shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum History {
    /// The current epoch, batch by batch.
    Recent,
    /// Every epoch of the run.
    Full,
}

/// What the run is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    Train,
    Valid,
    Test(String),
}

/// Which series an update goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Series {
    Train,
    Valid,
    Test,
}

/// One metric's text and plotted points.
#[derive(Clone, Debug)]
pub(crate) struct MetricView {
    pub(crate) id: MetricId,
    pub(crate) name: String,
    pub(crate) train_text: Option<String>,
    pub(crate) valid_text: Option<String>,
    pub(crate) test_text: Option<String>,
    /// `(x, value)` with `x` = epoch − 1 + progress through the pass.
    pub(crate) train_points: Vec<(f64, f64)>,
    pub(crate) valid_points: Vec<(f64, f64)>,
    pub(crate) numeric: bool,
}

/// The fraction of a pass done, in `[0, 1]` (1 for an empty pass).
fn fraction(progress: &Progress) -> f64 {
    if progress.items_total == 0 {
        1.0
    } else {
        (progress.items_processed as f64 / progress.items_total as f64).min(1.0)
    }
}

/// What the dashboard shows: everything it draws comes from here, so it
/// can be drawn to any ratatui backend (the tests use a `TestBackend`).
#[derive(Clone, Debug)]
pub(crate) struct Dashboard {
    pub(crate) metrics: Vec<MetricView>,
    pub(crate) selected: usize,
    pub(crate) history: History,
    pub(crate) phase: Phase,
    pub(crate) epoch: usize,
    pub(crate) epoch_total: usize,
    pub(crate) progress: Progress,
    pub(crate) started: Instant,
    pub(crate) stopping: bool,
    /// The run ended and the dashboard waits to be closed.
    pub(crate) done: bool,
}

impl Dashboard {
    pub(crate) fn new() -> Self {
        Self {
            metrics: Vec::new(),
            selected: 0,
            history: History::Recent,
            phase: Phase::Train,
            epoch: 1,
            epoch_total: 1,
            progress: Progress::new(0, 0),
            started: Instant::now(),
            stopping: false,
            done: false,
        }
    }

    fn x(&self) -> f64 {
        self.epoch.saturating_sub(1) as f64 + fraction(&self.progress)
    }

    fn view(&mut self, id: &MetricId) -> &mut MetricView {
        let index = match self.metrics.iter().position(|m| &m.id == id) {
            Some(index) => index,
            None => {
                self.metrics.push(MetricView {
                    id: id.clone(),
                    name: id.as_str().to_string(),
                    train_text: None,
                    valid_text: None,
                    test_text: None,
                    train_points: Vec::new(),
                    valid_points: Vec::new(),
                    numeric: false,
                });
                self.metrics.len() - 1
            }
        };
        &mut self.metrics[index]
    }

    pub(crate) fn register(&mut self, definition: &MetricDefinition) {
        let view = self.view(&definition.metric_id);
        view.name = definition.name.to_string();
        view.numeric = matches!(definition.attributes, MetricAttributes::Numeric(_));
    }

    pub(crate) fn update(&mut self, series: Series, state: MetricState) {
        let x = self.x();
        let entry = state.entry().clone();
        let view = self.view(&entry.metric_id);
        let text = Some(entry.serialized_entry.formatted.clone());
        // Batch values are plotted; an epoch's final value is only shown.
        let point = match &state {
            MetricState::Numeric(_, Some(value)) if !matches!(value, NumericEntry::Final(_)) => {
                Some(value.current())
                    .filter(|v| v.is_finite())
                    .map(|v| (x, v))
            }
            _ => None,
        };
        view.numeric |= matches!(state, MetricState::Numeric(..));
        let points = match series {
            Series::Train => {
                view.train_text = text;
                &mut view.train_points
            }
            Series::Valid => {
                view.valid_text = text;
                &mut view.valid_points
            }
            Series::Test => {
                view.test_text = text;
                return;
            }
        };
        if let Some(point) = point {
            points.push(point);
            if points.len() > MAX_POINTS {
                // Keep every other point: the curve keeps its shape and the
                // memory stays bounded over long runs.
                let thinned: Vec<_> = points.iter().step_by(2).copied().collect();
                *points = thinned;
            }
        }
    }

    /// Applies a key press; returns whether the user asked to stop.
    pub(crate) fn on_key(&mut self, code: KeyCode, modifiers: KeyModifiers) -> bool {
        let count = self.metrics.len().max(1);
        let quit = match code {
            KeyCode::Up => {
                self.selected = (self.selected + count - 1) % count;
                false
            }
            KeyCode::Down => {
                self.selected = (self.selected + 1) % count;
                false
            }
            KeyCode::Left | KeyCode::Right => {
                self.history = match self.history {
                    History::Recent => History::Full,
                    History::Full => History::Recent,
                };
                false
            }
            KeyCode::Char('q') | KeyCode::Char('Q') => true,
            KeyCode::Char('c') => modifiers.contains(KeyModifiers::CONTROL),
            _ => false,
        };
        if quit && !self.done {
            self.stopping = true;
        }
        quit
    }

    pub(crate) fn draw(&self, frame: &mut Frame) {
        let [header, body, train_gauge, total_gauge] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(6),
            Constraint::Length(3),
            Constraint::Length(3),
        ])
        .areas(frame.area());
        self.draw_header(frame, header);
        let [left, right] =
            Layout::horizontal([Constraint::Percentage(32), Constraint::Percentage(68)])
                .areas(body);
        self.draw_metrics(frame, left);
        self.draw_plot(frame, right);
        self.draw_progress(frame, train_gauge, total_gauge);
    }

    fn draw_header(&self, frame: &mut Frame, area: Rect) {
        let elapsed = self.started.elapsed().as_secs();
        let phase = match (self.stopping, self.done, &self.phase) {
            (_, true, _) => "done, press q to close".to_string(),
            (true, _, _) => "stopping after this batch".to_string(),
            (_, _, Phase::Train) => "training".to_string(),
            (_, _, Phase::Valid) => "validating".to_string(),
            (_, _, Phase::Test(name)) => format!("evaluating {name}"),
        };
        let line = Line::from(vec![
            Span::styled(
                " burn-train ",
                Style::default().fg(Color::Black).bg(Color::Yellow),
            ),
            Span::raw(format!(
                " epoch {}/{} │ {phase} │ {} │ ",
                self.epoch,
                self.epoch_total,
                clock(elapsed)
            )),
            Span::styled(
                "↑↓ metric  ←→ history  q stop",
                Style::default().fg(Color::DarkGray),
            ),
        ]);
        frame.render_widget(Paragraph::new(line), area);
    }

    fn draw_metrics(&self, frame: &mut Frame, area: Rect) {
        let mut items: Vec<ListItem> = Vec::new();
        for view in &self.metrics {
            let mut lines = vec![Line::from(Span::styled(
                view.name.clone(),
                Style::default().add_modifier(Modifier::BOLD),
            ))];
            if let Some(text) = &view.train_text {
                lines.push(Line::from(vec![
                    Span::styled("  train ", Style::default().fg(Color::Cyan)),
                    Span::raw(text.clone()),
                ]));
            }
            if let Some(text) = &view.valid_text {
                lines.push(Line::from(vec![
                    Span::styled("  valid ", Style::default().fg(Color::Magenta)),
                    Span::raw(text.clone()),
                ]));
            }
            if let Some(text) = &view.test_text {
                lines.push(Line::from(vec![
                    Span::styled("  test  ", Style::default().fg(Color::Green)),
                    Span::raw(text.clone()),
                ]));
            }
            items.push(ListItem::new(lines));
        }
        let list = List::new(items)
            .block(Block::bordered().title(" Metrics "))
            .highlight_symbol("> ")
            .highlight_style(Style::default().bg(Color::DarkGray));
        let mut state = ListState::default().with_selected(Some(
            self.selected.min(self.metrics.len().saturating_sub(1)),
        ));
        frame.render_stateful_widget(list, area, &mut state);
    }

    fn draw_plot(&self, frame: &mut Frame, area: Rect) {
        let Some(view) = self.metrics.get(self.selected) else {
            frame.render_widget(
                Paragraph::new("waiting for the first batch…")
                    .block(Block::bordered().title(" Plot ")),
                area,
            );
            return;
        };
        let from = match self.history {
            History::Recent => self.epoch.saturating_sub(1) as f64,
            History::Full => f64::NEG_INFINITY,
        };
        let train: Vec<(f64, f64)> = view
            .train_points
            .iter()
            .copied()
            .filter(|p| p.0 >= from)
            .collect();
        let valid: Vec<(f64, f64)> = view
            .valid_points
            .iter()
            .copied()
            .filter(|p| p.0 >= from)
            .collect();
        let span = match self.history {
            History::Recent => "recent: this epoch",
            History::Full => "full history",
        };
        let title = format!(" {} ({span}) ", view.name);
        let all = train.iter().chain(valid.iter());
        let (x_min, x_max, y_min, y_max) = all.fold(
            (
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::INFINITY,
                f64::NEG_INFINITY,
            ),
            |(a, b, c, d), &(x, y)| (a.min(x), b.max(x), c.min(y), d.max(y)),
        );
        if !view.numeric || !x_min.is_finite() {
            frame.render_widget(
                Paragraph::new("no numeric values to plot yet")
                    .block(Block::bordered().title(title)),
                area,
            );
            return;
        }
        let (x_min, x_max) = if x_max > x_min {
            (x_min, x_max)
        } else {
            (x_min, x_min + 1.0)
        };
        let pad = ((y_max - y_min) * 0.05).max(1e-9);
        let (y_min, y_max) = (y_min - pad, y_max + pad);
        let datasets = vec![
            Dataset::default()
                .name("train")
                .marker(symbols::Marker::Braille)
                .graph_type(GraphType::Line)
                .style(Style::default().fg(Color::Cyan))
                .data(&train),
            Dataset::default()
                .name("valid")
                .marker(symbols::Marker::Braille)
                .graph_type(GraphType::Line)
                .style(Style::default().fg(Color::Magenta))
                .data(&valid),
        ];
        let chart = Chart::new(datasets)
            .block(Block::bordered().title(title))
            .x_axis(
                Axis::default()
                    .title("epoch")
                    .bounds([x_min, x_max])
                    .labels([format!("{:.1}", x_min + 1.0), format!("{:.1}", x_max + 1.0)]),
            )
            .y_axis(
                Axis::default()
                    .bounds([y_min, y_max])
                    .labels([format!("{y_min:.3}"), format!("{y_max:.3}")]),
            );
        frame.render_widget(chart, area);
    }

    fn draw_progress(&self, frame: &mut Frame, pass: Rect, total: Rect) {
        let p = &self.progress;
        let pass_title = match &self.phase {
            Phase::Train => " Training ".to_string(),
            Phase::Valid => " Validation ".to_string(),
            Phase::Test(name) => format!(" Evaluation: {name} "),
        };
        let gauge = Gauge::default()
            .block(Block::bordered().title(pass_title))
            .gauge_style(Style::default().fg(Color::Green))
            .ratio(fraction(p))
            .label(format!("{}/{} items", p.items_processed, p.items_total));
        frame.render_widget(gauge, pass);

        let epochs = self.epoch_total.max(1) as f64;
        // Validation is counted as part of its epoch's end: the total moves
        // with training passes only.
        let done = match self.phase {
            Phase::Train => self.x(),
            _ => self.epoch as f64,
        };
        let ratio = (done / epochs).clamp(0.0, 1.0);
        let elapsed = self.started.elapsed().as_secs_f64();
        let eta = if ratio > 0.0 {
            elapsed / ratio - elapsed
        } else {
            f64::NAN
        };
        let label = if eta.is_finite() {
            format!(
                "epoch {}/{}, about {} left",
                self.epoch,
                self.epoch_total,
                clock(eta as u64)
            )
        } else {
            format!("epoch {}/{}", self.epoch, self.epoch_total)
        };
        let gauge = Gauge::default()
            .block(Block::bordered().title(" Total "))
            .gauge_style(Style::default().fg(Color::Blue))
            .ratio(ratio)
            .label(label);
        frame.render_widget(gauge, total);
    }
}

/// `hh:mm:ss`.
fn clock(seconds: u64) -> String {
    format!(
        "{:02}:{:02}:{:02}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    )
}

/// The terminal dashboard (feature `tui`); see the [module docs](self).
pub struct TuiMetricsRendererWrapper {
    terminal: Option<DefaultTerminal>,
    failed: bool,
    dashboard: Dashboard,
    interrupter: Interrupter,
    last_draw: Option<Instant>,
    persistent: bool,
}

impl core::fmt::Debug for TuiMetricsRendererWrapper {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TuiMetricsRendererWrapper")
            .field("active", &self.terminal.is_some())
            .field("persistent", &self.persistent)
            .finish_non_exhaustive()
    }
}

impl TuiMetricsRendererWrapper {
    /// A dashboard that stops training through `interrupter` when the user
    /// presses `q`; `checkpoint` is the epoch a resumed run starts after
    /// (the header counts from the next one).
    pub fn new(interrupter: Interrupter, checkpoint: Option<usize>) -> Self {
        let mut dashboard = Dashboard::new();
        dashboard.epoch = checkpoint.map_or(1, |epoch| epoch + 1);
        Self {
            terminal: None,
            failed: false,
            dashboard,
            interrupter,
            last_draw: None,
            persistent: false,
        }
    }

    /// Keeps the dashboard on the screen when training or an evaluation
    /// ends, until the user presses `q`.
    pub fn persistent(mut self) -> Self {
        self.persistent = true;
        self
    }

    fn poll_keys(&mut self, wait: Duration) -> bool {
        let mut quit = false;
        let mut wait = wait;
        while event::poll(wait).unwrap_or(false) {
            wait = Duration::ZERO;
            let Ok(Event::Key(key)) = event::read() else {
                continue;
            };
            if key.kind == KeyEventKind::Press && self.dashboard.on_key(key.code, key.modifiers) {
                quit = true;
            }
        }
        if quit && !self.dashboard.done {
            self.interrupter.stop(Some("stopped from the dashboard"));
        }
        if self.interrupter.should_stop() {
            self.dashboard.stopping = true;
        }
        quit
    }

    /// Draws if the last draw is old enough (or `force`), reading the keys
    /// (`wait` at most); returns whether `q` was pressed.
    fn refresh(&mut self, force: bool, wait: Duration) -> bool {
        if self.failed {
            return false;
        }
        let now = Instant::now();
        if !force
            && self
                .last_draw
                .is_some_and(|last| now.duration_since(last) < REFRESH)
        {
            return false;
        }
        self.last_draw = Some(now);
        if self.terminal.is_none() {
            match ratatui::try_init() {
                Ok(terminal) => self.terminal = Some(terminal),
                Err(error) => {
                    // No usable terminal after all: say so once and go on
                    // without a display.
                    eprintln!(
                        "burn-train: cannot open the dashboard ({error}); going on without it"
                    );
                    self.failed = true;
                    return false;
                }
            }
        }
        let quit = self.poll_keys(wait);
        let dashboard = &self.dashboard;
        if let Some(terminal) = &mut self.terminal
            && terminal.draw(|frame| dashboard.draw(frame)).is_err()
        {
            self.failed = true;
            self.release();
        }
        quit
    }

    /// Shows the final state until the user presses `q`.
    fn wait_for_close(&mut self) {
        if self.terminal.is_none() || self.failed {
            return;
        }
        self.dashboard.done = true;
        while !self.failed && self.terminal.is_some() {
            if self.refresh(true, REFRESH) {
                break;
            }
        }
        self.dashboard.done = false;
    }

    fn end_run(&mut self, summary: Option<LearnerSummary>) {
        self.refresh(true, Duration::ZERO);
        if self.persistent {
            self.wait_for_close();
        }
        self.release();
        if let Some(summary) = summary {
            println!("{summary}");
        }
    }

    fn release(&mut self) {
        if self.terminal.take().is_some() {
            ratatui::restore();
        }
    }
}

impl MetricsRendererTraining for TuiMetricsRendererWrapper {
    fn update_train(&mut self, state: MetricState) {
        self.dashboard.update(Series::Train, state);
    }

    fn update_valid(&mut self, state: MetricState) {
        self.dashboard.update(Series::Valid, state);
    }

    fn on_train_end(
        &mut self,
        summary: Option<LearnerSummary>,
    ) -> Result<(), Box<dyn core::error::Error>> {
        self.end_run(summary);
        Ok(())
    }
}

impl MetricsRendererEvaluation for TuiMetricsRendererWrapper {
    fn update_test(&mut self, _name: EvaluationName, state: MetricState) {
        self.dashboard.update(Series::Test, state);
    }

    fn on_test_end(
        &mut self,
        summary: Option<LearnerSummary>,
    ) -> Result<(), Box<dyn core::error::Error>> {
        self.end_run(summary);
        Ok(())
    }
}

impl TrainingProgressLogger for TuiMetricsRendererWrapper {
    fn start(
        &mut self,
        total_epochs: usize,
        starting_epoch: usize,
        _total_items: Option<usize>,
        _label: Option<&str>,
    ) {
        self.dashboard.epoch_total = total_epochs;
        self.dashboard.epoch = starting_epoch;
        self.dashboard.stopping = false;
    }

    fn update_epoch(&mut self, epoch: usize) {
        self.dashboard.epoch = epoch + 1;
    }

    fn start_split(&mut self, split: &str, progress: &Progress) {
        self.dashboard.phase = if split == "valid" {
            Phase::Valid
        } else {
            Phase::Train
        };
        self.dashboard.progress = progress.clone();
        self.refresh(false, Duration::ZERO);
    }

    fn update_split(&mut self, progress: &Progress) {
        self.dashboard.progress = progress.clone();
        self.refresh(false, Duration::ZERO);
    }

    fn end_split(&mut self, progress: &Progress) {
        self.dashboard.progress = progress.clone();
        self.refresh(true, Duration::ZERO);
    }

    fn end(&mut self) {}

    fn log_event_training(&mut self, _event: String) {}
}

impl EvaluationProgressLogger for TuiMetricsRendererWrapper {
    fn start_global_progress(&mut self, _total_tests: usize) {}

    fn start_test(&mut self, name: &str, progress: &Progress) {
        self.dashboard.phase = Phase::Test(name.to_string());
        self.dashboard.progress = progress.clone();
        self.refresh(false, Duration::ZERO);
    }

    fn update_test_progress(&mut self, progress: &Progress) {
        self.dashboard.progress = progress.clone();
        self.refresh(false, Duration::ZERO);
    }

    fn end_test(&mut self, progress: &Progress) {
        self.dashboard.progress = progress.clone();
        self.refresh(true, Duration::ZERO);
    }

    fn end_global_progress(&mut self) {}

    fn log_event_evaluation(&mut self, _event: String) {}
}

impl MetricsRenderer for TuiMetricsRendererWrapper {
    fn manual_close(&mut self) {
        self.wait_for_close();
        self.release();
    }

    fn register_metric(&mut self, definition: MetricDefinition) {
        self.dashboard.register(&definition);
    }
}

impl Drop for TuiMetricsRendererWrapper {
    fn drop(&mut self) {
        self.release();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    use super::*;
    use crate::metric::{MetricEntry, NumericAttributes, SerializedEntry};

    fn id(name: &str) -> MetricId {
        MetricId::new(Arc::new(name.into()))
    }

    fn numeric(name: &str, value: f64) -> MetricState {
        MetricState::Numeric(
            MetricEntry::new(
                id(name),
                SerializedEntry::new(format!("{value:.3}"), format!("{value}")),
            ),
            Some(NumericEntry::Value(value)),
        )
    }

    fn at(dashboard: &mut Dashboard, phase: Phase, epoch: usize, done: usize) {
        dashboard.phase = phase;
        dashboard.epoch = epoch;
        dashboard.epoch_total = 5;
        dashboard.progress = Progress::new(done, 100);
    }

    /// The dashboard after two epochs of a falling loss and a rising accuracy.
    fn dashboard() -> Dashboard {
        let mut dashboard = Dashboard::new();
        for name in ["Loss", "Accuracy"] {
            dashboard.register(&MetricDefinition {
                metric_id: id(name),
                name: Arc::new(name.into()),
                description: None,
                attributes: NumericAttributes::default().into(),
            });
        }
        for epoch in 1..=2 {
            for step in 1..=10 {
                let t = (epoch - 1) as f64 * 10.0 + step as f64;
                at(&mut dashboard, Phase::Train, epoch, step * 10);
                dashboard.update(Series::Train, numeric("Loss", 2.0 / t));
                dashboard.update(Series::Train, numeric("Accuracy", 100.0 - 50.0 / t));
            }
            at(&mut dashboard, Phase::Valid, epoch, 100);
            dashboard.update(Series::Valid, numeric("Loss", 2.5 / (epoch as f64 * 10.0)));
        }
        at(&mut dashboard, Phase::Train, 3, 40);
        dashboard.update(Series::Train, numeric("Loss", 0.06));
        dashboard
    }

    fn screen(dashboard: &Dashboard) -> String {
        let mut terminal = Terminal::new(TestBackend::new(120, 30)).unwrap();
        terminal.draw(|frame| dashboard.draw(frame)).unwrap();
        let buffer = terminal.backend().buffer().clone();
        let mut text = String::new();
        for y in 0..buffer.area.height {
            for x in 0..buffer.area.width {
                text.push_str(buffer[(x, y)].symbol());
            }
            text.push('\n');
        }
        text
    }

    fn braille_cells(text: &str) -> usize {
        text.chars()
            .filter(|c| ('\u{2801}'..='\u{28FF}').contains(c))
            .count()
    }

    #[test]
    fn draws_metrics_plot_and_progress() {
        let text = screen(&dashboard());
        assert!(text.contains("burn-train"), "{text}");
        assert!(text.contains("epoch 3/5"), "{text}");
        assert!(text.contains("Loss (recent: this epoch)"), "{text}");
        assert!(text.contains("Accuracy"), "{text}");
        assert!(text.contains("train 0.060"), "{text}");
        assert!(text.contains("valid 0.125"), "{text}");
        assert!(text.contains("40/100 items"), "{text}");
        assert!(text.contains("Training"), "{text}");
        assert!(text.contains("Total"), "{text}");
        // Only one point in the current epoch: a line needs two, so the
        // recent view is nearly empty; the full history has a curve.
        let mut full = dashboard();
        full.on_key(KeyCode::Right, KeyModifiers::NONE);
        let text = screen(&full);
        assert!(text.contains("Loss (full history)"), "{text}");
        assert!(braille_cells(&text) > 20, "no curve drawn:\n{text}");
    }

    #[test]
    fn an_epoch_value_is_shown_not_plotted() {
        let mut dashboard = dashboard();
        let points = dashboard.metrics[0].valid_points.len();
        dashboard.update(
            Series::Valid,
            MetricState::Numeric(
                MetricEntry::new(
                    id("Loss"),
                    SerializedEntry::new("0.111".into(), String::new()),
                ),
                Some(NumericEntry::Final(0.111)),
            ),
        );
        assert_eq!(dashboard.metrics[0].valid_points.len(), points);
        assert!(screen(&dashboard).contains("valid 0.111"));
    }

    #[test]
    fn evaluation_shows_the_test_set() {
        let mut dashboard = dashboard();
        dashboard.phase = Phase::Test("digits".into());
        dashboard.update(Series::Test, numeric("Accuracy", 97.5));
        let text = screen(&dashboard);
        assert!(text.contains("evaluating digits"), "{text}");
        assert!(text.contains("test  97.500"), "{text}");
    }

    #[test]
    fn arrow_keys_pick_the_metric_and_q_stops() {
        let mut dashboard = dashboard();
        assert!(!dashboard.on_key(KeyCode::Down, KeyModifiers::NONE));
        assert_eq!(dashboard.selected, 1);
        assert!(screen(&dashboard).contains("Accuracy (recent: this epoch)"));
        dashboard.on_key(KeyCode::Down, KeyModifiers::NONE);
        assert_eq!(dashboard.selected, 0, "selection wraps around");
        dashboard.on_key(KeyCode::Up, KeyModifiers::NONE);
        assert_eq!(dashboard.selected, 1);
        assert!(dashboard.on_key(KeyCode::Char('q'), KeyModifiers::NONE));
        assert!(screen(&dashboard).contains("stopping after this batch"));
    }

    #[test]
    fn ctrl_c_stops_like_q() {
        let mut dashboard = Dashboard::new();
        assert!(!dashboard.on_key(KeyCode::Char('c'), KeyModifiers::NONE));
        assert!(dashboard.on_key(KeyCode::Char('c'), KeyModifiers::CONTROL));
    }

    #[test]
    fn a_finished_run_waits_for_q_without_stopping() {
        let mut dashboard = dashboard();
        dashboard.done = true;
        assert!(screen(&dashboard).contains("done, press q to close"));
        assert!(dashboard.on_key(KeyCode::Char('q'), KeyModifiers::NONE));
        assert!(!dashboard.stopping);
    }
}
