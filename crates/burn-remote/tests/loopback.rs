//! The server and client on loopback: parallel sessions, hostile input,
//! a server that dies or goes silent, connect/disconnect cycles.
//!
//! Every loop is bounded in count and in time.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::{Duration, Instant};

use burn_backend::ops::vocabulary::BinaryOp;
use burn_backend::{Backend, FloatTensorOps, Scalar, TensorData};
use burn_flex::{Flex, FlexDevice};
use burn_ir::{
    BinaryOpIr, NumericKind, NumericOperationIr, OperationIr, TensorId, TensorIr, TensorStatus,
};
use burn_remote::server::{RemoteServer, ServerHandle, ServerSettings, WebSocketTransport};
use burn_remote::wire::{self, ClientMessage, Direction, Request, ServerMessage};
use burn_remote::{ClientOptions, ConnectError, RemoteBackend, RemoteDevice};
use burn_router::RunnerClient;
use burn_std::{DType, Shape};
use tokio_tungstenite::tungstenite::{self, Message};

type R = RemoteBackend;

fn serve(settings: ServerSettings) -> ServerHandle {
    RemoteServer::<Flex>::new(vec![FlexDevice])
        .with_settings(settings)
        .spawn(WebSocketTransport::new(0).unwrap())
}

/// A device of its own session: the query string makes the URL (and so the
/// device) distinct; the server ignores it.
fn session(server: &ServerHandle, name: &str) -> RemoteDevice {
    let device = RemoteDevice::new(&format!("{}/?{name}", server.url()), 0);
    device.connect(&ClientOptions::default()).unwrap();
    device
}

fn values(tensor: <R as burn_backend::BackendTypes>::FloatTensorPrimitive) -> Vec<f32> {
    R::float_into_data(tensor).unwrap().to_vec::<f32>().unwrap()
}

/// Polls `done` every 10 ms for at most `limit`.
fn eventually(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    done()
}

/// One well-formed client: a session computing `[1, 2] * 3 + 1`.
fn well_formed_client_is_served(server: &ServerHandle) {
    let frame_hello = wire::encode(
        Direction::ToServer,
        &ClientMessage::Hello {
            token: None,
            device_index: Some(0),
        },
        1 << 20,
    )
    .unwrap();
    let (mut socket, _) = tungstenite::connect(server.url()).expect("the server still accepts");
    socket.send(Message::Binary(frame_hello.into())).unwrap();
    let welcome = read_server(&mut socket).expect("a welcome");
    assert!(matches!(
        welcome,
        ServerMessage::Welcome {
            device: Some(_),
            ..
        }
    ));
    let t = |id, shape: [usize; 1], status| TensorIr {
        id: TensorId::new(id),
        shape: Shape::new(shape),
        dtype: DType::F32,
        status,
    };
    let batch = ClientMessage::Batch(vec![
        Request::Tensor {
            out: t(0, [2], TensorStatus::NotInit),
            data: TensorData::from([1.0f32, 2.0]),
        },
        Request::Tensor {
            out: t(1, [2], TensorStatus::NotInit),
            data: TensorData::from([3.0f32, 4.0]),
        },
        Request::Op(OperationIr::Numeric(
            NumericKind::Float,
            NumericOperationIr::Binary {
                op: BinaryOp::Mul,
                desc: BinaryOpIr {
                    lhs: t(0, [2], TensorStatus::ReadWrite),
                    rhs: t(1, [2], TensorStatus::ReadWrite),
                    out: t(2, [2], TensorStatus::NotInit),
                },
            },
        )),
        Request::Read {
            request: 7,
            tensor: t(2, [2], TensorStatus::ReadWrite),
        },
    ]);
    let frame = wire::encode(Direction::ToServer, &batch, 1 << 20).unwrap();
    socket.send(Message::Binary(frame.into())).unwrap();
    match read_server(&mut socket) {
        Some(ServerMessage::Data {
            request: 7,
            result: Ok(data),
        }) => assert_eq!(data.to_vec::<f32>().unwrap(), vec![3.0, 8.0]),
        other => panic!("expected the product, got {other:?}"),
    }
    let _ = socket.close(None);
}

fn read_server(socket: &mut tungstenite::WebSocket<impl Read + Write>) -> Option<ServerMessage> {
    loop {
        match socket.read().ok()? {
            Message::Binary(bytes) => {
                return wire::decode(Direction::ToClient, &bytes, 1 << 30).ok();
            }
            Message::Ping(_) | Message::Pong(_) => continue,
            _ => return None,
        }
    }
}

