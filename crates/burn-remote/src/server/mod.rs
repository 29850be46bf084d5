//! The server: local devices offered to remote clients, one session per
//! connection.
//!
//! Each connection gets three parts that never wait on one another:
//! a reader task (decodes frames, checks them, queues batches up to a
//! bound), an executor thread (runs the session's requests in order on
//! its device through `TensorInterpreter`), and a writer task (sends the
//! answers, and a ping every [`ServerSettings::heartbeat`] so a client can
//! tell a busy server from a dead one). When any part ends, the session
//! ends: the queue is dropped, the interpreter with it, and so every tensor
//! of the session, whether the client said goodbye or vanished.

mod session;

pub use session::{Session, SessionError};

use alloc::format;
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::time::Duration;
use std::net::{SocketAddr, TcpListener as StdTcpListener};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use burn_backend::Backend;
use burn_std::DType;
use futures_util::{SinkExt, StreamExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};
use tokio_tungstenite::tungstenite::Message;

use crate::wire::{self, ClientMessage, DeviceInfo, Direction, Request, ServerMessage};

/// Limits and timeouts of a server. The defaults suit a server on one
/// machine for its own user; lower them for untrusted clients.
#[derive(Clone, Debug)]
pub struct ServerSettings {
    /// The largest frame accepted or sent, header included.
    pub max_message_bytes: usize,
    /// The most bytes of tensors one session may hold at once.
    pub max_session_bytes: u64,
    /// The most tensors one session may hold at once (failed ones included).
    pub max_session_tensors: usize,
    /// Batches a session may have received but not yet executed; the
    /// server stops reading from the connection while the queue is full.
    pub max_queued_batches: usize,
    /// Requests in one batch.
    pub max_batch_requests: usize,
    /// Sessions open at once; a connection beyond is refused.
    pub max_sessions: usize,
    /// Time a new connection has to finish the WebSocket handshake and
    /// say hello.
    pub handshake_timeout: Duration,
    /// Interval of the server's pings.
    pub heartbeat: Duration,
    /// A client silent for this long (not even answering pings) is gone:
    /// its session ends.
    pub client_timeout: Duration,
}

impl Default for ServerSettings {
    fn default() -> Self {
        Self {
            max_message_bytes: wire::DEFAULT_MAX_MESSAGE_BYTES,
            max_session_bytes: 16 << 30,
            max_session_tensors: 1 << 20,
            max_queued_batches: 64,
            max_batch_requests: 1 << 16,
            max_sessions: 256,
            handshake_timeout: Duration::from_secs(5),
            heartbeat: Duration::from_secs(2),
            client_timeout: Duration::from_secs(30),
        }
    }
}

type Authorizer = Arc<dyn Fn(Option<&str>) -> bool + Send + Sync>;

/// A server of local devices, the sessions' interpreters running on `B`.
///
/// ```no_run
/// use burn_flex::{Flex, FlexDevice};
/// use burn_remote::server::{RemoteServer, WebSocketTransport};
///
/// // Serves Flex on 127.0.0.1:3000 until the process ends.
/// RemoteServer::<Flex>::new(vec![FlexDevice])
///     .with_token("shared secret")
///     .serve(WebSocketTransport::new(3000).unwrap());
/// ```
pub struct RemoteServer<B: Backend> {
    devices: Vec<B::Device>,
    settings: ServerSettings,
    authorizer: Option<Authorizer>,
}

impl<B: Backend> RemoteServer<B> {
    /// A server of `devices`; clients pick one by index.
    ///
    /// # Panics
    /// If `devices` is empty.
    pub fn new(devices: Vec<B::Device>) -> Self {
        assert!(
            !devices.is_empty(),
            "RemoteServer::new: give at least one device to serve"
        );
        Self {
            devices,
            settings: ServerSettings::default(),
            authorizer: None,
        }
    }

    /// Replaces the limits and timeouts.
    pub fn with_settings(mut self, settings: ServerSettings) -> Self {
        self.settings = settings;
        self
    }

