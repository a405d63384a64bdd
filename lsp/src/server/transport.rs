//! A guard in front of tower-lsp-server's transport.
//!
//! tower-lsp-server stops reading input after the first message it cannot decode: its framed
//! reader ends the stream on an error. One stray byte from an editor plugin would end the
//! session. So the server's stdin and stdout go through two pipes: messages that decode are
//! passed on unchanged; a malformed one is answered here with the protocol's error
//! (-32700 for a body that is not JSON, -32600 for JSON that is not a message) and never
//! reaches the server. The answers are written between the server's own messages, never
//! inside one.

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
        let mut input = BufReader::new(input);
        while let Some(frame) = read_frame(&mut input).await {
            match frame {
                Frame::Body(body) => match check(&body) {
                    Ok(()) => {
                        if write_message(&mut to_server, &body).await.is_err() {
                            break;
                        }
                    }
                    Err(answer) => {
                        let _ = errors_tx.send(answer.to_string().into_bytes());
                    }
                },
                Frame::BadHeader => {
                    let answer = error(
                        Value::Null,
                        -32700,
                        "a message without a valid Content-Length header",
                    );
                    let _ = errors_tx.send(answer.to_string().into_bytes());
                }
            }
        }
        // End of input: the server sees its stdin close and stops.
        let _ = to_server.shutdown().await;
    });
    let written = tokio::spawn(forward_output(from_server, output, errors_rx));
    (server_in, server_out, written, injector)
}

enum Frame {
    Body(Vec<u8>),
    BadHeader,
}

/// Reads one message: headers, a blank line, then `Content-Length` bytes. `None` at the end of
/// the input.
async fn read_frame(input: &mut (impl AsyncBufReadExt + Unpin)) -> Option<Frame> {
    let mut length: Option<usize> = None;
    let mut saw_header = false;
    loop {
        let mut line = Vec::new();
        let n = input.read_until(b'\n', &mut line).await.ok()?;
        if n == 0 {
            return None;
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim();
        if line.is_empty() {
            if !saw_header {
                continue;
            }
            break;
        }
        saw_header = true;
        if let Some((name, value)) = line.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().ok();
            }
        }
    }
    let Some(length) = length else { return Some(Frame::BadHeader) };
    let mut body = vec![0; length];
    input.read_exact(&mut body).await.ok()?;
    Some(Frame::Body(body))
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

/// Whether the server can decode `body`: a JSON object that is a request, a notification or
/// a response. Otherwise, the error answer.
fn check(body: &[u8]) -> Result<(), Value> {
    let Ok(value) = serde_json::from_slice::<Value>(body) else {
        return Err(error(Value::Null, -32700, "Parse error: the message is not JSON"));
    };
    let id = value.get("id").cloned().filter(|id| id.is_number() || id.is_string());
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
    if shaped {
        Ok(())
    } else {
        Err(error(id.unwrap_or(Value::Null), -32600, "Invalid request: not a JSON-RPC 2.0 message"))
    }
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
            frame = read_frame(&mut from_server) => {
                let Some(Frame::Body(body)) = frame else { break };
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
    use super::check;

    #[test]
    fn only_decodable_messages_pass() {
        assert!(check(br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#).is_ok());
        assert!(check(br#"{"jsonrpc":"2.0","method":"exit"}"#).is_ok());
        assert!(check(br#"{"jsonrpc":"2.0","id":"a","result":null}"#).is_ok());
        assert_eq!(check(b"{oops").unwrap_err()["error"]["code"], -32700);
        let no_method = check(br#"{"jsonrpc":"2.0","id":4}"#).unwrap_err();
        assert_eq!(no_method["error"]["code"], -32600);
        assert_eq!(no_method["id"], 4);
        assert_eq!(check(br#"[1, 2]"#).unwrap_err()["error"]["code"], -32600);
        assert_eq!(
            check(br#"{"jsonrpc":"1.0","method":"x"}"#).unwrap_err()["error"]["code"],
            -32600
        );
    }
}