#[test]
fn operations_round_trip() {
    let server = serve(ServerSettings::default());
    let device = session(&server, "round-trip");
    let x = R::float_from_data(TensorData::from([1.0f32, -2.0, 3.0]), &device);
    let y = R::float_add_scalar(R::float_exp(x.clone()), Scalar::Float(1.0));
    let got = values(y);
    for (g, v) in got.iter().zip([1.0f32, -2.0, 3.0]) {
        assert!((g - (v.exp() + 1.0)).abs() < 1e-5, "{got:?}");
    }
    assert_eq!(values(x), vec![1.0, -2.0, 3.0]);
    R::sync(&device).unwrap();
    assert!(R::name(&device).contains("remote<"), "{}", R::name(&device));
    assert!(R::supports_dtype(&device, DType::F32));
}

#[test]
fn a_tensor_larger_than_a_fragment_goes_there_and_back() {
    let server = serve(ServerSettings::default());
    let device = session(&server, "large");
    // 3.5 fragments each way.
    let n = burn_remote::FRAGMENT_BYTES * 7 / 8;
    let values: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
    let x = R::float_from_data(TensorData::new(values.clone(), [n]), &device);
    let y = R::float_add_scalar(x, Scalar::Float(1.0));
    let back = values_of(y);
    assert_eq!(back.len(), n);
    assert!(back.iter().zip(&values).all(|(b, v)| *b == v + 1.0));
}

#[test]
fn a_quantized_tensor_goes_there_and_back_with_its_scales() {
    use burn_backend::QTensorOps;
    use burn_std::quantization::{Calibration, QuantScheme, QuantStore, QuantValue, ScaleDtype};

    let server = serve(ServerSettings::default());
    let device = session(&server, "quantized");
    let values: Vec<f32> = (0..64).map(|i| (i as f32 - 30.0) / 7.0).collect();
    let float = TensorData::new(values, [4, 16]);
    for scheme in [
        QuantScheme::default().with_value(QuantValue::Q8S),
        QuantScheme::default()
            .with_value(QuantValue::Q4S)
            .with_store(QuantStore::PackedU32(0))
            .per_block([8], ScaleDtype::F32),
    ] {
        let quantized = float.quantize(&scheme, Calibration::MinMax).unwrap();
        // 64 values of 8 (4) bits and their scales: not the element size
        // times the element count, which the server must not assume.
        let tensor = R::q_from_data(quantized.clone(), &device);
        let back = R::q_into_data(tensor).unwrap();
        assert_eq!(back.dtype, quantized.dtype);
        assert_eq!(&back.bytes[..], &quantized.bytes[..], "{scheme:?}");
    }
    assert_eq!(server.rejected(), 0);
    assert_eq!(server.crashed(), 0);
}

fn values_of(tensor: <R as burn_backend::BackendTypes>::FloatTensorPrimitive) -> Vec<f32> {
    values(tensor)
}

#[test]
fn eight_clients_in_parallel_get_their_own_results() {
    let server = Arc::new(serve(ServerSettings::default()));
    let threads: Vec<_> = (0..8)
        .map(|client| {
            let server = server.clone();
            std::thread::spawn(move || {
                let device = session(&server, &format!("parallel-{client}"));
                let base = client as f32;
                let mut acc = R::float_from_data(TensorData::from([base; 64]), &device);
                // 200 batched ops, one read: acc = base + 200 * 0.5.
                for _ in 0..200 {
                    acc = R::float_add_scalar(acc, Scalar::Float(0.5));
                }
                let got = values(acc);
                assert!(
                    got.iter().all(|&v| v == base + 100.0),
                    "client {client}: {got:?}"
                );
                device.disconnect();
            })
        })
        .collect();
    for thread in threads {
        thread.join().expect("a client failed");
    }
    assert_eq!(server.crashed(), 0);
}

#[test]
fn a_credential_is_required_when_configured() {
    let server = RemoteServer::<Flex>::new(vec![FlexDevice])
        .with_token("open sesame")
        .spawn(WebSocketTransport::new(0).unwrap());
    let connect = |name: &str, token: Option<&str>| {
        let device = RemoteDevice::new(&format!("{}/?{name}", server.url()), 0);
        let options = ClientOptions {
            token: token.map(String::from),
            ..ClientOptions::default()
        };
        device.connect(&options).map(|()| device)
    };
    for (name, token) in [("none", None), ("wrong", Some("open barley"))] {
        match connect(name, token) {
            Err(ConnectError::Refused { reason, .. }) => {
                assert!(reason.contains("credential"), "{reason}")
            }
            other => panic!("{name}: expected a refusal, got {:?}", other.map(|_| ())),
        }
    }
    let device = connect("right", Some("open sesame")).unwrap();
    let x = R::float_from_data(TensorData::from([2.0f32]), &device);
    assert_eq!(values(x), vec![2.0]);
}

