//! Fetching dataset files into a cache directory, with a progress line on
//! stderr and a checksum check.
//!
//! The HTTP client (`ureq`, with rustls) is behind the `network` feature;
//! without it [`download_file`] says so and names the directory to put the
//! file in by hand. Tests never use the network: they exercise the cache
//! and checksum paths on files they write.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::DatasetError;
use crate::checksum::md5_hex;

/// The root of the download cache: `$BURN_DATASET_CACHE` when set, else
/// `$HOME/.cache/burn-dataset` (`%USERPROFILE%` on Windows), else a
/// `burn-dataset` folder in the system temporary directory.
pub fn cache_root() -> PathBuf {
    if let Some(dir) = std::env::var_os("BURN_DATASET_CACHE") {
        return PathBuf::from(dir);
    }
    match std::env::var_os("HOME").or_else(|| std::env::var_os("USERPROFILE")) {
        Some(home) => PathBuf::from(home).join(".cache").join("burn-dataset"),
        None => std::env::temp_dir().join("burn-dataset"),
    }
}

/// Returns `dir/name`, downloading it first from the first mirror that
/// works (`mirror` + `name`) unless a file with the expected MD5 digest is
/// already there. A cached file with the wrong digest is downloaded again.
///
/// The download goes to `name.part` and is renamed only once its digest
/// matches, so an interrupted run never leaves a bad file under `name`.
///
/// # Errors
/// [`DatasetError::Io`] if `dir` cannot be written;
/// [`DatasetError::Download`] listing each mirror's failure (including a
/// checksum mismatch), or saying that the crate was built without the
/// `network` feature.
pub fn download_file(
    dir: &Path,
    name: &str,
    mirrors: &[&str],
    md5: &str,
) -> Result<PathBuf, DatasetError> {
    let path = dir.join(name);
    if let Ok(bytes) = std::fs::read(&path)
        && md5_hex(&bytes) == md5
    {
        return Ok(path);
    }
    std::fs::create_dir_all(dir).map_err(|e| DatasetError::io(dir, e))?;
    let partial = dir.join(format!("{name}.part"));
    let mut failures = Vec::new();
    for mirror in mirrors {
        let url = format!("{mirror}{name}");
        match fetch(&url, &partial) {
            Ok(()) => {
                let bytes = std::fs::read(&partial).map_err(|e| DatasetError::io(&partial, e))?;
                let actual = md5_hex(&bytes);
                if actual == md5 {
                    std::fs::rename(&partial, &path).map_err(|e| DatasetError::io(&path, e))?;
                    return Ok(path);
                }
                failures.push(format!("{url}: MD5 {actual}, expected {md5}"));
            }
            Err(reason) => failures.push(format!("{url}: {reason}")),
        }
    }
    let _ = std::fs::remove_file(&partial);
    Err(DatasetError::Download {
        file: name.to_string(),
        reason: format!(
            "{}; to work offline, place the file at {}",
            failures.join("; "),
            path.display()
        ),
    })
}

/// Verifies that `path` has the MD5 digest `md5`.
///
/// # Errors
/// [`DatasetError::Io`] if it cannot be read, [`DatasetError::Checksum`] if
/// the digests differ.
pub fn verify_md5(path: &Path, md5: &str) -> Result<(), DatasetError> {
    let bytes = std::fs::read(path).map_err(|e| DatasetError::io(path, e))?;
    let actual = md5_hex(&bytes);
    if actual == md5 {
        Ok(())
    } else {
        Err(DatasetError::Checksum {
            path: path.to_path_buf(),
            algorithm: "MD5",
            expected: md5.to_string(),
            actual,
        })
    }
}

/// Downloads `url` to `destination`, with a progress bar on stderr.
fn fetch(url: &str, destination: &Path) -> Result<(), String> {
    let mut file = std::fs::File::create(destination).map_err(|e| e.to_string())?;
    fetch_into(url, url, &mut file)?;
    file.flush().map_err(|e| e.to_string())
}

/// Streams the body of `url` into `sink`, drawing a progress bar labelled
/// `label` on stderr. The reason of a failure is the client's message.
#[cfg(feature = "network")]
pub(crate) fn fetch_into(url: &str, label: &str, sink: &mut impl Write) -> Result<(), String> {
    use std::io::Read;

    let mut response = ureq::get(url).call().map_err(|e| e.to_string())?;
    let total = response.body().content_length();
    let mut reader = response.body_mut().with_config().limit(u64::MAX).reader();
    let mut progress = Progress::new(label, total, std::io::stderr());
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        let read = reader.read(&mut buffer).map_err(|e| e.to_string())?;
        if read == 0 {
            break;
        }
        sink.write_all(&buffer[..read]).map_err(|e| e.to_string())?;
        progress.advance(read as u64);
    }
    progress.finish();
    Ok(())
}

#[cfg(not(feature = "network"))]
pub(crate) fn fetch_into(_url: &str, _label: &str, _sink: &mut impl Write) -> Result<(), String> {
    Err("burn-dataset was built without its `network` feature".to_string())
}

/// Width of the bar, in cells.
const BAR_CELLS: u64 = 30;

/// A progress bar (on stderr for downloads): the label on a line of its
/// own, then `[=====>      ]  42% (420 / 1000 KiB)` rewritten in place at
/// each whole percent, or a byte count every MiB when the size is unknown.
// Used by `fetch_into` only with the `network` feature; tested either way.
#[cfg_attr(not(feature = "network"), allow(dead_code))]
struct Progress<W: Write> {
    out: W,
    total: Option<u64>,
    done: u64,
    shown: u64,
}

