//! The framing layer between the client and tower-lsp-server.
//!
//! tower-lsp-server trusts its input: a `Content-Length` of a terabyte is allocated (and the
//! process aborts), and after the first frame it cannot decode its framed reader ends the
//! stream, so one stray byte from an editor plugin would end or silence the session. So the
//! server's stdin and stdout go through two pipes, and this module reads the client's bytes
//! itself:
//!
//! - headers end at a blank line; lines may end in CRLF or LF alone; every header line must be
//!   `Name: value`, with exactly one well-formed `Content-Length` of at most `MAX_BODY` bytes.
//!   Nothing is allocated for a length before its bytes have arrived.
//! - A malformed frame (a bad or missing length, a line that is not a header, a body cut short
//!   by the next frame's header) is logged and skipped: the reader resynchronises on the next
//!   `Content-Length:` in the input.
//! - A well-formed frame whose body the server cannot take (not UTF-8, not JSON, a batch, not a
//!   JSON-RPC 2.0 object) is answered here, with the request's id when it can be read, and
//!   never reaches the server. So is a `$/` request with an id, which tower-lsp-server would
//!   leave unanswered (every `$/` method it knows is a notification).
//! - Everything else is re-encoded and passed on; the answers and logs are written between the
//!   server's own messages, never inside one.

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// Pipes for the server: it reads from the first and writes to the second. The task ends
/// when everything the server wrote has reached `output`. The sender writes message bodies
/// of our own (notifications built without tower-lsp-server) between the server's messages.
pub fn guard(
    input: impl AsyncRead + Unpin + Send + 'static,
    output: impl AsyncWrite + Unpin + Send + 'static,
) -> (
    tokio::io::DuplexStream,
    tokio::io::DuplexStream,
    tokio::task::JoinHandle<()>,
    mpsc::UnboundedSender<Vec<u8>>,
) {
    const PIPE: usize = 1 << 20;
    let (server_in, mut to_server) = tokio::io::duplex(PIPE);
    let (server_out, from_server) = tokio::io::duplex(PIPE);
    let (errors_tx, errors_rx) = mpsc::unbounded_channel::<Vec<u8>>();
    let injector = errors_tx.clone();
    tokio::spawn(async move {
        let mut framer = Framer::new(input);
        while let Some(frame) = framer.next_frame().await {
            let body = match frame {
                Ok(body) => body,
                Err(malformed) => {
                    let message = format!("hsir lsp: dropped a malformed message: {malformed}");
                    eprintln!("{message}");
                    let _ = errors_tx.send(log_message(&message).to_string().into_bytes());
                    continue;
                }
            };
            match check(&body) {
                Ok(()) => {
                    if write_message(&mut to_server, &body).await.is_err() {
                        break;
                    }
                }
                Err(answers) => {
                    for answer in answers {
                        if answer["error"]["code"] != METHOD_NOT_FOUND {
                            eprintln!("hsir lsp: answered a malformed message with {answer}");
                        }
                        let _ = errors_tx.send(answer.to_string().into_bytes());
                    }
                }
            }
        }
        // End of input: the server sees its stdin close and stops.
        let _ = to_server.shutdown().await;
    });
    let written = tokio::spawn(forward_output(from_server, output, errors_rx));
    (server_in, server_out, written, injector)
}

/// The largest body accepted. An LSP message of a 15 MB IR file is about that size again;
/// a length above this is refused before any of its bytes are read.
const MAX_BODY: u64 = 64 << 20;

/// The longest header block accepted; anything longer is not a header.
const MAX_HEADER: usize = 8 << 10;

/// The header the reader resynchronises on, in lower case.
const CONTENT_LENGTH: &[u8] = b"content-length:";

const METHOD_NOT_FOUND: i64 = -32601;

/// Reads frames from the client's bytes, recovering from malformed ones.
struct Framer<R> {
    input: R,
    /// Bytes read and not yet framed start at `start`.
    buffer: Vec<u8>,
    start: usize,
    /// Set while skipping input that held no header at all, so that a long stretch of it is
    /// reported once, not once per read.
    quiet: bool,
}