#[test]
fn a_device_index_out_of_range_is_refused() {
    let server = serve(ServerSettings::default());
    let device = RemoteDevice::new(&server.url(), 3);
    match device.connect(&ClientOptions::default()) {
        Err(ConnectError::Refused { reason, .. }) => {
            assert!(reason.contains("no device 3"), "{reason}")
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(
        burn_remote::list_devices(&server.url(), &ClientOptions::default()).unwrap(),
        vec![Flex::name(&FlexDevice)]
    );
}

#[test]
fn a_failed_operation_fails_its_reads_and_the_session_goes_on() {
    let server = serve(ServerSettings::default());
    let device = session(&server, "failed-op");
    let client = device.client_if_connected().unwrap();
    let t = |id, n: usize, status| TensorIr {
        id: TensorId::new(id),
        shape: Shape::new([n]),
        dtype: DType::F32,
        status,
    };
    let base = 1_000_000;
    client.register_tensor(
        t(base, 2, TensorStatus::NotInit),
        TensorData::from([1.0f32, 2.0]),
    );
    client.register_tensor(
        t(base + 1, 3, TensorStatus::NotInit),
        TensorData::from([1.0f32, 2.0, 3.0]),
    );
    // [2] + [3] does not broadcast: no router records it; the backend refuses.
    client.register_op(OperationIr::Numeric(
        NumericKind::Float,
        NumericOperationIr::Binary {
            op: BinaryOp::Add,
            desc: BinaryOpIr {
                lhs: t(base, 2, TensorStatus::ReadOnly),
                rhs: t(base + 1, 3, TensorStatus::ReadOnly),
                out: t(base + 2, 3, TensorStatus::NotInit),
            },
        },
    ));
    let error = client
        .read_tensor(t(base + 2, 3, TensorStatus::ReadWrite))
        .expect_err("the sum cannot exist");
    assert!(format!("{error}").contains("numeric"), "{error}");
    // The operands are intact, and the session still computes.
    let a = client
        .read_tensor(t(base, 2, TensorStatus::ReadWrite))
        .unwrap();
    assert_eq!(a.to_vec::<f32>().unwrap(), vec![1.0, 2.0]);
    let x = R::float_from_data(TensorData::from([5.0f32]), &device);
    assert_eq!(values(x), vec![5.0]);
    assert_eq!(server.crashed(), 0);
}

#[test]
fn an_unknown_tensor_ends_only_its_session() {
    let server = serve(ServerSettings::default());
    let bystander = session(&server, "bystander");
    let kept = R::float_from_data(TensorData::from([4.0f32]), &bystander);
    let device = session(&server, "unknown-id");
    let client = device.client_if_connected().unwrap();
    let ghost = TensorIr {
        id: TensorId::new(424242),
        shape: Shape::new([1]),
        dtype: DType::F32,
        status: TensorStatus::ReadWrite,
    };
    let error = client.read_tensor(ghost).expect_err("no such tensor");
    let text = format!("{error}");
    assert!(
        text.contains("no tensor") && text.contains("424242"),
        "{text}"
    );
    // Every later read fails at once with the reason.
    let again = client.sync().expect_err("the session is over");
    assert!(format!("{again}").contains("lost"), "{again}");
    assert!(server.rejected() >= 1);
    assert_eq!(values(kept), vec![4.0]);
    assert_eq!(server.crashed(), 0);
}

#[test]
fn the_session_memory_limit_ends_the_session_before_allocating() {
    let server = serve(ServerSettings {
        max_session_bytes: 1 << 20,
        ..ServerSettings::default()
    });
    let device = session(&server, "memory-limit");
    let client = device.client_if_connected().unwrap();
    // 2^40 f32 zeros: never allocated, refused by the declared size.
    let huge = TensorIr {
        id: client.new_tensor_id(),
        shape: Shape::new([1 << 20, 1 << 20]),
        dtype: DType::F32,
        status: TensorStatus::NotInit,
    };
    client.register_op(OperationIr::Init(burn_ir::InitOperationIr::Full {
        value: burn_ir::ScalarIr::new(Scalar::Float(0.0), DType::F32),
        out: huge,
    }));
    let error = client.sync().expect_err("over the limit");
    assert!(format!("{error}").contains("limit"), "{error}");
    well_formed_client_is_served(&server);
    assert_eq!(server.crashed(), 0);
}

#[test]
fn killing_the_server_mid_session_fails_the_client_within_ten_seconds() {
    let server = serve(ServerSettings::default());
    let device = session(&server, "killed");
    let x = R::float_from_data(TensorData::from([1.0f32, 2.0]), &device);
    assert_eq!(values(x.clone()), vec![1.0, 2.0]);
    server.shutdown();
    let start = Instant::now();
    // The client may notice the lost connection before the op is recorded
    // (the op then panics naming the cause) or only at the read (which
    // returns the error): both are the documented outcome, never a hang.
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        R::float_into_data(R::float_neg(x.clone()))
    }));
    let elapsed = start.elapsed();
    match outcome {
        Ok(result) => assert!(result.is_err(), "a read after the server died succeeded"),
        Err(panic) => {
            let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
            assert!(message.contains("lost"), "{message}");
        }
    }
    assert!(
        elapsed < Duration::from_secs(10),
        "the error took {elapsed:?}"
    );
    // Later operations fail at once, naming the cause.
    let panic = catch_unwind(AssertUnwindSafe(|| R::float_neg(x.clone()))).expect_err("op");
    let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(message.contains("lost"), "{message}");
}

