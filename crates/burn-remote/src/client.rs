//! The client: a [`RunnerClient`] whose executor is a session on a server.
//!
//! Operations are fire-and-forget, so they are batched: a batch is sent
//! when it holds [`ClientOptions::batch_requests`] requests or
//! [`ClientOptions::batch_bytes`] bytes of tensor data, or when a value is
//! needed (a read or a sync, which then block for the answer). Frames are
//! encoded on the caller's thread and handed to the connection's writer
//! task, so the order of a client's operations is the order of its frames.
//!
//! A connection is alive while the server is heard from: the server pings
//! every two seconds, and a server silent for
//! [`ClientOptions::heartbeat_timeout`] (8 s by default) is taken for dead,
//! as is one whose socket closes. From then on reads and syncs fail at
//! once with the reason, and any other operation panics with it (the way
//! a backend rejects an operation), except the freeing of tensors, which
//! has nothing left to free.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::any::Any;
use core::sync::atomic::{AtomicU64, Ordering};
use core::time::Duration;
use std::sync::mpsc as std_mpsc;
use std::sync::{Condvar, Mutex, MutexGuard};

use burn_backend::{ExecutionError, TensorData};
use burn_ir::{OperationIr, TensorId, TensorIr};
use burn_router::RunnerClient;
use burn_std::DType;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

use crate::RemoteDevice;
use crate::wire::{self, ClientMessage, DeviceInfo, Direction, Request, ServerMessage};

/// How a client connects and batches.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClientOptions {
    /// The shared secret the server's authorizer checks.
    pub token: Option<String>,
    /// A batch is sent when it holds this many requests.
    pub batch_requests: usize,
    /// A batch is sent when it holds this many bytes of tensor data.
    pub batch_bytes: usize,
    /// Encoded bytes queued for sending before callers wait.
    pub max_in_flight_bytes: usize,
    /// The largest frame sent or accepted.
    pub max_message_bytes: usize,
    /// Time allowed to connect, handshake and be welcomed.
    pub connect_timeout: Duration,
    /// A server silent for this long is taken for dead.
    pub heartbeat_timeout: Duration,
}

impl Default for ClientOptions {
    fn default() -> Self {
        Self {
            token: None,
            batch_requests: 512,
            batch_bytes: 4 << 20,
            max_in_flight_bytes: 64 << 20,
            max_message_bytes: wire::DEFAULT_MAX_MESSAGE_BYTES,
            connect_timeout: Duration::from_secs(5),
            heartbeat_timeout: Duration::from_secs(8),
        }
    }
}

/// Why a connection could not be opened.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConnectError {
    /// The URL is not a `ws://host:port` URL.
    #[error("remote: `{url}` is not a WebSocket URL (ws://host:port): {reason}")]
    InvalidUrl {
        /// The URL given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// No connection, or no handshake, within the time allowed.
    #[error("remote: cannot connect to {url}: {reason}")]
    Connect {
        /// The server.
        url: String,
        /// The transport's words.
        reason: String,
    },
    /// The server refused the session (credential, device index, limits).
    #[error("remote: {url} refused the session: {reason}")]
    Refused {
        /// The server.
        url: String,
        /// The server's words.
        reason: String,
    },
    /// The server answered something other than a welcome.
    #[error("remote: {url} does not speak this protocol: {reason}")]
    Protocol {
        /// The server.
        url: String,
        /// What came back.
        reason: String,
    },
}

/// The I/O runtime of every client of the process: one worker is enough
/// for sockets; computing happens on the server.
fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: std::sync::OnceLock<tokio::runtime::Runtime> = std::sync::OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("burn-remote-client")
            .enable_all()
            .build()
            .expect("burn-remote: cannot start the client runtime")
    })
}

/// Runs `future` on the client runtime and waits for it from any thread,
/// including a thread of another runtime (where `block_on` would panic).
fn wait_for<T: Send + 'static>(
    future: impl core::future::Future<Output = T> + Send + 'static,
) -> Option<T> {
    let (tx, rx) = std_mpsc::channel();
    runtime().spawn(async move {
        let _ = tx.send(future.await);
    });
    rx.recv().ok()
}

