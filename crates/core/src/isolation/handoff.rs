//! Open files handed from the parent to a worker over a Unix socket (SCM_RIGHTS). The worker's
//! sandbox lets it open no user file by path; the parent opens the one file a request is about
//! and passes the handle, so a compromised parser can read that file and nothing else.
//! Every request carries exactly one handle, sent just before the request line.

use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, RawFd};
use std::os::unix::net::UnixStream;

/// Where a worker finds its end of the socket.
pub(super) const WORKER_FD: RawFd = 3;

/// Marks the worker's end of the socket close-on-exec once it is in place, so the programs the
/// worker runs (Tesseract) cannot receive or send handles on it.
pub(super) fn keep_from_children() {
    // SAFETY: fcntl on a descriptor number only changes this process's flags for it.
    unsafe {
        libc::fcntl(WORKER_FD, libc::F_SETFD, libc::FD_CLOEXEC);
    }
}

/// Room for one descriptor's control message, aligned for `cmsghdr`.
type Control = [u64; 4];

/// Sends `file`'s descriptor with a one-byte message.
pub(super) fn send(socket: &UnixStream, file: &File) -> io::Result<()> {
    let byte = [0u8; 1];
    let mut iov = libc::iovec { iov_base: byte.as_ptr() as *mut libc::c_void, iov_len: 1 };
    let mut control: Control = [0; 4];
    // SAFETY: msghdr is plain data; every pointer set below outlives the sendmsg call, and the
    // control buffer is large and aligned enough for one cmsghdr carrying one int.
    unsafe {
        let mut msg: libc::msghdr = std::mem::zeroed();
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr().cast();
        msg.msg_controllen = libc::CMSG_SPACE(std::mem::size_of::<RawFd>() as u32) as _;
        let header = libc::CMSG_FIRSTHDR(&msg);
        if header.is_null() {
            return Err(io::Error::other("no room for the control message"));
        }
        (*header).cmsg_level = libc::SOL_SOCKET;
        (*header).cmsg_type = libc::SCM_RIGHTS;
        (*header).cmsg_len = libc::CMSG_LEN(std::mem::size_of::<RawFd>() as u32) as _;
        std::ptr::write_unaligned(libc::CMSG_DATA(header).cast::<RawFd>(), file.as_raw_fd());
        match libc::sendmsg(socket.as_raw_fd(), &msg, SEND_FLAGS) {
            1 => Ok(()),
            -1 => Err(io::Error::last_os_error()),
            _ => Err(io::Error::other("the handle was not sent")),
        }
    }
}

/// Receives one handle from the socket at `socket`.
pub(super) fn receive(socket: RawFd) -> io::Result<File> {
    let mut byte = [0u8; 1];
    let mut iov = libc::iovec { iov_base: byte.as_mut_ptr().cast(), iov_len: 1 };
    let mut control: Control = [0; 4];
    // SAFETY: as in `send`; the descriptor read from the control message is new to this
    // process (the kernel installed it), so the File takes sole ownership of it.
    unsafe {
        let mut msg: libc::msghdr = std::mem::zeroed();
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr().cast();
        msg.msg_controllen = std::mem::size_of::<Control>() as _;
        let got = libc::recvmsg(socket, &mut msg, RECEIVE_FLAGS);
        if got < 0 {
            return Err(io::Error::last_os_error());
        }
        if got == 0 {
            return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "the parent closed the file channel"));
        }
        let header = libc::CMSG_FIRSTHDR(&msg);
        if msg.msg_flags & libc::MSG_CTRUNC != 0
            || header.is_null()
            || (*header).cmsg_level != libc::SOL_SOCKET
            || (*header).cmsg_type != libc::SCM_RIGHTS
        {
            return Err(io::Error::other("the request came without its file"));
        }
        let fd = std::ptr::read_unaligned(libc::CMSG_DATA(header).cast::<RawFd>());
        Ok(File::from_raw_fd(fd))
    }
}

// A worker whose parent died must not get SIGPIPE mid-write; the received descriptor must
// not leak into Tesseract.
#[cfg(target_os = "linux")]
const SEND_FLAGS: libc::c_int = libc::MSG_NOSIGNAL;
#[cfg(not(target_os = "linux"))]
const SEND_FLAGS: libc::c_int = 0;
#[cfg(target_os = "linux")]
const RECEIVE_FLAGS: libc::c_int = libc::MSG_CMSG_CLOEXEC;
#[cfg(not(target_os = "linux"))]
const RECEIVE_FLAGS: libc::c_int = 0;

#[cfg(test)]
mod tests {
    use std::io::{Read, Seek, Write};

    use super::*;

    #[test]
    fn a_handle_crosses_the_socket_and_reads_the_same_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        std::fs::File::create(&path).unwrap().write_all(b"handed over").unwrap();
        let (parent, worker) = UnixStream::pair().unwrap();
        for _ in 0..3 {
            send(&parent, &File::open(&path).unwrap()).unwrap();
        }
        for _ in 0..3 {
            let mut received = receive(worker.as_raw_fd()).unwrap();
            assert_ne!(received.as_raw_fd(), worker.as_raw_fd());
            let mut text = String::new();
            received.read_to_string(&mut text).unwrap();
            assert_eq!(text, "handed over");
            received.rewind().unwrap();
        }
        drop(parent);
        let closed = receive(worker.as_raw_fd()).unwrap_err();
        assert_eq!(closed.kind(), io::ErrorKind::UnexpectedEof);
    }

    #[test]
    fn a_message_without_a_handle_is_refused() {
        let (mut parent, worker) = UnixStream::pair().unwrap();
        parent.write_all(b"x").unwrap();
        let refused = receive(worker.as_raw_fd()).unwrap_err();
        assert!(refused.to_string().contains("without its file"), "{refused}");
    }
}
