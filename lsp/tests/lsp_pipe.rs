//! The server widens its stdout pipe, so that a multi-megabyte diagnostics list reaches the
//! editor in a few reads rather than dozens of 64 KiB ones.

#![cfg(target_os = "linux")]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

#[test]
fn stdout_pipe_is_widened_to_a_mebibyte() {
    let max: usize = std::fs::read_to_string("/proc/sys/fs/pipe-max-size")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(1 << 20);
    let mut child = Command::new(env!("CARGO_BIN_EXE_hsir"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("hsir starts");
    let mut stdin = child.stdin.take().expect("piped");
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#;
    write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("server reads");
    stdin.flush().expect("flush");
    // The answer's header: the server is running and has set its pipe up.
    let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
    let mut header = String::new();
    stdout.read_line(&mut header).expect("an answer");
    assert!(header.starts_with("Content-Length:"), "{header:?}");
    let size = rustix::pipe::fcntl_getpipe_size(stdout.get_ref()).expect("a pipe");
    assert!(size >= max.min(1 << 20), "stdout pipe is {size} bytes");
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
}
