//! Reading input files (IR text, objects) whole, with a size limit: a device or FIFO that never ends
//! (`/dev/zero`) or an absurdly large file ends in an error instead of filling memory.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// The largest input accepted, in bytes (1 GiB).
pub const MAX_INPUT_BYTES: u64 = 1 << 30;

/// The contents of the file at `path`; an [`io::ErrorKind::FileTooLarge`] error past
/// [`MAX_INPUT_BYTES`].
///
/// A FIFO with no writer is an [`io::ErrorKind::InvalidInput`] error at once, not a wait for one.
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    let (file, mut bytes) = open(path)?;
    let metadata = file.metadata()?;
    if metadata.is_file() && metadata.len() > MAX_INPUT_BYTES {
        return Err(too_large());
    }
    // Devices and FIFOs report no length: read one byte past the limit to know it was passed.
    bytes.reserve(if metadata.is_file() { metadata.len() as usize } else { 0 });
    file.take(MAX_INPUT_BYTES + 1 - bytes.len() as u64).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(too_large());
    }
    Ok(bytes)
}

/// Opens `path` for reading, with the bytes already read from it.
///
/// Opening a FIFO waits for a writer, forever if none comes: it is opened without waiting, and a
/// non-blocking read tells a writer that has not written yet (no data, would block) from none (end of
/// file); then reads block again, as they would have.
#[cfg(unix)]
fn open(path: &Path) -> io::Result<(File, Vec<u8>)> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};

    let file = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)?;
    let mut first = Vec::new();
    if file.metadata()?.file_type().is_fifo() {
        let mut buffer = [0u8; 4096];
        match (&file).read(&mut buffer) {
            Ok(0) => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "a FIFO with no writer and nothing to read; start its writer first",
                ))
            }
            Ok(n) => first.extend_from_slice(&buffer[..n]),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(e),
        }
    }
    let fd = file.as_raw_fd();
    // SAFETY: F_GETFL and F_SETFL on a descriptor this function owns.
    let cleared = unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        flags >= 0 && libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) == 0
    };
    if !cleared {
        return Err(io::Error::last_os_error());
    }
    Ok((file, first))
}

#[cfg(not(unix))]
fn open(path: &Path) -> io::Result<(File, Vec<u8>)> {
    Ok((File::open(path)?, Vec::new()))
}

fn too_large() -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!("larger than {} GiB, the input size limit", MAX_INPUT_BYTES >> 30),
    )
}