#[test]
fn a_silent_server_fails_the_client_within_ten_seconds() {
    // Completes the handshake and the welcome, then says nothing while
    // keeping the socket open, as a hung machine would.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("ws://{}", listener.local_addr().unwrap());
    let fake = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut socket = tungstenite::accept(stream).unwrap();
        let _hello = socket.read().unwrap();
        let welcome = ServerMessage::Welcome {
            devices: vec![String::from("fake")],
            device: Some(burn_remote::wire::DeviceInfo {
                name: String::from("fake"),
                supported: vec![DType::F32],
                float: DType::F32,
                int: DType::I64,
                bool: DType::Bool(burn_std::BoolStore::Native),
                index: DType::I64,
            }),
        };
        let frame = wire::encode(Direction::ToClient, &welcome, 1 << 20).unwrap();
        socket.send(Message::Binary(frame.into())).unwrap();
        std::thread::sleep(Duration::from_secs(12));
        drop(socket);
    });
    let device = RemoteDevice::new(&url, 0);
    device.connect(&ClientOptions::default()).unwrap();
    let x = R::float_from_data(TensorData::from([1.0f32]), &device);
    let start = Instant::now();
    let result = R::float_into_data(x);
    let elapsed = start.elapsed();
    let error = result.expect_err("no answer can come");
    assert!(
        elapsed < Duration::from_secs(10),
        "the error took {elapsed:?}"
    );
    assert!(
        format!("{error}").contains("not been heard from"),
        "{error}"
    );
    fake.join().unwrap();
}

#[test]
fn connect_disconnect_cycles_leave_the_server_flat() {
    let server = serve(ServerSettings::default());
    let deadline = Instant::now() + Duration::from_secs(60);
    let cycles = 200;
    for cycle in 0..cycles {
        assert!(
            Instant::now() < deadline,
            "cycle {cycle} past the time bound"
        );
        let device = session(&server, &format!("cycle-{cycle}"));
        let x = R::float_from_data(TensorData::from([cycle as f32; 256]), &device);
        let y = R::float_mul_scalar(x.clone(), Scalar::Float(2.0));
        assert_eq!(values(y)[0], 2.0 * cycle as f32);
        // `x` stays alive on the server until the session ends.
        device.disconnect();
        drop(x);
    }
    assert!(
        eventually(Duration::from_secs(10), || server.sessions() == 0
            && server.live_bytes() == 0),
        "{} sessions and {} bytes left after {cycles} cycles",
        server.sessions(),
        server.live_bytes()
    );
    assert_eq!(server.crashed(), 0);
}

// ------------------------------------------------------------- hostile input

fn hostile_settings() -> ServerSettings {
    ServerSettings {
        max_message_bytes: 1 << 20,
        max_session_bytes: 64 << 20,
        handshake_timeout: Duration::from_secs(2),
        ..ServerSettings::default()
    }
}