    /// Accepts a session only when `authorize` approves the credential its
    /// client sent (`None` when it sent none).
    pub fn with_authorizer(
        mut self,
        authorize: impl Fn(Option<&str>) -> bool + Send + Sync + 'static,
    ) -> Self {
        self.authorizer = Some(Arc::new(authorize));
        self
    }

    /// Accepts only clients presenting `token`, compared in constant time.
    pub fn with_token(self, token: impl Into<String>) -> Self {
        let token: String = token.into();
        self.with_authorizer(move |given| {
            given.is_some_and(|given| constant_time_eq(given.as_bytes(), token.as_bytes()))
        })
    }

    /// Serves on `transport` until the process ends, on a runtime of its own.
    pub fn serve(self, transport: WebSocketTransport) {
        runtime().block_on(self.serve_async(transport));
    }

    /// Serves on `transport` from a thread of its own and returns at once;
    /// the handle stops the server.
    pub fn spawn(self, transport: WebSocketTransport) -> ServerHandle {
        let addr = transport.local_addr();
        let (stop, stopped) = watch::channel(false);
        let stats = Arc::new(Stats::default());
        let thread_stats = stats.clone();
        let state = Shared::new(self, thread_stats);
        let thread = std::thread::Builder::new()
            .name(String::from("burn-remote-server"))
            .spawn(move || {
                runtime().block_on(accept_loop(state, transport, stopped));
            })
            .expect("burn-remote: cannot start the server thread");
        ServerHandle {
            addr,
            stop,
            thread: Some(thread),
            stats,
        }
    }

    /// Serves on `transport`; the future ends only if the listener fails.
    pub async fn serve_async(self, transport: WebSocketTransport) {
        let (_stop, stopped) = watch::channel(false);
        let state = Shared::new(self, Arc::new(Stats::default()));
        accept_loop(state, transport, stopped).await;
    }
}

/// Where a WebSocket server listens.
pub struct WebSocketTransport {
    listener: StdTcpListener,
}

impl WebSocketTransport {
    /// Listens on `127.0.0.1:port` (0 picks a free port): reachable from
    /// this machine only. Use [`bind`](Self::bind) to accept others.
    pub fn new(port: u16) -> std::io::Result<Self> {
        Self::bind(SocketAddr::from(([127, 0, 0, 1], port)))
    }

    /// Listens on `addr`, e.g. `0.0.0.0:3000` for every interface. The
    /// WebSocket transport is not encrypted: on a network you do not
    /// trust, put it behind TLS, and require a token.
    pub fn bind(addr: SocketAddr) -> std::io::Result<Self> {
        Self::from_listener(StdTcpListener::bind(addr)?)
    }

    /// Listens on a socket already bound.
    pub fn from_listener(listener: StdTcpListener) -> std::io::Result<Self> {
        listener.set_nonblocking(true)?;
        Ok(Self { listener })
    }

    /// The address listened on.
    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("burn-remote: a bound listener has an address")
    }
}

/// A server running on its own thread ([`RemoteServer::spawn`]).
pub struct ServerHandle {
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    thread: Option<std::thread::JoinHandle<()>>,
    stats: Arc<Stats>,
}

impl ServerHandle {
    /// The address the server listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The URL clients connect to.
    pub fn url(&self) -> String {
        format!("ws://{}", self.addr)
    }

    /// Sessions open now.
    pub fn sessions(&self) -> usize {
        self.stats.sessions.load(Ordering::Acquire)
    }

    /// Bytes of tensors held by all sessions, as of their last request.
    pub fn live_bytes(&self) -> u64 {
        self.stats.live_bytes.load(Ordering::Acquire)
    }

    /// Sessions ended by a protocol violation since the start.
    pub fn rejected(&self) -> u64 {
        self.stats.rejected.load(Ordering::Acquire)
    }

    /// Connection tasks or session threads that panicked since the start
    /// (a bug of the server: hostile input must end a session cleanly).
    pub fn crashed(&self) -> u64 {
        self.stats.crashed.load(Ordering::Acquire)
    }

