//! Image decoding to 8-bit pixels, chosen by the file's leading bytes.

use std::io::Cursor;
use std::path::Path;

use crate::DatasetError;

/// A decoded image: `height` rows of `width` pixels of `channels` bytes
/// (1 gray, 2 gray + alpha, 3 RGB, 4 RGBA), row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodedImage {
    /// Pixels per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Bytes per pixel.
    pub channels: usize,
    /// `height * width * channels` bytes.
    pub pixels: Vec<u8>,
}

/// Decodes a PNG, JPEG or PGM/PPM image from `bytes`; `path` names it in
/// errors.
///
/// # Errors
/// [`DatasetError::Malformed`] for an unknown format or a corrupt image.
pub fn decode_image(bytes: &[u8], path: &Path) -> Result<DecodedImage, DatasetError> {
    let bad = |reason: String| DatasetError::malformed(path, reason);
    match bytes {
        [0x89, b'P', b'N', b'G', ..] => decode_png(bytes).map_err(|e| bad(format!("PNG: {e}"))),
        [0xFF, 0xD8, ..] => decode_jpeg(bytes).map_err(|e| bad(format!("JPEG: {e}"))),
        [b'P', b'2' | b'3' | b'5' | b'6', ..] => {
            decode_pnm(bytes).map_err(|e| bad(format!("PGM/PPM: {e}")))
        }
        _ => Err(bad(
            "not a PNG, JPEG or PGM/PPM image (unknown leading bytes)".to_string(),
        )),
    }
}

fn decode_png(bytes: &[u8]) -> Result<DecodedImage, String> {
    let mut decoder = png::Decoder::new(Cursor::new(bytes));
    // Palette and low bit depths expand to 8 bits, 16-bit samples keep
    // their high byte.
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
    let size = reader
        .output_buffer_size()
        .ok_or("the image is too large for this platform")?;
    let mut pixels = vec![0; size];
    let info = reader.next_frame(&mut pixels).map_err(|e| e.to_string())?;
    pixels.truncate(info.buffer_size());
    Ok(DecodedImage {
        width: info.width as usize,
        height: info.height as usize,
        channels: info.color_type.samples(),
        pixels,
    })
}

fn decode_jpeg(bytes: &[u8]) -> Result<DecodedImage, String> {
    let mut decoder = zune_jpeg::JpegDecoder::new(Cursor::new(bytes));
    let pixels = decoder.decode().map_err(|e| format!("{e:?}"))?;
    let info = decoder.info().ok_or("no image header")?;
    let channels = decoder
        .output_colorspace()
        .map_or(3, |colorspace| colorspace.num_components());
    Ok(DecodedImage {
        width: usize::from(info.width),
        height: usize::from(info.height),
        channels,
        pixels,
    })
}

/// Netpbm gray (`P2` text, `P5` binary) and color (`P3`, `P6`) images.
/// Samples above 8 bits are scaled to `0..=255`.
fn decode_pnm(bytes: &[u8]) -> Result<DecodedImage, String> {
    let binary = matches!(bytes[1], b'5' | b'6');
    let channels = if matches!(bytes[1], b'2' | b'5') {
        1
    } else {
        3
    };
    let mut position = 2;
    let mut header = [0usize; 3];
    for (value, name) in header.iter_mut().zip(["width", "height", "maximum value"]) {
        *value = next_number(bytes, &mut position)
            .ok_or_else(|| format!("the header has no valid {name}"))?;
    }
    let [width, height, max] = header;
    if width == 0 || height == 0 || max == 0 || max > 65535 {
        return Err(format!(
            "invalid header: {width}x{height}, maximum value {max}"
        ));
    }
    let count = width
        .checked_mul(height)
        .and_then(|n| n.checked_mul(channels))
        .ok_or("the image is too large")?;
    let scale = |sample: usize| -> u8 {
        if max == 255 {
            sample.min(255) as u8
        } else {
            ((sample.min(max) * 255 + max / 2) / max) as u8
        }
    };
    let mut pixels = Vec::with_capacity(count);
    if binary {
        // Exactly one whitespace byte separates the header from the raster.
        let start = position + 1;
        let width_bytes = if max < 256 { 1 } else { 2 };
        let raster = bytes
            .get(start..)
            .filter(|raster| raster.len() >= count * width_bytes)
            .ok_or_else(|| {
                format!(
                    "{width}x{height} needs {} bytes of pixels, the file has {}",
                    count * width_bytes,
                    bytes.len().saturating_sub(start)
                )
            })?;
        if width_bytes == 1 {
            pixels.extend(raster[..count].iter().map(|&b| scale(usize::from(b))));
        } else {
            pixels.extend(
                raster[..count * 2]
                    .chunks_exact(2)
                    .map(|pair| scale(usize::from(u16::from_be_bytes([pair[0], pair[1]])))),
            );
        }
    } else {
        for index in 0..count {
            let sample = next_number(bytes, &mut position)
                .ok_or_else(|| format!("sample {index} of {count} is missing or not a number"))?;
            pixels.push(scale(sample));
        }
    }
    Ok(DecodedImage {
        width,
        height,
        channels,
        pixels,
    })
}