/// Sends `bytes` raw, then reads until the server closes (bounded).
fn raw_tcp(server: &ServerHandle, bytes: &[u8]) {
    let mut stream = TcpStream::connect(server.local_addr()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let _ = stream.write_all(bytes);
    let mut sink = [0u8; 4096];
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(5) {
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
    }
}

#[test]
fn raw_garbage_and_malformed_frames_end_only_their_connection() {
    let server = serve(hostile_settings());
    // Not HTTP at all.
    raw_tcp(&server, b"\x00\xffGARBAGE\r\n\r\n\x13\x37");
    well_formed_client_is_served(&server);
    // An HTTP request that is no WebSocket upgrade.
    raw_tcp(&server, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    well_formed_client_is_served(&server);

    let hello = wire::encode(
        Direction::ToServer,
        &ClientMessage::Hello {
            token: None,
            device_index: Some(0),
        },
        1 << 20,
    )
    .unwrap();
    let cases: Vec<(&str, Vec<Message>)> = vec![
        ("text before hello", vec![Message::Text("hello".into())]),
        (
            "batch before hello",
            vec![Message::Binary(
                wire::encode(Direction::ToServer, &ClientMessage::Batch(vec![]), 1 << 20)
                    .unwrap()
                    .into(),
            )],
        ),
        ("empty frame", vec![Message::Binary(Vec::new().into())]),
        (
            "hello twice",
            vec![
                Message::Binary(hello.clone().into()),
                Message::Binary(hello.clone().into()),
            ],
        ),
        (
            "garbage after hello",
            vec![
                Message::Binary(hello.clone().into()),
                Message::Binary(vec![0xAB; 100].into()),
            ],
        ),
        (
            "lying length prefix",
            vec![Message::Binary({
                let mut frame = hello.clone();
                frame[8..16].copy_from_slice(&(u64::MAX / 2).to_le_bytes());
                frame.into()
            })],
        ),
        (
            "frame over the maximum",
            vec![
                Message::Binary(hello.clone().into()),
                Message::Binary(vec![0u8; (1 << 20) + 1].into()),
            ],
        ),
    ];
    for (name, messages) in cases {
        if let Ok((mut socket, _)) = tungstenite::connect(server.url()) {
            for message in messages {
                if socket.send(message).is_err() {
                    break;
                }
            }
            // The server answers with an error (or closes): never a hang.
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(5) {
                match socket.read() {
                    Ok(Message::Binary(bytes)) => {
                        if let Ok(ServerMessage::Error(_)) =
                            wire::decode::<ServerMessage>(Direction::ToClient, &bytes, 1 << 30)
                        {
                            break;
                        }
                    }
                    Ok(_) => {}
                    Err(_) => break,
                }
            }
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "{name}: the server neither answered nor closed"
            );
        }
        well_formed_client_is_served(&server);
    }
    assert_eq!(server.crashed(), 0);
}

#[test]
fn a_websocket_frame_header_claiming_exabytes_allocates_nothing() {
    let server = serve(hostile_settings());
    let (mut socket, _) = tungstenite::connect(server.url()).unwrap();
    let hello = wire::encode(
        Direction::ToServer,
        &ClientMessage::Hello {
            token: None,
            device_index: Some(0),
        },
        1 << 20,
    )
    .unwrap();
    socket.send(Message::Binary(hello.into())).unwrap();
    let _welcome = read_server(&mut socket);
    // A masked binary frame whose 64-bit length says 2^62 bytes follow.
    let stream = socket.get_mut();
    let stream = match stream {
        tungstenite::stream::MaybeTlsStream::Plain(stream) => stream,
        _ => unreachable!("ws:// is plain TCP"),
    };
    let mut header = vec![0x82, 0xFF];
    header.extend_from_slice(&(1u64 << 62).to_be_bytes());
    header.extend_from_slice(&[1, 2, 3, 4]); // mask
    header.extend_from_slice(&[0; 64]);
    stream.write_all(&header).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let start = Instant::now();
    let mut sink = [0u8; 1024];
    while start.elapsed() < Duration::from_secs(5) {
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
    }
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "the server did not close"
    );
    well_formed_client_is_served(&server);
    assert_eq!(server.crashed(), 0);
}

