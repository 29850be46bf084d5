//! [`TuiRenderer`]: the ratatui training dashboard.
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
//! The dashboard draws at most ten times a second from the training thread,
//! and reads the keyboard at the same moments: ↑/↓ pick the plotted metric,
//! ←/→ switch between the recent history (the current epoch, batch by
//! batch) and the whole run, and `q` (or Ctrl-C, which raw mode turns into
//! a key) asks the learner to stop after the batch in progress. The
//! terminal is taken on the first draw and given back when training ends,
//! also when it ends with a panic (ratatui's panic hook restores it).

use std::string::String;
use std::time::{Duration, Instant};
use std::vec::Vec;

use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Axis, Block, Chart, Dataset, Gauge, GraphType, List, ListItem, ListState, Paragraph,
};
use ratatui::{DefaultTerminal, Frame};

use super::{EpochSummary, MetricState, MetricsRenderer, Split, TrainingProgress};
use crate::TrainingInterrupter;

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

/// One metric's text and plotted points, for both splits.
#[derive(Clone, Debug, Default)]
pub(crate) struct MetricView {
    pub(crate) name: String,
    pub(crate) train_text: Option<String>,
    pub(crate) valid_text: Option<String>,
    /// `(x, value)` with `x` = epoch − 1 + progress through the pass.
    pub(crate) train_points: Vec<(f64, f64)>,
    pub(crate) valid_points: Vec<(f64, f64)>,
    pub(crate) numeric: bool,
}

/// What the dashboard shows: everything it draws comes from here, so it
/// can be drawn to any ratatui backend (the tests use a `TestBackend`).
#[derive(Clone, Debug)]
pub(crate) struct Dashboard {
    pub(crate) metrics: Vec<MetricView>,
    pub(crate) selected: usize,
    pub(crate) history: History,
    pub(crate) split: Split,
    pub(crate) progress: TrainingProgress,
    pub(crate) started: Instant,
    pub(crate) stopping: bool,
}

impl Dashboard {
    pub(crate) fn new() -> Self {
        Self {
            metrics: Vec::new(),
            selected: 0,
            history: History::Recent,
            split: Split::Train,
            progress: TrainingProgress::default(),
            started: Instant::now(),
            stopping: false,
        }
    }

    fn x(&self) -> f64 {
        self.progress.epoch.saturating_sub(1) as f64 + self.progress.progress.fraction()
    }