/// What the header block at the start of the unread bytes is.
enum Header {
    /// A blank line has not arrived yet.
    Incomplete,
    /// Not a header block; the reason.
    Malformed(String),
    /// A header block of `size` bytes announcing a body of `length` bytes.
    Complete { size: usize, length: usize },
}

impl<R: AsyncRead + Unpin> Framer<R> {
    fn new(input: R) -> Framer<R> {
        Framer { input, buffer: Vec::new(), start: 0, quiet: false }
    }

    fn unread(&self) -> &[u8] {
        &self.buffer[self.start..]
    }

    /// Reads more input, making room for at least `wanted` unread bytes. False at the end of
    /// the input (or on a read error, which ends it too).
    async fn fill(&mut self, wanted: usize) -> bool {
        if self.start > 0
            && (self.start >= self.buffer.len() / 2 || self.buffer.len() == self.buffer.capacity())
        {
            self.buffer.drain(..self.start);
            self.start = 0;
        }
        let room = wanted.saturating_sub(self.unread().len()).clamp(1 << 16, MAX_BODY as usize);
        self.buffer.reserve(room);
        matches!(self.input.read_buf(&mut self.buffer).await, Ok(n) if n > 0)
    }

    /// The next frame's body, or why the bytes read were not a frame; `None` at the end of the
    /// input.
    async fn next_frame(&mut self) -> Option<Result<Vec<u8>, String>> {
        loop {
            let blank = self.unread().iter().take_while(|b| b.is_ascii_whitespace()).count();
            self.start += blank;
            if self.unread().is_empty() {
                if !self.fill(0).await {
                    return None;
                }
                continue;
            }
            match parse_header(self.unread()) {
                Header::Incomplete if self.unread().len() <= MAX_HEADER => {
                    if !self.fill(0).await {
                        return None;
                    }
                }
                Header::Incomplete => {
                    if self.resynchronise() {
                        return Some(Err(format!("no header ends within {MAX_HEADER} bytes")));
                    }
                }
                Header::Malformed(why) => {
                    if self.resynchronise() {
                        return Some(Err(why));
                    }
                }
                Header::Complete { size, length } => {
                    self.quiet = false;
                    return self.body(size, length).await;
                }
            }
        }
    }

    /// Reads the body after a header block of `size` bytes. A body that holds the start of
    /// another frame (a header line, which a JSON text cannot hold) was cut short: the reader
    /// goes on from that header instead of waiting for bytes that may never come.
    async fn body(&mut self, size: usize, length: usize) -> Option<Result<Vec<u8>, String>> {
        let mut scanned = 0;
        loop {
            let body = &self.unread()[size..];
            let available = body.len().min(length);
            if let Some(cut) = embedded_header(&body[..available], &mut scanned) {
                self.start += size + cut;
                return Some(Err(format!(
                    "a body of {cut} bytes where its Content-Length said {length}"
                )));
            }
            if available == length {
                let body = body[..length].to_vec();
                self.start += size + length;
                // Give a large message's buffer back once it has been read in full.
                if self.start == self.buffer.len() && self.buffer.capacity() > 1 << 20 {
                    self.buffer = Vec::new();
                    self.start = 0;
                }
                return Some(Ok(body));
            }
            if !self.fill(size + length).await {
                return None;
            }
        }
    }

    /// Drops the unread bytes up to the next `Content-Length:` after the first one. Whether
    /// to report them: not when they continue a stretch that held no header.
    fn resynchronise(&mut self) -> bool {
        let unread = self.unread();
        let found = find_content_length(&unread[1..]);
        self.start += match found {
            Some(at) => 1 + at,
            // Keep a tail that may be the start of the header.
            None => unread.len().saturating_sub(CONTENT_LENGTH.len() - 1).max(1),
        };
        let report = !self.quiet;
        self.quiet = found.is_none();
        report
    }
}

/// Where `content-length:` (in any case) first occurs in `bytes`.
fn find_content_length(bytes: &[u8]) -> Option<usize> {
    bytes.windows(CONTENT_LENGTH.len()).position(|w| w.eq_ignore_ascii_case(CONTENT_LENGTH))
}

