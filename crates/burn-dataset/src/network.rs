//! Network utilities (feature `network`): for now, a file downloader that
//! draws a progress bar on stderr.
//!
//! The client is `ureq` with rustls; HTTP and HTTPS URLs are accepted.
//! Nothing here caches: [`download`](crate::download) builds the dataset
//! cache (mirrors, checksums, atomic renames) on the same transfer code.

/// Downloading a whole file into memory.
pub mod downloader {
    use crate::DatasetError;

    /// The bytes at `url`. `message` is printed above the progress bar
    /// (Burn's signature and behaviour).
    ///
    /// # Panics
    /// If the download fails; the message names the URL and the reason.
    /// [`try_download_file_as_bytes`] returns the error instead.
    pub fn download_file_as_bytes(url: &str, message: &str) -> Vec<u8> {
        try_download_file_as_bytes(url, message)
            .unwrap_or_else(|err| panic!("download_file_as_bytes: {err}"))
    }

    /// The bytes at `url`, or [`DatasetError::Download`] naming the URL and
    /// why it failed (no connection, an HTTP error status, a cut transfer).
    pub fn try_download_file_as_bytes(url: &str, message: &str) -> Result<Vec<u8>, DatasetError> {
        let mut bytes = Vec::new();
        crate::download::fetch_into(url, message, &mut bytes).map_err(|reason| {
            DatasetError::Download {
                file: url.to_string(),
                reason,
            }
        })?;
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::downloader::*;
    use std::io::{BufRead, BufReader, Write};

    /// Serves one response per connection on 127.0.0.1 (no network), for
    /// `connections` connections: `status` and `body`.
    fn serve(status: &'static str, body: Vec<u8>, connections: usize) -> String {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap();
        std::thread::spawn(move || {
            for stream in listener.incoming().take(connections) {
                let mut stream = stream.unwrap();
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut line = String::new();
                while reader.read_line(&mut line).unwrap() > 2 {
                    line.clear();
                }
                let header = format!(
                    "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                stream.write_all(header.as_bytes()).unwrap();
                stream.write_all(&body).unwrap();
            }
        });
        format!("http://{address}")
    }

    #[test]
    fn downloads_a_file_larger_than_one_read_from_a_local_server() {
        // 200 KiB: several 64 KiB reads, so the bar is redrawn.
        let body: Vec<u8> = (0..200 * 1024).map(|i| (i % 251) as u8).collect();
        let url = serve("200 OK", body.clone(), 1);
        let bytes = download_file_as_bytes(&format!("{url}/weights.bin"), "weights");
        assert_eq!(bytes, body);
    }

    #[test]
    fn an_http_error_is_reported_with_the_url() {
        let url = format!("{}/missing.bin", serve("404 Not Found", b"no".to_vec(), 1));
        let error = try_download_file_as_bytes(&url, "missing").unwrap_err();
        let message = error.to_string();
        assert!(
            message.contains(&url) && message.contains("404"),
            "{message}"
        );
    }

    #[test]
    #[should_panic(expected = "download_file_as_bytes: could not download unsupported://x")]
    fn the_panicking_form_names_the_url() {
        download_file_as_bytes("unsupported://x", "nothing");
    }
}