    /// Stops listening and drops every connection at once, as a crash
    /// would (no goodbye is sent), then waits for the server thread.
    pub fn shutdown(mut self) {
        self.stop_now();
    }

    fn stop_now(&mut self) {
        let _ = self.stop.send(true);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for ServerHandle {
    fn drop(&mut self) {
        self.stop_now();
    }
}

#[derive(Default)]
struct Stats {
    sessions: AtomicUsize,
    live_bytes: AtomicU64,
    rejected: AtomicU64,
    crashed: AtomicU64,
}

struct Shared<B: Backend> {
    devices: Vec<B::Device>,
    names: Vec<String>,
    settings: ServerSettings,
    authorizer: Option<Authorizer>,
    stats: Arc<Stats>,
}

impl<B: Backend> Shared<B> {
    fn new(server: RemoteServer<B>, stats: Arc<Stats>) -> Arc<Self> {
        let names = server.devices.iter().map(|d| B::name(d)).collect();
        Arc::new(Self {
            devices: server.devices,
            names,
            settings: server.settings,
            authorizer: server.authorizer,
            stats,
        })
    }
}

/// The process's server runtime: two workers are plenty for I/O; the
/// sessions execute on threads of their own.
fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: std::sync::OnceLock<tokio::runtime::Runtime> = std::sync::OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("burn-remote-io")
            .enable_all()
            .build()
            .expect("burn-remote: cannot start the server runtime")
    })
}

async fn accept_loop<B: Backend>(
    state: Arc<Shared<B>>,
    transport: WebSocketTransport,
    mut stopped: watch::Receiver<bool>,
) {
    let listener = match TcpListener::from_std(transport.listener) {
        Ok(listener) => listener,
        Err(error) => {
            log_line(&format!("cannot listen: {error}"));
            return;
        }
    };
    let mut connections = tokio::task::JoinSet::new();
    let stats = state.stats.clone();
    let reap = |joined: Result<(), tokio::task::JoinError>| {
        if joined.is_err_and(|error| error.is_panic()) {
            stats.crashed.fetch_add(1, Ordering::AcqRel);
        }
    };
    loop {
        tokio::select! {
            _ = stopped.changed() => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _peer)) => {
                    let _ = stream.set_nodelay(true);
                    let state = state.clone();
                    let stopped = stopped.clone();
                    connections.spawn(connection(state, stream, stopped));
                }
                // Out of descriptors and the like: wait a little, go on.
                Err(_) => tokio::time::sleep(Duration::from_millis(10)).await,
            },
            // Reap finished connections so the set does not grow.
            Some(joined) = connections.join_next(), if !connections.is_empty() => reap(joined),
        }
    }
    connections.abort_all();
    while let Some(joined) = connections.join_next().await {
        reap(joined);
    }
}

/// Decrements the session count when the session ends, however it ends.
struct SessionSlot(Arc<Stats>);

impl Drop for SessionSlot {
    fn drop(&mut self) {
        self.0.sessions.fetch_sub(1, Ordering::AcqRel);
    }
}