#[cfg_attr(not(feature = "network"), allow(dead_code))]
impl<W: Write> Progress<W> {
    fn new(label: &str, total: Option<u64>, mut out: W) -> Self {
        let _ = writeln!(out, "{label}");
        let mut progress = Self {
            out,
            total: total.filter(|&total| total > 0),
            done: 0,
            shown: 0,
        };
        progress.draw();
        progress
    }

    fn step(&self) -> u64 {
        match self.total {
            Some(total) => self.done.min(total) * 100 / total,
            None => self.done >> 20,
        }
    }

    fn advance(&mut self, bytes: u64) {
        self.done += bytes;
        if self.step() != self.shown {
            self.shown = self.step();
            self.draw();
        }
    }

    fn draw(&mut self) {
        let line = match self.total {
            Some(total) => {
                let percent = self.step();
                let filled = (percent * BAR_CELLS / 100) as usize;
                let head = if filled < BAR_CELLS as usize { ">" } else { "" };
                let rest = (BAR_CELLS as usize).saturating_sub(filled + head.len());
                format!(
                    "    [{}{head}{}] {percent:>3}% ({} / {} KiB)",
                    "=".repeat(filled),
                    " ".repeat(rest),
                    self.done >> 10,
                    total >> 10
                )
            }
            None => format!("    {} KiB", self.done >> 10),
        };
        let _ = write!(self.out, "\r{line}");
        let _ = self.out.flush();
    }

    fn finish(mut self) -> W {
        let _ = writeln!(self.out);
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cached_file_with_the_right_digest_is_used_without_network() {
        let dir = std::env::temp_dir().join(format!("burn-dataset-cache-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("abc.bin"), b"abc").unwrap();
        // md5("abc") from RFC 1321; the mirror list is empty, so any
        // attempt to download would fail.
        let path = download_file(&dir, "abc.bin", &[], "900150983cd24fb0d6963f7d28e17f72").unwrap();
        assert_eq!(path, dir.join("abc.bin"));
        verify_md5(&path, "900150983cd24fb0d6963f7d28e17f72").unwrap();

        // A wrong digest means the cached file is not trusted.
        let error = download_file(&dir, "abc.bin", &[], "00000000000000000000000000000000")
            .unwrap_err()
            .to_string();
        assert!(error.contains("could not download abc.bin"), "{error}");
        assert!(error.contains("place the file at"), "{error}");
        let error = verify_md5(&path, "00000000000000000000000000000000").unwrap_err();
        assert!(matches!(error, DatasetError::Checksum { .. }));
        assert!(
            error
                .to_string()
                .contains("900150983cd24fb0d6963f7d28e17f72")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn progress_redraws_the_bar_at_each_whole_percent() {
        let mut progress = Progress::new("f", Some(4096), Vec::new());
        progress.advance(20); // 0%: no redraw
        progress.advance(21); // 41 bytes: 1%
        progress.advance(2007); // 2048 bytes: 50%
        progress.advance(2048); // all: 100%
        let text = String::from_utf8(progress.finish()).unwrap();
        let bar = |cells: &str, tail: &str| format!("\r    [{cells}] {tail}");
        let expected = [
            "f\n".to_string(),
            bar(&format!(">{}", " ".repeat(29)), "  0% (0 / 4 KiB)"),
            bar(&format!(">{}", " ".repeat(29)), "  1% (0 / 4 KiB)"),
            bar(
                &format!("{}>{}", "=".repeat(15), " ".repeat(14)),
                " 50% (2 / 4 KiB)",
            ),
            bar(&"=".repeat(30), "100% (4 / 4 KiB)"),
            "\n".to_string(),
        ]
        .concat();
        assert_eq!(text, expected);
        let mut unknown = Progress::new("g", None, Vec::new());
        unknown.advance(3 << 20);
        let text = String::from_utf8(unknown.finish()).unwrap();
        assert!(text.ends_with("\r    3072 KiB\n"), "{text:?}");
    }

    /// Serves `body` once per connection over plain HTTP on 127.0.0.1 (no
    /// network involved), for `connections` connections.
    #[cfg(feature = "network")]
    fn serve(body: &'static [u8], connections: usize) -> String {
        use std::io::{BufRead, BufReader};
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
                    "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                stream.write_all(header.as_bytes()).unwrap();
                stream.write_all(body).unwrap();
            }
        });
        format!("http://{address}/")
    }

    #[cfg(feature = "network")]
    #[test]
    fn downloads_from_a_local_server_and_checks_the_digest() {
        let dir = std::env::temp_dir().join(format!("burn-dataset-http-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // md5("message digest") from RFC 1321.
        let good = serve(b"message digest", 1);
        let path = download_file(
            &dir,
            "m.txt",
            &["unsupported-scheme://x/", &good],
            "f96b697d7cb7938d525a2f31aaf161d0",
        )
        .unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"message digest");
        assert!(!dir.join("m.txt.part").exists());

        // A mirror serving other bytes fails its checksum and leaves nothing.
        let bad = serve(b"tampered", 1);
        let error = download_file(&dir, "n.txt", &[&bad], "f96b697d7cb7938d525a2f31aaf161d0")
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("n.txt: MD5 ") && error.contains("expected f96b697d"),
            "{error}"
        );
        assert!(!dir.join("n.txt").exists() && !dir.join("n.txt.part").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_unreachable_mirror_is_reported_per_url() {
        let dir = std::env::temp_dir().join(format!("burn-dataset-mirror-{}", std::process::id()));
        // Port 9 (discard) on a reserved TEST-NET address with an invalid
        // scheme: fails at once, with or without the `network` feature.
        let error = download_file(&dir, "x.gz", &["unsupported-scheme://192.0.2.1:9/"], "0")
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("unsupported-scheme://192.0.2.1:9/x.gz: "),
            "{error}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
