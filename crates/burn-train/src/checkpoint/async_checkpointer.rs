//! [`AsyncCheckpointer`]: a checkpointer that writes on its own thread.

use std::boxed::Box;
use std::sync::Mutex;
use std::sync::mpsc::{Sender, channel};
use std::thread::JoinHandle;

use super::{Checkpoint, Checkpointer, CheckpointerError};
use crate::learner::Interrupter;

enum Message<R> {
    Save(usize, R),
    Delete(usize, Sender<Result<(), CheckpointerError>>),
    Restore(usize, Sender<Result<R, CheckpointerError>>),
}

/// Writes checkpoints on a thread of its own, so training goes on while a
/// record is encoded and written.
///
/// Operations run in the order they were asked for: a restore or a delete
/// waits for the saves before it. A failed save is reported through the
/// interrupter given with [`with_interrupter`](Self::with_interrupter)
/// (which stops the run with the error), or printed if there is none.
pub struct AsyncCheckpointer<R> {
    sender: Mutex<Option<Sender<Message<R>>>>,
    handle: Option<JoinHandle<()>>,
    interrupter: std::sync::Arc<Mutex<Option<Interrupter>>>,
}

impl<R> core::fmt::Debug for AsyncCheckpointer<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AsyncCheckpointer").finish_non_exhaustive()
    }
}

impl<R: Checkpoint> AsyncCheckpointer<R> {
    /// Runs `checkpointer` on a new thread.
    pub fn new<C>(checkpointer: C) -> Self
    where
        C: Checkpointer<R> + 'static,
    {
        let checkpointer: Box<dyn Checkpointer<R>> = Box::new(checkpointer);
        let (sender, receiver) = channel::<Message<R>>();
        let interrupter: std::sync::Arc<Mutex<Option<Interrupter>>> = Default::default();
        let report = interrupter.clone();
        let handle = std::thread::Builder::new()
            .name("burn-train-checkpoint".into())
            .spawn(move || {
                while let Ok(message) = receiver.recv() {
                    match message {
                        Message::Save(epoch, record) => {
                            if let Err(error) = checkpointer.save(epoch, record) {
                                let interrupter = report.lock().ok().and_then(|i| i.clone());
                                match interrupter {
                                    Some(interrupter) => interrupter.fail(error),
                                    None => eprintln!(
                                        "burn-train: the checkpoint of epoch {epoch} could not be saved: {error}"
                                    ),
                                }
                            }
                        }
                        Message::Delete(epoch, reply) => {
                            let _ = reply.send(checkpointer.delete(epoch));
                        }
                        Message::Restore(epoch, reply) => {
                            let _ = reply.send(checkpointer.restore(epoch));
                        }
                    }
                }
            })
            .expect("the checkpointer thread can be spawned");
        Self {
            sender: Mutex::new(Some(sender)),
            handle: Some(handle),
            interrupter,
        }
    }

    /// Reports failed saves through `interrupter`, stopping the run.
    pub fn with_interrupter(self, interrupter: Interrupter) -> Self {
        if let Ok(mut slot) = self.interrupter.lock() {
            *slot = Some(interrupter);
        }
        self
    }

    fn send(&self, message: Message<R>) -> Result<(), CheckpointerError> {
        let sender = self.sender.lock().map_err(|_| gone())?;
        sender
            .as_ref()
            .ok_or_else(gone)?
            .send(message)
            .map_err(|_| gone())
    }
}

fn gone() -> CheckpointerError {
    CheckpointerError::Unknown("the checkpointer thread is gone".into())
}

impl<R: Checkpoint> Checkpointer<R> for AsyncCheckpointer<R> {
    /// Queues the save and returns; a failure is reported later (see the
    /// type's docs).
    fn save(&self, epoch: usize, record: R) -> Result<(), CheckpointerError> {
        self.send(Message::Save(epoch, record))
    }

    fn delete(&self, epoch: usize) -> Result<(), CheckpointerError> {
        let (reply, answer) = channel();
        self.send(Message::Delete(epoch, reply))?;
        answer.recv().map_err(|_| gone())?
    }

    fn restore(&self, epoch: usize) -> Result<R, CheckpointerError> {
        let (reply, answer) = channel();
        self.send(Message::Restore(epoch, reply))?;
        answer.recv().map_err(|_| gone())?
    }
}

impl<R> Drop for AsyncCheckpointer<R> {
    /// Waits for the queued saves: a checkpoint asked for is written.
    fn drop(&mut self) {
        if let Ok(mut sender) = self.sender.lock() {
            sender.take();
        }
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}
