//! `cargo run --release -p burn-bench --features remote --bin remote-bench
//! [-- --quick]`: what a remote device costs on loopback, each figure beside
//! its reference measured in the same run.
//!
//! - `add_scalar` on 8×8, 20,000 ops batched before one read: µs per op,
//!   remote vs Flex called directly;
//! - a read of an 8×8 tensor (one round trip): µs;
//! - a 256 MiB f32 tensor sent to the server and read back: GB/s each way,
//!   beside one copy of the same bytes through a plain loopback TCP socket;
//! - the MLP training step of the main suite (784-512-512-10, batch 256,
//!   Adam): median ms remote vs local, and the ratio.
//!
//! The server (Flex) runs in this process on its own threads, the client
//! on the caller's; both share the machine's cores.

#[path = "../mlp.rs"]
#[allow(dead_code)]
mod mlp;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

use burn::optim::AdamConfig;
use burn::prelude::*;
use burn::remote::RemoteHost;
use burn::server::{RemoteServer, WebSocketTransport};

fn per_op(device: &Device, ops: usize) -> f64 {
    let mut x = Tensor::<2>::zeros([8, 8], device);
    let _ = x.clone().into_data();
    let start = Instant::now();
    for _ in 0..ops {
        x = x + 1.0;
    }
    let values = x.into_data().to_vec::<f32>().unwrap();
    let elapsed = start.elapsed().as_secs_f64();
    assert_eq!(values[0], ops as f32);
    elapsed * 1e6 / ops as f64
}

fn round_trip(device: &Device, reads: usize) -> f64 {
    let x = Tensor::<2>::ones([8, 8], device);
    let _ = x.clone().into_data();
    let start = Instant::now();
    for _ in 0..reads {
        let _ = x.clone().into_data();
    }
    start.elapsed().as_secs_f64() * 1e6 / reads as f64
}

/// GB/s to the server (ended by a sync) and back (a read).
fn transfer(device: &Device, bytes: usize) -> (f64, f64) {
    let n = bytes / 4;
    let data = TensorData::new(vec![0.5f32; n], [n]);
    let start = Instant::now();
    let x = Tensor::<1>::from_data(data, device);
    device.sync();
    let up = bytes as f64 / start.elapsed().as_secs_f64() / 1e9;
    let start = Instant::now();
    let back = x.into_data();
    let down = bytes as f64 / start.elapsed().as_secs_f64() / 1e9;
    assert_eq!(back.bytes.len(), bytes);
    (up, down)
}

/// One copy of `bytes` through a loopback TCP socket, in 1 MiB writes.
fn tcp_copy(bytes: usize) -> f64 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let reader = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut buffer = vec![0u8; 1 << 20];
        let mut total = 0;
        while total < bytes {
            let n = stream.read(&mut buffer).unwrap();
            assert!(n > 0, "the copy ended early");
            total += n;
        }
    });
    let payload = vec![7u8; bytes];
    let mut stream = TcpStream::connect(addr).unwrap();
    let start = Instant::now();
    for chunk in payload.chunks(1 << 20) {
        stream.write_all(chunk).unwrap();
    }
    reader.join().unwrap();
    bytes as f64 / start.elapsed().as_secs_f64() / 1e9
}

/// Median time of `steps` MLP training steps on `device` (after 2 warm-up steps).
fn train_steps(device: &Device, steps: usize) -> Duration {
    device.seed(0);
    let device = device.clone().autodiff();
    let mut model = Some(mlp::Mlp::new(&mlp::WIDTHS, &device));
    let mut optimizer = AdamConfig::new().init();
    let x = Tensor::<2>::random([mlp::BATCH, mlp::WIDTHS[0]], Distribution::Default, &device);
    let targets = mlp::targets(mlp::BATCH, mlp::WIDTHS[3], &device);
    let mut times = Vec::with_capacity(steps);
    for step in 0..steps + 2 {
        let start = Instant::now();
        let current = model.take().expect("put back after every step");
        let (next, _loss) = mlp::train_step(current, &mut optimizer, x.clone(), targets.clone());
        model = Some(next);
        if step >= 2 {
            times.push(start.elapsed());
        }
    }
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let quick = std::env::args().any(|arg| arg == "--quick");
    let server = RemoteServer::new(vec![Device::flex()])
        .spawn(WebSocketTransport::new(0).expect("a free loopback port"));
    let host = RemoteHost::websocket(server.url());
    let remote = Device::remote_options(&host)
        .device_index(0)
        .init()
        .unwrap_or_else(|error| panic!("{error}"));
    let local = Device::flex();
    println!(
        "remote device: {remote} (server in process at {})",
        server.url()
    );

    let ops = if quick { 2_000 } else { 20_000 };
    let (r, l) = (per_op(&remote, ops), per_op(&local, ops));
    println!(
        "add_scalar 8x8, batched: {r:.2} us/op remote, {l:.2} us/op local ({ops} ops, one read)"
    );
    let reads = if quick { 200 } else { 2_000 };
    println!(
        "read of 8x8 (round trip): {:.1} us ({reads} reads)",
        round_trip(&remote, reads)
    );
    let bytes = if quick { 16 << 20 } else { 256 << 20 };
    let (up, down) = transfer(&remote, bytes);
    let tcp = tcp_copy(bytes);
    println!(
        "{} MiB tensor: {up:.2} GB/s to the server, {down:.2} GB/s back; plain TCP copy {tcp:.2} GB/s",
        bytes >> 20
    );
    let steps = if quick { 3 } else { 10 };
    let (r, l) = (train_steps(&remote, steps), train_steps(&local, steps));
    println!(
        "MLP training step (784-512-512-10, batch 256, Adam): {:.1} ms remote, {:.1} ms local, ratio {:.2} (median of {steps})",
        r.as_secs_f64() * 1e3,
        l.as_secs_f64() * 1e3,
        r.as_secs_f64() / l.as_secs_f64()
    );
}