/// Where a `Content-Length:` header line starts in `body`, which no JSON text holds: in a
/// JSON text the word can only be inside a string, and a string cannot hold a raw line feed,
/// so the line up to its `\n` would need a `"`. Looks from `*scanned` on, and moves it past
/// what needs no second look.
fn embedded_header(body: &[u8], scanned: &mut usize) -> Option<usize> {
    while let Some(at) = find_content_length(&body[*scanned..]).map(|at| *scanned + at) {
        let rest = &body[at + CONTENT_LENGTH.len()..];
        match rest.iter().position(|&b| b == b'\n' || b == b'"') {
            Some(end) if rest[end] == b'\n' => return Some(at),
            Some(_) => *scanned = at + 1,
            // The line has not arrived yet: look again when it has.
            None => {
                *scanned = at;
                return None;
            }
        }
    }
    *scanned = body.len().saturating_sub(CONTENT_LENGTH.len() - 1).max(*scanned);
    None
}

/// Reads the header block at the start of `bytes`.
fn parse_header(bytes: &[u8]) -> Header {
    let mut length = None;
    let mut line_start = 0;
    loop {
        let Some(end) = bytes[line_start..].iter().position(|&b| b == b'\n') else {
            return Header::Incomplete;
        };
        let line = &bytes[line_start..line_start + end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        line_start += end + 1;
        if line.is_empty() {
            return match length {
                Some(length) => Header::Complete { size: line_start, length },
                None => Header::Malformed("a header without Content-Length".to_owned()),
            };
        }
        let shown = String::from_utf8_lossy(&line[..line.len().min(80)]).into_owned();
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            return Header::Malformed(format!("not a header line: {shown:?}"));
        };
        let (name, value) = (&line[..colon], &line[colon + 1..]);
        if name.is_empty() || !name.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'-') {
            return Header::Malformed(format!("not a header line: {shown:?}"));
        }
        if !name.eq_ignore_ascii_case(b"content-length") {
            continue;
        }
        let value = value.trim_ascii();
        let parsed = std::str::from_utf8(value)
            .ok()
            .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|v| v.parse::<u64>().ok());
        match parsed {
            _ if length.is_some() => {
                return Header::Malformed("a header with two Content-Lengths".to_owned())
            }
            Some(n) if n <= MAX_BODY => length = Some(n as usize),
            Some(n) => {
                return Header::Malformed(format!(
                    "a Content-Length of {n} bytes, above the limit of {MAX_BODY}"
                ))
            }
            None => return Header::Malformed(format!("an invalid Content-Length: {shown:?}")),
        }
    }
}

/// A `window/logMessage` notification of an error.
fn log_message(message: &str) -> Value {
    json!({"jsonrpc": "2.0", "method": "window/logMessage", "params": {"type": 1, "message": message}})
}

/// Reads one of the server's own messages: headers, a blank line, then `Content-Length` bytes.
/// `None` at the end of its output.
async fn read_server_frame(input: &mut (impl AsyncBufReadExt + Unpin)) -> Option<Vec<u8>> {
    let mut length: Option<usize> = None;
    loop {
        let mut line = Vec::new();
        if input.read_until(b'\n', &mut line).await.ok()? == 0 {
            return None;
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim();
        if line.is_empty() {
            if length.is_some() {
                break;
            }
            continue;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().ok();
            }
        }
    }
    let mut body = vec![0; length?];
    input.read_exact(&mut body).await.ok()?;
    Some(body)
}