    pub(crate) fn update(&mut self, split: Split, state: MetricState) {
        let name = state.entry().name.clone();
        let index = match self.metrics.iter().position(|m| m.name == name) {
            Some(index) => index,
            None => {
                self.metrics.push(MetricView {
                    name,
                    ..MetricView::default()
                });
                self.metrics.len() - 1
            }
        };
        let x = self.x();
        let view = &mut self.metrics[index];
        let text = Some(state.entry().formatted.clone());
        let point = match state {
            MetricState::Numeric(_, value) if value.is_finite() => Some((x, value)),
            _ => None,
        };
        view.numeric |= matches!(state, MetricState::Numeric(..));
        let (slot, points) = match split {
            Split::Train => (&mut view.train_text, &mut view.train_points),
            Split::Valid => (&mut view.valid_text, &mut view.valid_points),
        };
        *slot = text;
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

    pub(crate) fn set_progress(&mut self, split: Split, progress: TrainingProgress) {
        self.split = split;
        self.progress = progress;
    }

    /// Applies a key press; returns whether training should stop.
    pub(crate) fn on_key(&mut self, code: KeyCode, modifiers: KeyModifiers) -> bool {
        let count = self.metrics.len().max(1);
        match code {
            KeyCode::Up => self.selected = (self.selected + count - 1) % count,
            KeyCode::Down => self.selected = (self.selected + 1) % count,
            KeyCode::Left | KeyCode::Right => {
                self.history = match self.history {
                    History::Recent => History::Full,
                    History::Full => History::Recent,
                }
            }
            KeyCode::Char('q') | KeyCode::Char('Q') => self.stopping = true,
            KeyCode::Char('c') if modifiers.contains(KeyModifiers::CONTROL) => self.stopping = true,
            _ => {}
        }
        self.stopping
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
        let phase = match (self.stopping, self.split) {
            (true, _) => "stopping after this batch",
            (false, Split::Train) => "training",
            (false, Split::Valid) => "validating",
        };
        let line = Line::from(vec![
            Span::styled(
                " burn-train ",
                Style::default().fg(Color::Black).bg(Color::Yellow),
            ),
            Span::raw(format!(
                " epoch {}/{} │ {phase} │ {} │ ",
                self.progress.epoch,
                self.progress.epoch_total,
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
            History::Recent => self.progress.epoch.saturating_sub(1) as f64,
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
        let p = self.progress.progress;
        let pass_title = match self.split {
            Split::Train => " Training ",
            Split::Valid => " Validation ",
        };
        let gauge = Gauge::default()
            .block(Block::bordered().title(pass_title))
            .gauge_style(Style::default().fg(Color::Green))
            .ratio(p.fraction())
            .label(format!("{}/{} items", p.items_processed, p.items_total));
        frame.render_widget(gauge, pass);

        let epochs = self.progress.epoch_total.max(1) as f64;
        // Validation is counted as part of its epoch's end: the total moves
        // with training passes only.
        let done = match self.split {
            Split::Train => self.x(),
            Split::Valid => self.progress.epoch as f64,
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
                self.progress.epoch,
                self.progress.epoch_total,
                clock(eta as u64)
            )
        } else {
            format!(
                "epoch {}/{}",
                self.progress.epoch, self.progress.epoch_total
            )
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
pub struct TuiRenderer {
    terminal: Option<DefaultTerminal>,
    failed: bool,
    dashboard: Dashboard,
    interrupter: TrainingInterrupter,
    last_draw: Option<Instant>,
}

impl core::fmt::Debug for TuiRenderer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TuiRenderer")
            .field("active", &self.terminal.is_some())
            .finish_non_exhaustive()
    }
}

impl TuiRenderer {
    /// A dashboard that sets `interrupter` when the user presses `q`.
    pub fn new(interrupter: TrainingInterrupter) -> Self {
        Self {
            terminal: None,
            failed: false,
            dashboard: Dashboard::new(),
            interrupter,
            last_draw: None,
        }
    }

    fn poll_keys(&mut self) {
        // Zero timeout: never block the training thread.
        while event::poll(Duration::ZERO).unwrap_or(false) {
            let Ok(Event::Key(key)) = event::read() else {
                continue;
            };
            if key.kind == KeyEventKind::Press && self.dashboard.on_key(key.code, key.modifiers) {
                self.interrupter.stop();
            }
        }
        if self.interrupter.should_stop() {
            self.dashboard.stopping = true;
        }
    }

    fn refresh(&mut self, force: bool) {
        if self.failed {
            return;
        }
        let now = Instant::now();
        if !force
            && self
                .last_draw
                .is_some_and(|last| now.duration_since(last) < REFRESH)
        {
            return;
        }
        self.last_draw = Some(now);
        if self.terminal.is_none() {
            match ratatui::try_init() {
                Ok(terminal) => self.terminal = Some(terminal),
                Err(error) => {
                    // No usable terminal after all: say so once and go on
                    // training without a display.
                    eprintln!(
                        "burn-train: cannot open the dashboard ({error}); training without it"
                    );
                    self.failed = true;
                    return;
                }
            }
        }
        self.poll_keys();
        let dashboard = &self.dashboard;
        if let Some(terminal) = &mut self.terminal
            && terminal.draw(|frame| dashboard.draw(frame)).is_err()
        {
            self.failed = true;
            self.release();
        }
    }

    fn release(&mut self) {
        if self.terminal.take().is_some() {
            ratatui::restore();
        }
    }
}

impl MetricsRenderer for TuiRenderer {
    fn update_train(&mut self, state: MetricState) {
        self.dashboard.update(Split::Train, state);
    }

    fn update_valid(&mut self, state: MetricState) {
        self.dashboard.update(Split::Valid, state);
    }

    fn render_train(&mut self, item: TrainingProgress) {
        self.dashboard.set_progress(Split::Train, item);
        self.refresh(false);
    }

    fn render_valid(&mut self, item: TrainingProgress) {
        self.dashboard.set_progress(Split::Valid, item);
        self.refresh(false);
    }

    fn on_epoch_end(&mut self, _split: Split, _epoch: usize, _summary: &EpochSummary) {
        self.refresh(true);
    }

    fn on_train_end(&mut self) {
        self.release();
    }
}

impl Drop for TuiRenderer {
    fn drop(&mut self) {
        self.release();
    }
}

#[cfg(test)]
mod tests {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    use super::*;
    use crate::metric::{MetricEntry, Progress};

    fn numeric(name: &str, value: f64) -> MetricState {
        MetricState::Numeric(
            MetricEntry {
                name: name.into(),
                formatted: format!("{value:.3}"),
                serialized: format!("{value}"),
            },
            value,
        )
    }

    fn progress(epoch: usize, done: usize) -> TrainingProgress {
        TrainingProgress {
            progress: Progress {
                items_processed: done,
                items_total: 100,
            },
            epoch,
            epoch_total: 5,
            iteration: done / 10,
        }
    }

    /// The dashboard after two epochs of a falling loss and a rising accuracy.
    fn dashboard() -> Dashboard {
        let mut dashboard = Dashboard::new();
        for epoch in 1..=2 {
            for step in 1..=10 {
                let t = (epoch - 1) as f64 * 10.0 + step as f64;
                dashboard.set_progress(Split::Train, progress(epoch, step * 10));
                dashboard.update(Split::Train, numeric("Loss", 2.0 / t));
                dashboard.update(Split::Train, numeric("Accuracy", 100.0 - 50.0 / t));
            }
            dashboard.set_progress(Split::Valid, progress(epoch, 100));
            dashboard.update(Split::Valid, numeric("Loss", 2.5 / (epoch as f64 * 10.0)));
        }
        dashboard.set_progress(Split::Train, progress(3, 40));
        dashboard.update(Split::Train, numeric("Loss", 0.06));
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
}
