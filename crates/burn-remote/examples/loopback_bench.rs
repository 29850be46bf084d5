//! `cargo run --release -p burn-remote --example loopback_bench`: what the
//! remote layer costs on loopback, beside what it is compared with.
//!
//! - batched ops: µs per `add_scalar` on an 8×8 tensor, remote vs Flex
//!   called directly;
//! - a round-trip read of an 8×8 tensor (µs);
//! - moving a 256 MiB tensor to the server and back (GB/s), beside a plain
//!   TCP copy of the same bytes on loopback.
//!
//! The server runs in this process (its own threads), as in the tests.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Instant;

use burn_backend::{Backend, BackendTypes, FloatTensorOps, Scalar, TensorData};
use burn_flex::{Flex, FlexDevice};
use burn_remote::server::{RemoteServer, WebSocketTransport};
use burn_remote::{ClientOptions, RemoteBackend, RemoteDevice};

type R = RemoteBackend;

fn per_op<B: Backend>(device: &B::Device, ops: usize) -> f64 {
    let mut x: <B as BackendTypes>::FloatTensorPrimitive =
        B::float_from_data(TensorData::new(vec![0.0f32; 64], [8, 8]), device);
    let _ = B::float_into_data(x.clone()).unwrap();
    let start = Instant::now();
    for _ in 0..ops {
        x = B::float_add_scalar(x, Scalar::Float(1.0));
    }
    let values = B::float_into_data(x).unwrap().to_vec::<f32>().unwrap();
    let elapsed = start.elapsed().as_secs_f64();
    assert_eq!(values[0], ops as f32);
    elapsed * 1e6 / ops as f64
}

fn round_trip(device: &RemoteDevice, reads: usize) -> f64 {
    let x = R::float_from_data(TensorData::new(vec![1.0f32; 64], [8, 8]), device);
    let _ = R::float_into_data(x.clone()).unwrap();
    let start = Instant::now();
    for _ in 0..reads {
        let _ = R::float_into_data(x.clone()).unwrap();
    }
    start.elapsed().as_secs_f64() * 1e6 / reads as f64
}

fn transfer(device: &RemoteDevice, bytes: usize) -> (f64, f64) {
    let n = bytes / 4;
    let data = TensorData::new(vec![0.5f32; n], [n]);
    let start = Instant::now();
    let x = R::float_from_data(data, device);
    R::sync(device).unwrap();
    let up = bytes as f64 / start.elapsed().as_secs_f64() / 1e9;
    let start = Instant::now();
    let back = R::float_into_data(x).unwrap();
    let down = bytes as f64 / start.elapsed().as_secs_f64() / 1e9;
    assert_eq!(back.bytes.len(), bytes);
    (up, down)
}

/// One copy of `bytes` through a loopback TCP socket (64 KiB writes).
fn tcp_copy(bytes: usize) -> f64 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let reader = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut buffer = vec![0u8; 1 << 16];
        let mut total = 0;
        while total < bytes {
            let n = stream.read(&mut buffer).unwrap();
            assert!(n > 0);
            total += n;
        }
    });
    let payload = vec![7u8; bytes];
    let mut stream = TcpStream::connect(addr).unwrap();
    let start = Instant::now();
    for chunk in payload.chunks(1 << 16) {
        stream.write_all(chunk).unwrap();
    }
    reader.join().unwrap();
    bytes as f64 / start.elapsed().as_secs_f64() / 1e9
}

fn main() {
    let server =
        RemoteServer::<Flex>::new(vec![FlexDevice]).spawn(WebSocketTransport::new(0).unwrap());
    let device = RemoteDevice::new(&server.url(), 0);
    device.connect(&ClientOptions::default()).unwrap();

    let ops = 20_000;
    let local = per_op::<Flex>(&FlexDevice, ops);
    let remote = per_op::<R>(&device, ops);
    println!(
        "batched add_scalar on 8x8: {remote:.2} us/op remote, {local:.2} us/op Flex direct ({ops} ops, one read)"
    );
    let reads = 2_000;
    println!(
        "round-trip read of 8x8: {:.1} us ({reads} reads)",
        round_trip(&device, reads)
    );
    let bytes = 256 << 20;
    let (up, down) = transfer(&device, bytes);
    let tcp = tcp_copy(bytes);
    println!(
        "256 MiB tensor: {up:.2} GB/s to the server, {down:.2} GB/s back; plain TCP copy {tcp:.2} GB/s"
    );
}