/// A small deterministic generator (xorshift64*), so a failure names its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Messages a real session sends, to mutate: hello, data, ops, reads.
fn corpus() -> Vec<Vec<u8>> {
    let t = |id, shape: [usize; 2], status| TensorIr {
        id: TensorId::new(id),
        shape: Shape::new(shape),
        dtype: DType::F32,
        status,
    };
    let hello = ClientMessage::Hello {
        token: Some(String::from("token")),
        device_index: Some(0),
    };
    let batch = ClientMessage::Batch(vec![
        Request::Tensor {
            out: t(0, [2, 2], TensorStatus::NotInit),
            data: TensorData::new(vec![1.0f32, 2.0, 3.0, 4.0], [2, 2]),
        },
        Request::Op(OperationIr::Numeric(
            NumericKind::Float,
            NumericOperationIr::Matmul(BinaryOpIr {
                lhs: t(0, [2, 2], TensorStatus::ReadOnly),
                rhs: t(0, [2, 2], TensorStatus::ReadOnly),
                out: t(1, [2, 2], TensorStatus::NotInit),
            }),
        )),
        Request::Op(OperationIr::Init(burn_ir::InitOperationIr::Full {
            value: burn_ir::ScalarIr::new(Scalar::Float(1.5), DType::F32),
            out: t(2, [3, 3], TensorStatus::NotInit),
        })),
        Request::Read {
            request: 1,
            tensor: t(1, [2, 2], TensorStatus::ReadWrite),
        },
        Request::Op(OperationIr::Drop(t(0, [2, 2], TensorStatus::ReadWrite))),
        Request::Sync { request: 2 },
        Request::Seed(9),
    ]);
    vec![
        wire::encode(Direction::ToServer, &hello, 1 << 20).unwrap(),
        wire::encode(Direction::ToServer, &batch, 1 << 20).unwrap(),
    ]
}

fn mutate(rng: &mut Rng, frame: &[u8]) -> Vec<u8> {
    let mut out = frame.to_vec();
    for _ in 0..1 + rng.below(4) {
        match rng.below(4) {
            0 if !out.is_empty() => {
                let i = rng.below(out.len());
                out[i] ^= 1 << rng.below(8);
            }
            1 if !out.is_empty() => {
                let i = rng.below(out.len());
                out[i] = rng.next() as u8;
            }
            2 => out.truncate(rng.below(out.len() + 1)),
            _ => {
                let i = rng.below(out.len() + 1);
                out.insert(i, rng.next() as u8);
            }
        }
    }
    // Three times in four, the header is made valid again, so the body, not
    // the prefix, is what the decoder sees mutated; otherwise the header
    // (magic, version, a lying length) is what is wrong.
    if out.len() >= wire::HEADER_LEN && rng.below(4) != 0 {
        out[..8].copy_from_slice(&frame[..8]);
        let body = (out.len() - wire::HEADER_LEN) as u64;
        out[8..16].copy_from_slice(&body.to_le_bytes());
    }
    out
}

/// `BURN_REMOTE_MUTATIONS` raises the count (10,000 for the run);
/// the default keeps CI short. Each mutated message goes on a connection of
/// its own, after a valid hello when it mutates a batch, and each is
/// followed by a well-formed client that must be served.
#[test]
fn seeded_mutated_messages_never_take_the_server_down() {
    let count: usize = std::env::var("BURN_REMOTE_MUTATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let server = serve(hostile_settings());
    let corpus = corpus();
    let hello = wire::encode(
        Direction::ToServer,
        &ClientMessage::Hello {
            token: None,
            device_index: Some(0),
        },
        1 << 20,
    )
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(240);
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    for case in 0..count {
        assert!(Instant::now() < deadline, "case {case} past the time bound");
        let which = rng.below(corpus.len());
        let mutated = mutate(&mut rng, &corpus[which]);
        let (mut socket, _) = tungstenite::connect(server.url())
            .unwrap_or_else(|e| panic!("case {case}: the server stopped accepting: {e}"));
        if which == 1 {
            socket.send(Message::Binary(hello.clone().into())).unwrap();
        }
        // Sent and dropped: the server reads what arrived before the close,
        // whatever it makes of it.
        let _ = socket.send(Message::Binary(mutated.into()));
        drop(socket);
        well_formed_client_is_served(&server);
    }
    assert_eq!(server.crashed(), 0, "server tasks panicked");
    // Most mutations break the frame or the message: the checks saw them
    // (the rest decode to a valid message, or fail an operation, which a
    // session survives).
    let rejected = server.rejected() as usize;
    assert!(
        rejected > count / 2 && rejected <= count,
        "{rejected} of {count} mutated sessions were refused"
    );
    eprintln!("{rejected} of {count} mutated messages refused, the rest served");
    assert!(
        eventually(Duration::from_secs(10), || server.sessions() == 0),
        "{} sessions left open",
        server.sessions()
    );
}
