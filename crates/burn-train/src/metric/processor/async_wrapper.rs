//! [`AsyncProcessorTraining`] and [`AsyncProcessorEvaluation`]: a processor
//! on a thread of its own.

use std::boxed::Box;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use super::{
    EvaluatorEvent, EventProcessorError, EventProcessorEvaluation, EventProcessorTraining,
};
use crate::renderer::MetricsRenderer;

/// Events a training loop may run ahead of the processor. One keeps the
/// device busy with the next step while the processor reads the last one
/// back, and bounds the outputs held in memory.
const AHEAD: usize = 1;

/// What the loop asks of the worker.
enum Message<E> {
    Event(E),
    Flush(SyncSender<()>),
    Renderer(SyncSender<Box<dyn MetricsRenderer>>),
}

/// The worker thread and its error channel, shared by both processors.
struct Worker<E> {
    sender: SyncSender<Message<E>>,
    errors: Receiver<EventProcessorError>,
    handle: Option<JoinHandle<()>>,
}

impl<E: Send + 'static> Worker<E> {
    /// Starts a thread that hands each event to `process`, each flush to
    /// `flush`, and the renderer to whoever asks for it last.
    fn start<P: Send + 'static>(
        name: &str,
        mut processor: P,
        process: fn(&mut P, E) -> Result<(), EventProcessorError>,
        flush: fn(&mut P) -> Result<(), EventProcessorError>,
        renderer: fn(P) -> Box<dyn MetricsRenderer>,
    ) -> Self {
        let (sender, receiver) = sync_channel::<Message<E>>(AHEAD);
        let (error_sender, errors) = std::sync::mpsc::channel();
        let handle = std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                while let Ok(message) = receiver.recv() {
                    match message {
                        Message::Event(event) => {
                            if let Err(error) = process(&mut processor, event) {
                                let _ = error_sender.send(error);
                            }
                        }
                        Message::Flush(done) => {
                            if let Err(error) = flush(&mut processor) {
                                let _ = error_sender.send(error);
                            }
                            let _ = done.send(());
                        }
                        Message::Renderer(reply) => {
                            let _ = reply.send(renderer(processor));
                            return;
                        }
                    }
                }
            })
            .expect("the event processor thread can be spawned");
        Self {
            sender,
            errors,
            handle: Some(handle),
        }
    }

    /// Every failure reported since the last call, merged in order.
    fn reported(&self) -> Result<(), EventProcessorError> {
        let mut merged: Option<EventProcessorError> = None;
        while let Ok(error) = self.errors.try_recv() {
            match &mut merged {
                Some(all) => all.merge(error),
                None => merged = Some(error),
            }
        }
        merged.map_or(Ok(()), Err)
    }

    /// The worker is gone: re-raise its panic here, where it can be seen.
    fn died(&mut self) -> ! {
        match self.handle.take().map(JoinHandle::join) {
            Some(Err(panic)) => std::panic::resume_unwind(panic),
            _ => panic!("the event processor thread stopped without a reason"),
        }
    }

    fn send(&mut self, message: Message<E>) {
        if self.sender.send(message).is_err() {
            self.died();
        }
    }

    fn process(&mut self, event: E) -> Result<(), EventProcessorError> {
        let earlier = self.reported();
        self.send(Message::Event(event));
        earlier
    }

    fn flush(&mut self) -> Result<(), EventProcessorError> {
        let (done, wait) = sync_channel(1);
        self.send(Message::Flush(done));
        if wait.recv().is_err() {
            self.died();
        }
        self.reported()
    }

    fn renderer(mut self) -> Box<dyn MetricsRenderer> {
        let (reply, wait) = sync_channel(1);
        self.send(Message::Renderer(reply));
        match wait.recv() {
            Ok(renderer) => {
                if let Some(handle) = self.handle.take() {
                    let _ = handle.join();
                }
                renderer
            }
            Err(_) => self.died(),
        }
    }
}

impl<E> Drop for Worker<E> {
    fn drop(&mut self) {
        // Closing the channel ends the thread once it has processed what
        // was sent; a panic there was already reported or is moot now.
        let (closed, _) = sync_channel(0);
        drop(std::mem::replace(&mut self.sender, closed));
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}

/// Which split a training event belongs to.
enum Side<ET, EV> {
    Train(ET),
    Valid(EV),
}

/// A training processor running on its own thread.
///
/// Events are queued to the thread, at most one ahead of it, so reading the
/// metrics of one batch back from the device overlaps the next step. An
/// event's failure is therefore reported by a later call
/// ([`process_train`](EventProcessorTraining::process_train),
/// [`process_valid`](EventProcessorTraining::process_valid) or
/// [`flush`](EventProcessorTraining::flush)), which returns every failure
/// since the last report. A panic on the thread is raised again on the
/// caller's.
pub struct AsyncProcessorTraining<ET, EV> {
    worker: Worker<Side<ET, EV>>,
}

impl<ET: Send + 'static, EV: Send + 'static> AsyncProcessorTraining<ET, EV> {
    /// Runs `processor` on a new thread.
    pub fn new<P: EventProcessorTraining<ET, EV> + 'static>(processor: P) -> Self {
        Self {
            worker: Worker::start(
                "burn-train-events",
                processor,
                |processor: &mut P, event| match event {
                    Side::Train(event) => processor.process_train(event),
                    Side::Valid(event) => processor.process_valid(event),
                },
                |processor: &mut P| processor.flush(),
                |processor: P| processor.renderer(),
            ),
        }
    }
}

impl<ET: Send + 'static, EV: Send + 'static> EventProcessorTraining<ET, EV>
    for AsyncProcessorTraining<ET, EV>
{
    fn process_train(&mut self, event: ET) -> Result<(), EventProcessorError> {
        self.worker.process(Side::Train(event))
    }

    fn process_valid(&mut self, event: EV) -> Result<(), EventProcessorError> {
        self.worker.process(Side::Valid(event))
    }

    fn flush(&mut self) -> Result<(), EventProcessorError> {
        self.worker.flush()
    }

    fn renderer(self) -> Box<dyn MetricsRenderer> {
        self.worker.renderer()
    }
}

/// An evaluation processor running on its own thread (see
/// [`AsyncProcessorTraining`]).
pub struct AsyncProcessorEvaluation<P: EventProcessorEvaluation> {
    worker: Worker<EvaluatorEvent<P::ItemTest>>,
}

impl<P: EventProcessorEvaluation + 'static> AsyncProcessorEvaluation<P> {
    /// Runs `processor` on a new thread.
    pub fn new(processor: P) -> Self {
        Self {
            worker: Worker::start(
                "burn-eval-events",
                processor,
                |processor: &mut P, event| processor.process_test(event),
                |processor: &mut P| processor.flush(),
                |processor: P| processor.renderer(),
            ),
        }
    }
}

impl<P: EventProcessorEvaluation + 'static> EventProcessorEvaluation
    for AsyncProcessorEvaluation<P>
{
    type ItemTest = P::ItemTest;

    fn process_test(
        &mut self,
        event: EvaluatorEvent<P::ItemTest>,
    ) -> Result<(), EventProcessorError> {
        self.worker.process(event)
    }

    fn flush(&mut self) -> Result<(), EventProcessorError> {
        self.worker.flush()
    }

    fn renderer(self) -> Box<dyn MetricsRenderer> {
        self.worker.renderer()
    }
}