/// The next decimal number after whitespace and `#` comments; leaves
/// `position` just past its last digit.
fn next_number(bytes: &[u8], position: &mut usize) -> Option<usize> {
    loop {
        match bytes.get(*position)? {
            b'#' => {
                while bytes.get(*position).is_some_and(|&b| b != b'\n') {
                    *position += 1;
                }
            }
            b if b.is_ascii_whitespace() => *position += 1,
            _ => break,
        }
    }
    let start = *position;
    while bytes.get(*position).is_some_and(u8::is_ascii_digit) {
        *position += 1;
    }
    std::str::from_utf8(&bytes[start..*position])
        .ok()?
        .parse()
        .ok()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Encodes `pixels` as an 8-bit PNG with the `png` crate's encoder.
    pub(crate) fn png_bytes(
        width: u32,
        height: u32,
        color: png::ColorType,
        pixels: &[u8],
    ) -> Vec<u8> {
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(color);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().unwrap();
        writer.write_image_data(pixels).unwrap();
        writer.finish().unwrap();
        out
    }

    fn decode(bytes: &[u8]) -> Result<DecodedImage, DatasetError> {
        decode_image(bytes, Path::new("img"))
    }

    #[test]
    fn png_gray_and_rgb() {
        let gray = decode(&png_bytes(2, 1, png::ColorType::Grayscale, &[0, 200])).unwrap();
        assert_eq!((gray.width, gray.height, gray.channels), (2, 1, 1));
        assert_eq!(gray.pixels, [0, 200]);
        let rgb = decode(&png_bytes(1, 2, png::ColorType::Rgb, &[1, 2, 3, 4, 5, 6])).unwrap();
        assert_eq!((rgb.width, rgb.height, rgb.channels), (1, 2, 3));
        assert_eq!(rgb.pixels, [1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn pgm_binary_and_text_with_comments() {
        let binary = decode(b"P5\n# made by hand\n3 1\n255\n\x00\x7f\xff").unwrap();
        assert_eq!((binary.width, binary.height, binary.channels), (3, 1, 1));
        assert_eq!(binary.pixels, [0, 127, 255]);
        // Maximum 15: 15 -> 255, 5 -> round(5 * 255 / 15) = 85.
        let text = decode(b"P2 2 1 15\n5 15\n").unwrap();
        assert_eq!(text.pixels, [85, 255]);
        let color = decode(b"P3 1 1 255 10 20 30").unwrap();
        assert_eq!((color.channels, color.pixels), (3, vec![10, 20, 30]));
        // 16-bit binary: 0x8000 of 65535 -> round(32768 * 255 / 65535) = 128.
        let deep = decode(b"P5 1 1 65535 \x80\x00").unwrap();
        assert_eq!(deep.pixels, [128]);
    }

    #[test]
    fn corrupt_images_are_errors_naming_the_file() {
        let truncated = decode(b"P5 4 4 255 \x00\x01").unwrap_err().to_string();
        assert!(
            truncated.contains("img: PGM/PPM: 4x4 needs 16 bytes"),
            "{truncated}"
        );
        let header = decode(b"P5 4 x 255").unwrap_err().to_string();
        assert!(header.contains("no valid height"), "{header}");
        let unknown = decode(b"GIF89a").unwrap_err().to_string();
        assert!(unknown.contains("not a PNG, JPEG or PGM/PPM"), "{unknown}");
        let mut png = png_bytes(2, 2, png::ColorType::Grayscale, &[1, 2, 3, 4]);
        png.truncate(png.len() - 20);
        assert!(decode(&png).unwrap_err().to_string().contains("img: PNG:"));
        let jpeg = decode(&[0xFF, 0xD8, 0xFF, 0x00]).unwrap_err().to_string();
        assert!(jpeg.contains("img: JPEG:"), "{jpeg}");
    }
}