async fn connection<B: Backend>(
    state: Arc<Shared<B>>,
    stream: TcpStream,
    stopped: watch::Receiver<bool>,
) {
    let settings = &state.settings;
    let max = settings.max_message_bytes;
    let config = crate::transport::config(max);
    let handshake = tokio_tungstenite::accept_async_with_config(stream, Some(config));
    let Ok(Ok(mut socket)) = tokio::time::timeout(settings.handshake_timeout, handshake).await
    else {
        return;
    };
    // The first message: hello, within the handshake time.
    let first = tokio::time::timeout(settings.handshake_timeout, socket.next()).await;
    let hello = match first {
        Ok(Some(Ok(Message::Binary(bytes)))) => {
            wire::decode::<ClientMessage>(Direction::ToServer, &bytes, max)
                .map_err(|e| format!("hello: {e}"))
        }
        Ok(Some(Ok(other))) => Err(format!(
            "hello: expected a binary frame, got {}",
            message_kind(&other)
        )),
        Ok(Some(Err(error))) => Err(format!("hello: {error}")),
        Ok(None) => return,
        Err(_) => Err(format!(
            "hello: nothing received within {:?}",
            settings.handshake_timeout
        )),
    };
    let (token, device_index) = match hello {
        Ok(ClientMessage::Hello {
            token,
            device_index,
        }) => (token, device_index),
        Ok(ClientMessage::Batch(_)) => {
            return refuse(&state, socket, "hello: a batch arrived before hello").await;
        }
        Err(reason) => return refuse(&state, socket, &reason).await,
    };
    if let Some(authorize) = &state.authorizer
        && !authorize(token.as_deref())
    {
        return refuse(&state, socket, "hello: the credential was refused").await;
    }
    let device = match device_index {
        None => None,
        Some(index) => match state.devices.get(index as usize) {
            Some(device) => Some(device.clone()),
            None => {
                let reason = format!(
                    "hello: no device {index} (the server has {})",
                    state.devices.len()
                );
                return refuse(&state, socket, &reason).await;
            }
        },
    };
    let Some(device) = device else {
        let welcome = ServerMessage::Welcome {
            devices: state.names.clone(),
            device: None,
        };
        let _ = send(&mut socket, &welcome, max).await;
        let _ = socket.close(None).await;
        return;
    };
    let open = state.stats.sessions.fetch_add(1, Ordering::AcqRel);
    let _slot = SessionSlot(state.stats.clone());
    if open >= settings.max_sessions {
        let reason = format!("the server has {} sessions open, its limit", open);
        return refuse(&state, socket, &reason).await;
    }
    let welcome = ServerMessage::Welcome {
        devices: state.names.clone(),
        device: Some(device_info::<B>(&device)),
    };
    if send(&mut socket, &welcome, max).await.is_err() {
        return;
    }
    run_session(state.clone(), socket, device, stopped).await;
}

