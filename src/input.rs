//! Reading input files (IR text, objects) whole, with a size limit: a device or FIFO that never ends
//! (`/dev/zero`) or an absurdly large file ends in an error instead of filling memory.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// The largest input accepted, in bytes (1 GiB).
pub const MAX_INPUT_BYTES: u64 = 1 << 30;

/// The contents of the file at `path`; an [`io::ErrorKind::FileTooLarge`] error past
/// [`MAX_INPUT_BYTES`].
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    let file = File::open(path)?;
    let metadata = file.metadata()?;
    if metadata.is_file() && metadata.len() > MAX_INPUT_BYTES {
        return Err(too_large());
    }
    // Devices and FIFOs report no length: read one byte past the limit to know it was passed.
    let mut bytes = Vec::with_capacity(if metadata.is_file() { metadata.len() as usize } else { 0 });
    file.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(too_large());
    }
    Ok(bytes)
}

fn too_large() -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!("larger than {} GiB, the input size limit", MAX_INPUT_BYTES >> 30),
    )
}