/// The devices a server offers, by index, without opening a session.
pub fn list_devices(url: &str, options: &ClientOptions) -> Result<Vec<String>, ConnectError> {
    let url = url.to_string();
    let options = options.clone();
    wait_for(async move {
        let (socket, devices, _) = handshake(&url, &options, None).await?;
        drop(socket);
        Ok(devices)
    })
    .unwrap_or_else(|| {
        Err(ConnectError::Connect {
            url: String::new(),
            reason: String::from("the client runtime stopped"),
        })
    })
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn handshake(
    url: &str,
    options: &ClientOptions,
    device_index: Option<u32>,
) -> Result<(Socket, Vec<String>, Option<DeviceInfo>), ConnectError> {
    if !url.starts_with("ws://") {
        return Err(ConnectError::InvalidUrl {
            url: url.to_string(),
            reason: String::from("the scheme must be ws://"),
        });
    }
    let connect_error = |reason: String| ConnectError::Connect {
        url: url.to_string(),
        reason,
    };
    let max = options.max_message_bytes;
    let config = crate::transport::config(max);
    let timeout = options.connect_timeout;
    let connect = tokio_tungstenite::connect_async_with_config(url, Some(config), true);
    let (mut socket, _) = match tokio::time::timeout(timeout, connect).await {
        Err(_) => return Err(connect_error(format!("no handshake within {timeout:?}"))),
        Ok(Err(error)) => return Err(connect_error(error.to_string())),
        Ok(Ok(connected)) => connected,
    };
    let hello = ClientMessage::Hello {
        token: options.token.clone(),
        device_index,
    };
    let frame = wire::encode(Direction::ToServer, &hello, max)
        .map_err(|error| connect_error(error.to_string()))?;
    socket
        .send(Message::Binary(frame.into()))
        .await
        .map_err(|error| connect_error(error.to_string()))?;
    let protocol = |reason: String| ConnectError::Protocol {
        url: url.to_string(),
        reason,
    };
    loop {
        let next = match tokio::time::timeout(timeout, socket.next()).await {
            Err(_) => return Err(connect_error(format!("no welcome within {timeout:?}"))),
            Ok(None) => return Err(connect_error(String::from("closed before the welcome"))),
            Ok(Some(Err(error))) => return Err(connect_error(error.to_string())),
            Ok(Some(Ok(message))) => message,
        };
        let bytes = match next {
            Message::Binary(bytes) => bytes,
            Message::Ping(_) | Message::Pong(_) => continue,
            Message::Close(_) => {
                return Err(connect_error(String::from("closed before the welcome")));
            }
            Message::Text(_) | Message::Frame(_) => {
                return Err(protocol(String::from("a non-binary frame")));
            }
        };
        return match wire::decode::<ServerMessage>(Direction::ToClient, &bytes, max) {
            Ok(ServerMessage::Welcome { devices, device }) => {
                if device_index.is_some() && device.is_none() {
                    Err(protocol(String::from("the welcome names no device")))
                } else {
                    Ok((socket, devices, device))
                }
            }
            Ok(ServerMessage::Error(reason)) => Err(ConnectError::Refused {
                url: url.to_string(),
                reason,
            }),
            Ok(other) => Err(protocol(format!("unexpected {other:?} before the welcome"))),
            Err(error) => Err(protocol(error.to_string())),
        };
    }
}

/// One session on a server, seen as a router's executor.
pub struct RemoteClient {
    device: RemoteDevice,
    url: String,
    info: DeviceInfo,
    options: ClientOptions,
    next_id: AtomicU64,
    next_request: AtomicU64,
    batch: Mutex<Batch>,
    link: Arc<Link>,
    outgoing: mpsc::UnboundedSender<Outgoing>,
}

#[derive(Default)]
struct Batch {
    requests: Vec<Request>,
    bytes: usize,
}

enum Outgoing {
    Frame(Vec<u8>),
}

/// What the caller threads and the connection's tasks share.
#[derive(Default)]
struct Link {
    /// Why the connection is gone, once it is.
    dead: Mutex<Option<String>>,
    /// Callers waiting for answers, by request number. Dropping a sender
    /// (when the connection dies) wakes its caller with an error.
    pending: Mutex<BTreeMap<u64, std_mpsc::Sender<Result<Answer, String>>>>,
    /// Encoded bytes handed to the writer and not yet written.
    in_flight: Mutex<usize>,
    drained: Condvar,
}

enum Answer {
    Data(TensorData),
    Synced,
}

impl Link {
    fn dead(&self) -> Option<String> {
        lock(&self.dead).clone()
    }

    fn die(&self, reason: String) {
        {
            let mut dead = lock(&self.dead);
            if dead.is_none() {
                *dead = Some(reason);
            }
        }
        // Waiting readers wake with the reason; senders blocked on the
        // in-flight bound wake too.
        lock(&self.pending).clear();
        self.drained.notify_all();
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl RemoteClient {
    /// Opens a session on device `device_index` of the server at `url`.
    pub fn connect(
        device: RemoteDevice,
        options: ClientOptions,
    ) -> Result<Arc<Self>, ConnectError> {
        let url = device.url().to_string();
        let index = device.index();
        let task_options = options.clone();
        let task_url = url.clone();
        let (socket, _devices, info) =
            wait_for(async move { handshake(&task_url, &task_options, Some(index)).await })
                .unwrap_or_else(|| {
                    Err(ConnectError::Connect {
                        url: url.clone(),
                        reason: String::from("the client runtime stopped"),
                    })
                })?;
        let info = info.expect("handshake checks the welcome names the device");
        let link = Arc::new(Link::default());
        let (outgoing, outbox) = mpsc::unbounded_channel();
        runtime().spawn(drive(socket, outbox, link.clone(), options.clone()));
        Ok(Arc::new(Self {
            device,
            url,
            info,
            options,
            next_id: AtomicU64::new(0),
            next_request: AtomicU64::new(0),
            batch: Mutex::new(Batch::default()),
            link,
            outgoing,
        }))
    }

    /// Why the connection is gone, if it is.
    pub fn connection_error(&self) -> Option<String> {
        self.link.dead()
    }

    /// The server's name of the device.
    pub fn device_name(&self) -> &str {
        &self.info.name
    }

    fn lost(&self, reason: &str) -> String {
        format!("remote: the connection to {} is lost: {reason}", self.url)
    }

    fn push(&self, request: Request, bytes: usize) {
        let mut batch = lock(&self.batch);
        batch.requests.push(request);
        batch.bytes += bytes;
        if batch.requests.len() >= self.options.batch_requests
            || batch.bytes >= self.options.batch_bytes
        {
            self.flush(&mut batch);
        }
    }

    /// Sends the batch. Called with the batch locked, so frames leave in
    /// the order their requests were made.
    fn flush(&self, batch: &mut Batch) {
        if batch.requests.is_empty() {
            return;
        }
        let requests = core::mem::take(&mut batch.requests);
        batch.bytes = 0;
        let frame = match wire::encode(
            Direction::ToServer,
            &ClientMessage::Batch(requests),
            self.options.max_message_bytes,
        ) {
            Ok(frame) => frame,
            // Over the maximum message size (a single tensor too large):
            // the session cannot go on consistently.
            Err(error) => {
                self.link.die(error.to_string());
                return;
            }
        };
        let len = frame.len();
        {
            let mut in_flight = lock(&self.link.in_flight);
            while *in_flight > self.options.max_in_flight_bytes && self.link.dead().is_none() {
                in_flight = self
                    .link
                    .drained
                    .wait(in_flight)
                    .unwrap_or_else(|e| e.into_inner());
            }
            *in_flight += len;
        }
        if self.outgoing.send(Outgoing::Frame(frame)).is_err() {
            self.link
                .die(String::from("the connection's writer has stopped"));
        }
    }

    /// Sends `request` (built with its number) with the batch before it,
    /// and waits for the answer.
    fn ask(&self, request: impl FnOnce(u64) -> Request) -> Result<Answer, String> {
        if let Some(reason) = self.link.dead() {
            return Err(self.lost(&reason));
        }
        let number = self.next_request.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = std_mpsc::channel();
        lock(&self.link.pending).insert(number, tx);
        // The connection may have died between the check and the insert.
        if let Some(reason) = self.link.dead() {
            lock(&self.link.pending).remove(&number);
            return Err(self.lost(&reason));
        }
        {
            let mut batch = lock(&self.batch);
            batch.requests.push(request(number));
            self.flush(&mut batch);
        }
        match rx.recv() {
            Ok(answer) => answer,
            Err(_) => Err(self.lost(&self.link.dead().unwrap_or_default())),
        }
    }
}

impl Drop for RemoteClient {
    fn drop(&mut self) {
        // What is still batched is only frees and unread results: the
        // session's end frees them all. Closing the channel ends the writer,
        // which closes the socket.
        self.link.die(String::from("the client was dropped"));
    }
}

impl core::fmt::Debug for RemoteClient {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "remote<{} #{}: {}>",
            self.url,
            self.device.index(),
            self.info.name
        )
    }
}

impl RunnerClient for RemoteClient {
    fn new_tensor_id(&self) -> TensorId {
        TensorId::new(self.next_id.fetch_add(1, Ordering::Relaxed))
    }

    fn register_op(&self, op: OperationIr) {
        if let Some(reason) = self.link.dead() {
            if let OperationIr::Drop(_) = op {
                return;
            }
            panic!("{}", self.lost(&reason));
        }
        self.push(Request::Op(op), 0);
    }

    fn register_tensor(&self, out: TensorIr, data: TensorData) {
        if let Some(reason) = self.link.dead() {
            panic!("{}", self.lost(&reason));
        }
        let bytes = data.bytes.len();
        self.push(Request::Tensor { out, data }, bytes);
    }

    fn read_tensor(&self, tensor: TensorIr) -> Result<TensorData, ExecutionError> {
        match self.ask(|request| Request::Read { request, tensor }) {
            Ok(Answer::Data(data)) => Ok(data),
            Ok(Answer::Synced) => Err(ExecutionError::Failed {
                op: String::from("read"),
                reason: String::from("remote: the server answered a read with a sync"),
            }),
            Err(reason) => Err(ExecutionError::Failed {
                op: String::from("read"),
                reason,
            }),
        }
    }

    fn sync(&self) -> Result<(), ExecutionError> {
        match self.ask(|request| Request::Sync { request }) {
            Ok(Answer::Synced) => Ok(()),
            Ok(Answer::Data(_)) => Err(ExecutionError::Failed {
                op: String::from("sync"),
                reason: String::from("remote: the server answered a sync with data"),
            }),
            Err(reason) => Err(ExecutionError::Failed {
                op: String::from("sync"),
                reason,
            }),
        }
    }

    fn seed(&self, seed: u64) {
        if let Some(reason) = self.link.dead() {
            panic!("{}", self.lost(&reason));
        }
        self.push(Request::Seed(seed), 0);
    }

    fn supports_dtype(&self, dtype: DType) -> bool {
        // Quantized tensors travel as their bytes and are quantized and
        // dequantized through the host codec, which lays out any scheme
        // packed along the innermost dim.
        if let DType::QFloat(scheme) = dtype {
            return matches!(scheme.store.packing_dim(), None | Some(0));
        }
        self.info.supported.contains(&dtype)
    }

    fn default_float_dtype(&self) -> DType {
        self.info.float
    }

    fn default_int_dtype(&self) -> DType {
        self.info.int
    }

    fn bool_dtype(&self) -> DType {
        self.info.bool
    }

    fn index_dtype(&self) -> DType {
        self.info.index
    }

    fn device(&self) -> &dyn Any {
        &self.device
    }
}

/// The connection's tasks: a writer (frames, pings) and a reader (answers,
/// liveness), until either ends; then the link dies and the socket closes.
async fn drive(
    socket: Socket,
    mut outbox: mpsc::UnboundedReceiver<Outgoing>,
    link: Arc<Link>,
    options: ClientOptions,
) {
    let (mut sink, mut stream) = socket.split();
    let writer_link = link.clone();
    let mut writer = tokio::spawn(async move {
        let mut ping = tokio::time::interval(Duration::from_secs(2));
        ping.tick().await;
        loop {
            tokio::select! {
                next = outbox.recv() => match next {
                    Some(Outgoing::Frame(frame)) => {
                        let len = frame.len();
                        let sent = crate::transport::send_binary(&mut sink, frame).await;
                        {
                            let mut in_flight = lock(&writer_link.in_flight);
                            *in_flight = in_flight.saturating_sub(len);
                        }
                        writer_link.drained.notify_all();
                        if let Err(error) = sent {
                            return format!("sending failed: {error}");
                        }
                    }
                    None => {
                        let _ = sink.close().await;
                        return String::from("the client was dropped");
                    }
                },
                _ = ping.tick() => {
                    if let Err(error) = sink.send(Message::Ping(Vec::new().into())).await {
                        return format!("sending failed: {error}");
                    }
                }
            }
        }
    });
    let max = options.max_message_bytes;
    let silence = options.heartbeat_timeout;
    let reader = async {
        loop {
            let next = match tokio::time::timeout(silence, stream.next()).await {
                Err(_) => {
                    return format!("the server has not been heard from for {silence:?}");
                }
                Ok(None) => return String::from("the server closed the connection"),
                Ok(Some(Err(error))) => return format!("receiving failed: {error}"),
                Ok(Some(Ok(message))) => message,
            };
            let bytes = match next {
                Message::Binary(bytes) => bytes,
                Message::Ping(_) | Message::Pong(_) => continue,
                Message::Close(_) => return String::from("the server closed the connection"),
                Message::Text(_) | Message::Frame(_) => {
                    return String::from("the server sent a non-binary frame");
                }
            };
            let (request, answer) =
                match wire::decode::<ServerMessage>(Direction::ToClient, &bytes, max) {
                    Err(error) => return format!("malformed answer: {error}"),
                    Ok(ServerMessage::Error(reason)) => {
                        return format!("the server ended the session: {reason}");
                    }
                    Ok(ServerMessage::Welcome { .. }) => {
                        return String::from("the server sent a second welcome");
                    }
                    Ok(ServerMessage::Data { request, result }) => {
                        (request, result.map(Answer::Data))
                    }
                    Ok(ServerMessage::Synced { request, result }) => {
                        (request, result.map(|()| Answer::Synced))
                    }
                };
            if let Some(waiter) = lock(&link.pending).remove(&request) {
                let _ = waiter.send(answer);
            }
        }
    };
    let reason = tokio::select! {
        reason = reader => reason,
        reason = &mut writer => reason.unwrap_or_else(|e| format!("writer failed: {e}")),
    };
    link.die(reason);
    writer.abort();
}
