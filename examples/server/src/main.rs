//! `cargo run --release -p server -- [PORT] [--public] [--token SECRET]`:
//! serves `Device::default()` to remote clients over WebSocket.
//!
//! It listens on `127.0.0.1:PORT` (3000 by default), reachable from this
//! machine only; `--public` listens on every interface instead (the
//! transport is not encrypted: use it on a network you trust, with a
//! token). Each client connection is a session with its own tensors, freed
//! when the client goes.

use std::net::SocketAddr;

use burn::prelude::*;
use burn::server::{RemoteServer, WebSocketTransport};

fn main() {
    let mut port = 3000u16;
    let mut public = false;
    let mut token = std::env::var("BURN_REMOTE_TOKEN").ok();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--public" => public = true,
            "--token" => token = args.next(),
            other => {
                port = other.parse().unwrap_or_else(|_| {
                    panic!("usage: server [PORT] [--public] [--token SECRET]; got `{other}`")
                })
            }
        }
    }
    let addr = if public {
        SocketAddr::from(([0, 0, 0, 0], port))
    } else {
        SocketAddr::from(([127, 0, 0, 1], port))
    };
    let transport = WebSocketTransport::bind(addr)
        .unwrap_or_else(|error| panic!("cannot listen on {addr}: {error}"));
    let device = Device::default();
    println!(
        "serving {device} on ws://{}{}",
        transport.local_addr(),
        if token.is_some() {
            " (token required)"
        } else {
            ""
        }
    );
    let mut server = RemoteServer::new(vec![device]);
    if let Some(token) = token {
        server = server.with_token(token);
    }
    server.serve(transport);
}