/// Writes one message: its header, then its body as it is (a diagnostics list can be
/// megabytes, so it is not copied into a frame first).
async fn write_message(output: &mut (impl AsyncWrite + Unpin), body: &[u8]) -> std::io::Result<()> {
    let header = format!("Content-Length: {}\r\n\r\n", body.len());
    output.write_all(header.as_bytes()).await?;
    output.write_all(body).await?;
    output.flush().await
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// A request's id, when `message` is an object with a usable one.
fn request_id(message: &Value) -> Option<Value> {
    message.get("id").filter(|id| id.is_number() || id.is_string()).cloned()
}

/// Whether the server can take `body`: a UTF-8 JSON object that is a request, a notification
/// or a response. Otherwise, the answers: one per request whose id can be read (a batch may
/// hold several), or one with a null id.
fn check(body: &[u8]) -> Result<(), Vec<Value>> {
    let Ok(text) = std::str::from_utf8(body) else {
        // Read the id past the bad bytes, to answer the request that carried them.
        let id = serde_json::from_str::<Value>(&String::from_utf8_lossy(body))
            .ok()
            .and_then(|value| request_id(&value));
        return Err(vec![error(
            id.unwrap_or(Value::Null),
            -32700,
            "Parse error: the message is not UTF-8",
        )]);
    };
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return Err(vec![error(Value::Null, -32700, "Parse error: the message is not JSON")]);
    };
    if let Value::Array(batch) = &value {
        let message = "Invalid request: batches are not supported";
        let mut answers: Vec<Value> = batch
            .iter()
            .filter(|m| m.get("method").is_some())
            .filter_map(request_id)
            .map(|id| error(id, -32600, message))
            .collect();
        if answers.is_empty() {
            answers.push(error(Value::Null, -32600, message));
        }
        return Err(answers);
    }
    let id = request_id(&value);
    let shaped = value.get("jsonrpc").and_then(Value::as_str) == Some("2.0")
        && match value.get("method") {
            Some(method) => {
                method.is_string()
                    && value.get("id").is_none_or(|id| id.is_number() || id.is_string())
            }
            None => {
                id.is_some()
                    && (value.get("result").is_some()
                        || value.get("error").is_some_and(Value::is_object))
            }
        };
    if !shaped {
        let message = "Invalid request: not a JSON-RPC 2.0 message";
        return Err(vec![error(id.unwrap_or(Value::Null), -32600, message)]);
    }
    // tower-lsp-server drops unknown `$/` methods, requests too, which must be answered.
    let method = value.get("method").and_then(Value::as_str);
    if let (Some(method), Some(id)) = (method, id) {
        if method.starts_with("$/") {
            return Err(vec![error(id, METHOD_NOT_FOUND, &format!("Method not found: {method}"))]);
        }
    }
    Ok(())
}

/// Copies the server's messages to the real output, and the guard's answers between them.
async fn forward_output(
    from_server: tokio::io::DuplexStream,
    mut output: impl AsyncWrite + Unpin,
    mut errors: mpsc::UnboundedReceiver<Vec<u8>>,
) {
    let mut from_server = BufReader::new(from_server);
    let mut errors_open = true;
    loop {
        tokio::select! {
            frame = read_server_frame(&mut from_server) => {
                let Some(body) = frame else { break };
                if write_message(&mut output, &body).await.is_err() {
                    break;
                }
            }
            answer = errors.recv(), if errors_open => {
                match answer {
                    Some(body) => {
                        if write_message(&mut output, &body).await.is_err() {
                            break;
                        }
                    }
                    None => errors_open = false,
                }
            }
        }
    }
    let _ = output.flush().await;
}

#[cfg(test)]
mod tests {
    use super::{check, embedded_header, parse_header, Header};

    fn one_error(body: &[u8]) -> serde_json::Value {
        let mut answers = check(body).unwrap_err();
        assert_eq!(answers.len(), 1, "{answers:?}");
        answers.remove(0)
    }

