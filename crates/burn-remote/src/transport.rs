//! Sending frames over WebSocket in fragments.
//!
//! tungstenite writes a message from one buffer and, after each partial
//! write to the socket, moves the unwritten rest to the buffer's front: a
//! 256 MiB message sent whole costs hundreds of megabytes of `memmove` per
//! socket write, quadratic in its size. Sent as fragments of
//! [`FRAGMENT_BYTES`] (one WebSocket message, several frames), each
//! buffer stays small, and the receiver may refuse any *frame* over
//! [`FRAGMENT_BYTES`] before buffering it: the most a hostile frame header
//! makes a peer reserve is one fragment, whatever length it claims. The
//! whole message is still bounded by the maximum message size, checked by
//! tungstenite as fragments arrive.

use alloc::vec::Vec;

use futures_util::{Sink, SinkExt};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
use tokio_tungstenite::tungstenite::{Bytes, Error, Message};

/// The largest WebSocket frame sent or accepted.
pub const FRAGMENT_BYTES: usize = 4 << 20;

/// The WebSocket limits of a peer accepting messages of `max_message` bytes.
pub(crate) fn config(max_message: usize) -> WebSocketConfig {
    let mut config = WebSocketConfig::default();
    config.max_message_size = Some(max_message);
    config.max_frame_size = Some(FRAGMENT_BYTES.min(max_message).max(1));
    config
}

/// Sends `frame` as one binary message, fragmented past [`FRAGMENT_BYTES`].
pub(crate) async fn send_binary<S>(sink: &mut S, frame: Vec<u8>) -> Result<(), Error>
where
    S: Sink<Message, Error = Error> + Unpin,
{
    if frame.len() <= FRAGMENT_BYTES {
        return sink.send(Message::Binary(frame.into())).await;
    }
    // One allocation shared by every fragment: `slice` copies nothing.
    let all = Bytes::from(frame);
    let mut start = 0;
    while start < all.len() {
        let end = (start + FRAGMENT_BYTES).min(all.len());
        let opcode = if start == 0 {
            OpCode::Data(Data::Binary)
        } else {
            OpCode::Data(Data::Continue)
        };
        let fragment = Frame::message(all.slice(start..end), opcode, end == all.len());
        sink.feed(Message::Frame(fragment)).await?;
        start = end;
    }
    sink.flush().await
}