async fn run_session<B: Backend>(
    state: Arc<Shared<B>>,
    socket: tokio_tungstenite::WebSocketStream<TcpStream>,
    device: B::Device,
    mut stopped: watch::Receiver<bool>,
) {
    let settings = state.settings.clone();
    let max = settings.max_message_bytes;
    let (mut sink, mut stream) = socket.split();
    let (batches, mut queue) = mpsc::channel::<Vec<Request>>(settings.max_queued_batches.max(1));
    let (answers, mut outbox) = mpsc::unbounded_channel::<Outgoing>();
    let cancelled = Arc::new(AtomicBool::new(false));
    // Counts this session in `Stats::rejected` once, whichever part sees
    // the violation first (the executor and the reader may both).
    let rejected = Arc::new(Rejected {
        flag: AtomicBool::new(false),
        stats: state.stats.clone(),
    });
    // Set by the writer when it stops (a fatal error sent, or the peer gone):
    // the reader must not wait for a client that will say nothing more.
    let ended = Arc::new(tokio::sync::Notify::new());

    // The executor: the session's requests in order, on a thread of its own.
    let executor = {
        let answers = answers.clone();
        let cancelled = cancelled.clone();
        let stats = state.stats.clone();
        let rejected = rejected.clone();
        let settings = settings.clone();
        std::thread::Builder::new()
            .name(String::from("burn-remote-session"))
            .spawn(move || {
                let mut session = Session::<B>::new(device, &settings);
                let mut reported = 0u64;
                while let Some(batch) = queue.blocking_recv() {
                    for request in batch {
                        if cancelled.load(Ordering::Acquire) {
                            break;
                        }
                        match session.handle(request) {
                            Ok(None) => {}
                            Ok(Some(answer)) => {
                                let _ = answers.send(Outgoing::Message(answer));
                            }
                            Err(error) => {
                                rejected.mark();
                                let _ = answers.send(Outgoing::Fatal(error.to_string()));
                                cancelled.store(true, Ordering::Release);
                            }
                        }
                    }
                    let now = session.live_bytes();
                    update_bytes(&stats, &mut reported, now);
                    if cancelled.load(Ordering::Acquire) {
                        break;
                    }
                }
                // The session's tensors go with it.
                drop(session);
                update_bytes(&stats, &mut reported, 0);
            })
    };
    let Ok(executor) = executor else {
        return;
    };

    // The writer: answers and pings.
    let writer_ended = ended.clone();
    let mut writer_stopped = stopped.clone();
    let writer = tokio::spawn(async move {
        let mut ping = tokio::time::interval(settings.heartbeat);
        ping.tick().await;
        loop {
            tokio::select! {
                // A shutdown drops the socket without a goodbye.
                _ = writer_stopped.changed() => break,
                next = outbox.recv() => match next {
                    Some(Outgoing::Message(message)) => {
                        let frame = match wire::encode(Direction::ToClient, &message, max) {
                            Ok(frame) => frame,
                            Err(error) => {
                                // An answer too large to send: say so instead.
                                let fallback = answer_error(&message, &error.to_string());
                                match wire::encode(Direction::ToClient, &fallback, max) {
                                    Ok(frame) => frame,
                                    Err(_) => break,
                                }
                            }
                        };
                        if crate::transport::send_binary(&mut sink, frame).await.is_err() {
                            break;
                        }
                    }
                    Some(Outgoing::Fatal(reason)) => {
                        if let Ok(frame) = wire::encode(
                            Direction::ToClient,
                            &ServerMessage::Error(reason),
                            max,
                        ) {
                            let _ = sink.send(Message::Binary(frame.into())).await;
                        }
                        let _ = sink.close().await;
                        break;
                    }
                    None => {
                        let _ = sink.close().await;
                        break;
                    }
                },
                _ = ping.tick() => {
                    if sink.send(Message::Ping(Vec::new().into())).await.is_err() {
                        break;
                    }
                }
            }
        }
        writer_ended.notify_one();
    });

    // The reader: this task.
    let fatal = |reason: String| {
        let _ = answers.send(Outgoing::Fatal(reason));
    };
    loop {
        let next = tokio::select! {
            _ = stopped.changed() => break,
            _ = ended.notified() => break,
            next = tokio::time::timeout(settings.client_timeout, stream.next()) => next,
        };
        if cancelled.load(Ordering::Acquire) {
            break;
        }
        let message = match next {
            Err(_) => break, // silent for too long: gone
            Ok(None) => break,
            Ok(Some(Err(error))) => {
                use tokio_tungstenite::tungstenite::Error as WsError;
                use tokio_tungstenite::tungstenite::error::ProtocolError;
                // A peer that vanished is not a violation; a frame over the
                // limit or against the protocol is.
                let vanished = matches!(
                    error,
                    WsError::Io(_)
                        | WsError::ConnectionClosed
                        | WsError::AlreadyClosed
                        | WsError::Protocol(ProtocolError::ResetWithoutClosingHandshake)
                );
                if !vanished {
                    rejected.mark();
                    fatal(format!("connection: {error}"));
                }
                break;
            }
            Ok(Some(Ok(message))) => message,
        };
        let bytes = match message {
            Message::Binary(bytes) => bytes,
            Message::Ping(_) | Message::Pong(_) => continue,
            Message::Close(_) => break,
            other => {
                rejected.mark();
                fatal(format!(
                    "expected a binary frame, got {}",
                    message_kind(&other)
                ));
                break;
            }
        };
        let batch = match wire::decode::<ClientMessage>(Direction::ToServer, &bytes, max) {
            Ok(ClientMessage::Batch(batch)) => batch,
            Ok(ClientMessage::Hello { .. }) => {
                rejected.mark();
                fatal(String::from("hello: the session is already open"));
                break;
            }
            Err(error) => {
                rejected.mark();
                fatal(error.to_string());
                break;
            }
        };
        if batch.len() > settings.max_batch_requests {
            rejected.mark();
            fatal(format!(
                "batch of {} requests exceeds the limit of {}",
                batch.len(),
                settings.max_batch_requests
            ));
            break;
        }
        // A full queue stops this loop, and so the reading of the socket:
        // the client's sends then wait on TCP, which bounds its backlog.
        let sent = tokio::select! {
            _ = stopped.changed() => break,
            sent = batches.send(batch) => sent,
        };
        if sent.is_err() {
            break; // the executor ended the session
        }
    }
    // Ends the executor (its queue closes) without running what is left.
    cancelled.store(true, Ordering::Release);
    drop(batches);
    drop(answers);
    if *stopped.borrow() {
        writer.abort();
    }
    let _ = writer.await;
    let joined = tokio::task::spawn_blocking(move || executor.join()).await;
    if !matches!(joined, Ok(Ok(()))) {
        state.stats.crashed.fetch_add(1, Ordering::AcqRel);
    }
}