    #[test]
    fn only_decodable_messages_pass() {
        assert!(check(br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#).is_ok());
        assert!(check(br#"{"jsonrpc":"2.0","method":"exit"}"#).is_ok());
        assert!(check(br#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"#).is_ok());
        assert!(check(br#"{"jsonrpc":"2.0","id":"a","result":null}"#).is_ok());
        assert_eq!(one_error(b"{oops")["error"]["code"], -32700);
        let no_method = one_error(br#"{"jsonrpc":"2.0","id":4}"#);
        assert_eq!(no_method["error"]["code"], -32600);
        assert_eq!(no_method["id"], 4);
        assert_eq!(one_error(br#"[1, 2]"#)["error"]["code"], -32600);
        assert_eq!(one_error(br#"{"jsonrpc":"1.0","method":"x"}"#)["error"]["code"], -32600);
        let not_utf8 = one_error(b"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"x\xff\"}");
        assert_eq!(
            (not_utf8["id"].clone(), not_utf8["error"]["code"].clone()),
            (5.into(), (-32700).into())
        );
        let batch = check(br#"[{"jsonrpc":"2.0","id":6,"method":"a"},{"jsonrpc":"2.0","method":"b"},{"jsonrpc":"2.0","id":"7","method":"c"}]"#).unwrap_err();
        let ids: Vec<_> = batch.iter().map(|a| a["id"].clone()).collect();
        assert_eq!(ids, [serde_json::json!(6), serde_json::json!("7")]);
        let dollar = one_error(br#"{"jsonrpc":"2.0","id":8,"method":"$/foo"}"#);
        assert_eq!(
            (dollar["id"].clone(), dollar["error"]["code"].clone()),
            (8.into(), (-32601).into())
        );
    }

    fn header(bytes: &[u8]) -> String {
        match parse_header(bytes) {
            Header::Incomplete => "incomplete".to_owned(),
            Header::Malformed(why) => why,
            Header::Complete { size, length } => format!("{size} {length}"),
        }
    }

    #[test]
    fn headers() {
        assert_eq!(header(b"Content-Length: 12\r\n\r\n{"), "22 12");
        assert_eq!(header(b"content-length:3\n\n"), "18 3");
        assert_eq!(header(b"Content-Type: x\r\nContent-Length: 2\r\n\r\n"), "38 2");
        assert_eq!(header(b"Content-Length: 12\r\n"), "incomplete");
        for bad in ["abc", "-5", "18446744073709551616", "1000000000000", "", "1 2"] {
            let text = format!("Content-Length: {bad}\r\n\r\n");
            assert!(!matches!(parse_header(text.as_bytes()), Header::Complete { .. }), "{bad:?}");
        }
        assert!(header(b"Content-Type: x\r\n\r\n").contains("without Content-Length"));
        assert!(header(b"}Content-Length: 2\r\n\r\n").contains("not a header line"));
    }

    #[test]
    fn a_header_inside_a_body_cuts_it_short() {
        let mut scanned = 0;
        assert_eq!(embedded_header(b"{\"a\": 1}Content-Length: 5\r\n", &mut scanned), Some(8));
        let mut scanned = 0;
        assert_eq!(embedded_header(br#"{"a": "Content-Length: 5"}"#, &mut scanned), None);
        let mut scanned = 0;
        assert_eq!(embedded_header(b"{\"a\": 1}Content-Length: 5", &mut scanned), None);
        assert_eq!(scanned, 8, "an unfinished line is looked at again");
    }

    /// Frames `input`: the bodies passed on, and how many errors were reported.
    fn frames(input: &[u8]) -> (Vec<String>, usize) {
        let runtime = tokio::runtime::Builder::new_current_thread().build().expect("runtime");
        runtime.block_on(async {
            let mut framer = super::Framer::new(input);
            let (mut bodies, mut errors) = (Vec::new(), 0);
            while let Some(frame) = framer.next_frame().await {
                match frame {
                    Ok(body) => bodies.push(String::from_utf8(body).expect("utf-8")),
                    Err(_) => errors += 1,
                }
            }
            (bodies, errors)
        })
    }

    #[test]
    fn the_framer_resynchronises_on_the_next_header() {
        let input = [
            "Content-Length: 1000000000000\r\n\r\n{}",
            "Content-Length: 2\r\n\r\n{}",
            "Content-Length: 99\r\n\r\n{\"a\"",
            "Content-Length: 2\n\n{}",
            "Content-Type: x\r\n\r\n{}",
            "Content-Length: -1\r\n\r\n{}",
            &"x".repeat(100_000),
            "Content-Length: 3\r\n\r\n{ }",
        ]
        .concat();
        let (bodies, errors) = frames(input.as_bytes());
        assert_eq!(bodies, ["{}", "{}", "{ }"]);
        // The terabyte, the short body, the missing length, and the negative length with the
        // junk after it, which holds no header: one error for the stretch, not one per read.
        assert_eq!(errors, 4);
    }
}
