//! # burn-remote: tensors on another machine
//!
//! Two halves around one wire format:
//!
//! - The **client** is a router channel: [`RemoteBackend`] is
//!   `BackendRouter<RemoteChannel>`, so each operation on a
//!   [`RemoteDevice`] becomes IR on the spot, and the IR is batched and
//!   sent to a server over WebSocket. Reads block until the server answers.
//! - The **server** ([`server::RemoteServer`]) runs one session per
//!   connection: the session's operations execute in order through
//!   `burn_router::TensorInterpreter` on one of its local devices (any
//!   backend), and its tensors are freed when the session ends, cleanly
//!   or not.
//!
//! The [`wire`] format is versioned and length-prefixed, with a maximum
//! message size; the server checks every frame before it allocates for
//! it, ends a session that breaks the protocol (and only that session),
//! and binds `127.0.0.1` unless told otherwise. A client whose server
//! dies gets an error within [`ClientOptions::heartbeat_timeout`] (8 s).
//!
//! It depends on the router, the IR and the backend contract, plus tokio
//! and tokio-tungstenite for the transport; it does not know the dispatch
//! layer or the tensor API (they wrap it as `Device::remote_options` and
//! `burn::server::RemoteServer`).
//!
//! ## Example
//!
//! A Flex server on a free local port, and a client computing on it:
//!
//! ```
//! use burn_backend::{Backend, FloatTensorOps, Scalar, TensorData};
//! use burn_flex::{Flex, FlexDevice};
//! use burn_remote::server::{RemoteServer, WebSocketTransport};
//! use burn_remote::{ClientOptions, RemoteBackend, RemoteDevice};
//!
//! let server = RemoteServer::<Flex>::new(vec![FlexDevice])
//!     .spawn(WebSocketTransport::new(0).unwrap());
//! let device = RemoteDevice::new(&server.url(), 0);
//! device.connect(&ClientOptions::default()).unwrap();
//!
//! let x = RemoteBackend::float_from_data(TensorData::from([1.0f32, 2.0]), &device);
//! let y = RemoteBackend::float_mul_scalar(x, Scalar::Float(3.0));
//! let values = RemoteBackend::float_into_data(y).unwrap().to_vec::<f32>().unwrap();
//! assert_eq!(values, vec![3.0, 6.0]);
//! ```
//!
//! ## Map
//! - [`wire`]: frames and messages.
//! - [`client`]: [`RemoteClient`] (batching, reads, liveness), [`ClientOptions`].
//! - [`channel`]: [`RemoteDevice`], [`RemoteChannel`], [`RemoteBackend`].
//! - [`server`]: `RemoteServer`, `ServerSettings`, `WebSocketTransport`,
//!   and the checks of a session.
#![warn(missing_docs)]

extern crate alloc;
extern crate std;

mod transport;
pub mod wire;

pub use transport::FRAGMENT_BYTES;

#[cfg(feature = "client")]
pub mod channel;
#[cfg(feature = "client")]
pub mod client;
#[cfg(feature = "server")]
pub mod server;

#[cfg(feature = "client")]
pub use channel::{RemoteBackend, RemoteChannel, RemoteDevice};
#[cfg(feature = "client")]
pub use client::{ClientOptions, ConnectError, RemoteClient, list_devices};