struct Rejected {
    flag: AtomicBool,
    stats: Arc<Stats>,
}

impl Rejected {
    fn mark(&self) {
        if !self.flag.swap(true, Ordering::AcqRel) {
            self.stats.rejected.fetch_add(1, Ordering::AcqRel);
        }
    }
}

fn update_bytes(stats: &Stats, reported: &mut u64, now: u64) {
    if now >= *reported {
        stats
            .live_bytes
            .fetch_add(now - *reported, Ordering::AcqRel);
    } else {
        stats
            .live_bytes
            .fetch_sub(*reported - now, Ordering::AcqRel);
    }
    *reported = now;
}

enum Outgoing {
    Message(ServerMessage),
    Fatal(String),
}

fn answer_error(message: &ServerMessage, reason: &str) -> ServerMessage {
    match message {
        ServerMessage::Data { request, .. } => ServerMessage::Data {
            request: *request,
            result: Err(format!("read: {reason}")),
        },
        ServerMessage::Synced { request, .. } => ServerMessage::Synced {
            request: *request,
            result: Err(format!("sync: {reason}")),
        },
        ServerMessage::Welcome { .. } | ServerMessage::Error(_) => {
            ServerMessage::Error(reason.to_string())
        }
    }
}

async fn send(
    socket: &mut tokio_tungstenite::WebSocketStream<TcpStream>,
    message: &ServerMessage,
    max: usize,
) -> Result<(), ()> {
    let frame = wire::encode(Direction::ToClient, message, max).map_err(|_| ())?;
    crate::transport::send_binary(socket, frame)
        .await
        .map_err(|_| ())
}

async fn refuse<B: Backend>(
    state: &Shared<B>,
    mut socket: tokio_tungstenite::WebSocketStream<TcpStream>,
    reason: &str,
) {
    state.stats.rejected.fetch_add(1, Ordering::AcqRel);
    let _ = send(
        &mut socket,
        &ServerMessage::Error(reason.to_string()),
        state.settings.max_message_bytes,
    )
    .await;
    let _ = tokio::time::timeout(Duration::from_secs(1), socket.close(None)).await;
}

fn device_info<B: Backend>(device: &B::Device) -> DeviceInfo {
    let candidates = DType::ALL.into_iter().chain([
        DType::Bool(burn_std::BoolStore::U8),
        DType::Bool(burn_std::BoolStore::U32),
    ]);
    DeviceInfo {
        name: B::name(device),
        supported: candidates
            .filter(|dtype| B::supports_dtype(device, *dtype))
            .collect(),
        float: B::default_float_dtype(device),
        int: B::default_int_dtype(device),
        bool: B::bool_dtype(device),
        index: B::index_dtype(device),
    }
}

fn message_kind(message: &Message) -> &'static str {
    match message {
        Message::Text(_) => "a text frame",
        Message::Binary(_) => "a binary frame",
        Message::Ping(_) => "a ping",
        Message::Pong(_) => "a pong",
        Message::Close(_) => "a close frame",
        Message::Frame(_) => "a raw frame",
    }
}

/// Equality of two secrets in time independent of where they differ.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    let mut diff = (a.len() != b.len()) as u8;
    for i in 0..a.len().max(b.len()) {
        let x = a.get(i).copied().unwrap_or(0);
        let y = b.get(i).copied().unwrap_or(0);
        diff |= x ^ y;
    }
    diff == 0
}

fn log_line(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "burn-remote server: {line}");
}
