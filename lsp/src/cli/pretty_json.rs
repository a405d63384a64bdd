//! JSON in the layout of `serde_json::to_writer_pretty` (two-space indents, `"key": value`,
//! `[]` and `{}` when empty), written straight into a byte buffer.
//!
//! `hsir check --format json` writes thousands of small objects; serde's pretty formatter
//! spends about a thousand instructions on each `{"line": .., "character": ..}` through its
//! generic writer calls. This writer gives the same bytes (the tests compare it with
//! serde_json's) for a few appends per value.

/// A JSON document being written: containers are opened and closed in order, each value
/// after its key (in an object) or alone (in an array).
#[derive(Default)]
pub struct PrettyJson {
    out: Vec<u8>,
    /// For each open container, whether it has an entry yet.
    open: Vec<bool>,
}

impl PrettyJson {
    /// What is written and not taken yet.
    pub fn written(&self) -> &[u8] {
        &self.out
    }

    /// A writer for what follows, in a buffer of its own, once the innermost container has had
    /// at least one more entry: it continues the document where this writer will then stand
    /// (to write a later part on another thread; `append` takes it back).
    pub fn after_an_entry(&self) -> PrettyJson {
        let mut open = self.open.clone();
        if let Some(has_entry) = open.last_mut() {
            *has_entry = true;
        }
        PrettyJson { out: Vec::new(), open }
    }

    /// Takes back what `later` (made by `after_an_entry` when this writer stood where it has
    /// now written up to) wrote, and where it stands.
    pub fn append(&mut self, later: PrettyJson) {
        self.out.extend_from_slice(&later.out);
        self.open = later.open;
    }

    /// Writes what is written so far to `to`, and forgets it.
    pub fn drain_into(&mut self, to: &mut impl std::io::Write) -> std::io::Result<()> {
        to.write_all(&self.out)?;
        self.out.clear();
        Ok(())
    }

    /// Starts the next entry of the innermost container: a separator, a new line and the
    /// indentation (nothing at the top level).
    fn entry(&mut self) {
        let Some(has_entry) = self.open.last_mut() else { return };
        if std::mem::replace(has_entry, true) {
            self.out.extend_from_slice(b",\n");
        } else {
            self.out.push(b'\n');
        }
        self.indent(self.open.len());
    }

    fn indent(&mut self, depth: usize) {
        const SPACES: &[u8; 32] = b"                                ";
        let mut width = 2 * depth;
        while width > SPACES.len() {
            self.out.extend_from_slice(SPACES);
            width -= SPACES.len();
        }
        self.out.extend_from_slice(&SPACES[..width]);
    }

    fn open(&mut self, bracket: u8) {
        self.out.push(bracket);
        self.open.push(false);
    }

    fn close(&mut self, bracket: u8) {
        if self.open.pop() == Some(true) {
            self.out.push(b'\n');
            self.indent(self.open.len());
        }
        self.out.push(bracket);
    }

    /// Opens an object as the next array element (or as the document).
    pub fn begin_object(&mut self) {
        self.entry();
        self.open(b'{');
    }

    /// Opens an object as the value of `key`.
    pub fn object(&mut self, key: &str) {
        self.key(key);
        self.open(b'{');
    }

    pub fn end_object(&mut self) {
        self.close(b'}');
    }

    /// Opens an array as the document.
    pub fn begin_array(&mut self) {
        self.entry();
        self.open(b'[');
    }

    /// Opens an array as the value of `key`.
    pub fn array(&mut self, key: &str) {
        self.key(key);
        self.open(b'[');
    }

    pub fn end_array(&mut self) {
        self.close(b']');
    }

    fn key(&mut self, key: &str) {
        self.entry();
        escaped(&mut self.out, key);
        self.out.extend_from_slice(b": ");
    }

    pub fn string(&mut self, key: &str, value: &str) {
        self.key(key);
        escaped(&mut self.out, value);
    }

    pub fn number(&mut self, key: &str, value: u32) {
        self.key(key);
        let mut digits = [0u8; 10];
        let mut at = digits.len();
        let mut rest = value;
        loop {
            at -= 1;
            digits[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        self.out.extend_from_slice(&digits[at..]);
    }
}

/// `text` as a JSON string, escaped as serde_json escapes: `"` and `\\`, the control characters
/// with a short form (`\\b`, `\\t`, `\\n`, `\\f`, `\\r`), the others as `\\u00xx`; everything else,
/// non-ASCII included, as it is.
fn escaped(out: &mut Vec<u8>, text: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = text.as_bytes();
    out.push(b'"');
    let mut start = 0;
    while let Some(i) = next_to_escape(bytes, start) {
        let b = bytes[i];
        let short = match b {
            b'"' => b'"',
            b'\\' => b'\\',
            0x08 => b'b',
            0x09 => b't',
            0x0a => b'n',
            0x0c => b'f',
            0x0d => b'r',
            _ => b'u',
        };
        out.extend_from_slice(&bytes[start..i]);
        out.extend_from_slice(&[b'\\', short]);
        if short == b'u' {
            out.extend_from_slice(&[
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 15)],
            ]);
        }
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// The first byte at or after `from` that a JSON string escapes: a control character, `"` or
/// `\\`. Eight bytes at a time: messages are long and rarely hold one.
fn next_to_escape(bytes: &[u8], from: usize) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let escapes = |b: u8| b < 0x20 || b == b'"' || b == b'\\';
    let mut at = from;
    let mut words = bytes[from..].chunks_exact(8);
    for word in &mut words {
        let x = u64::from_ne_bytes(word.try_into().expect("8 bytes"));
        // A byte below 0x20, or equal to `"` or `\\` (a zero byte after the xor), sets its
        // high bit in one of the terms (the classic has-zero-byte and has-less-than tests;
        // bytes of 0x80 and above cannot set it through `!x`).
        let below = x.wrapping_sub(ONES * 0x20) & !x;
        let quote =
            (x ^ (ONES * u64::from(b'"'))).wrapping_sub(ONES) & !(x ^ (ONES * u64::from(b'"')));
        let slash =
            (x ^ (ONES * u64::from(b'\\'))).wrapping_sub(ONES) & !(x ^ (ONES * u64::from(b'\\')));
        if (below | quote | slash) & HIGH != 0 {
            // The tests can flag a byte after a true hit (borrows), never miss one: look at
            // this word byte by byte.
            if let Some(i) = word.iter().position(|&b| escapes(b)) {
                return Some(at + i);
            }
        }
        at += 8;
    }
    words.remainder().iter().position(|&b| escapes(b)).map(|i| at + i)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Serialize;

    use super::*;

    #[derive(Serialize)]
    struct Empty {}

    #[derive(Serialize)]
    struct At {
        n: u32,
        empty: Empty,
    }

    #[derive(Serialize)]
    struct Entry<'a> {
        text: &'a str,
        at: At,
        list: Vec<BTreeMap<&'a str, &'a str>>,
    }

    /// The same document through this writer and through serde_json's pretty printer.
    #[test]
    fn writes_what_serde_json_writes_pretty() {
        let strings = [
            "",
            "plain",
            "a \"quoted\" \\ path",
            "tab\tnew\nline\r\x08\x0c",
            "\x00\x01\x1f\x7f",
            "é 𝄞 ✓",
        ];
        let numbers = [0u32, 7, 10, 4_294_967_295];
        let mut json = PrettyJson::default();
        let mut expected = Vec::new();
        json.begin_array();
        for (i, s) in strings.iter().enumerate() {
            let n = numbers[i % numbers.len()];
            json.begin_object();
            json.string("text", s);
            json.object("at");
            json.number("n", n);
            json.object("empty");
            json.end_object();
            json.end_object();
            json.array("list");
            for _ in 0..i % 3 {
                json.begin_object();
                json.string(s, s);
                json.end_object();
            }
            json.end_array();
            json.end_object();
            let list = (0..i % 3).map(|_| BTreeMap::from([(*s, *s)])).collect();
            expected.push(Entry { text: s, at: At { n, empty: Empty {} }, list });
        }
        json.end_array();
        let expected = serde_json::to_string_pretty(&expected).unwrap();
        // Escapes at every position of an eight-byte word, and bytes around the tested ones.
        for at in 0..20 {
            for b in [0u8, 0x1f, 0x20, b'"', b'\\', 0x21, 0x5b, 0x5d, 0x7f] {
                let mut text = vec![b'a'; 20];
                text[at] = b;
                let text = String::from_utf8(text).unwrap();
                let mut ours = Vec::new();
                escaped(&mut ours, &text);
                assert_eq!(String::from_utf8(ours).unwrap(), serde_json::to_string(&text).unwrap());
            }
        }
        assert_eq!(std::str::from_utf8(json.written()).unwrap(), expected);

        // Deeper than one run of the indentation's spaces.
        let mut json = PrettyJson::default();
        json.begin_object();
        let mut deep = serde_json::json!({ "n": 1 });
        for depth in (0..40).rev() {
            deep = serde_json::json!({ format!("k{depth}"): deep });
        }
        for depth in 0..40 {
            json.object(&format!("k{depth}"));
        }
        json.number("n", 1);
        for _ in 0..41 {
            json.end_object();
        }
        let expected = serde_json::to_string_pretty(&deep).unwrap();
        assert_eq!(std::str::from_utf8(json.written()).unwrap(), expected);

        let mut json = PrettyJson::default();
        json.begin_array();
        json.end_array();
        let none: [Entry; 0] = [];
        let expected = serde_json::to_string_pretty(&none).unwrap();
        assert_eq!(std::str::from_utf8(json.written()).unwrap(), expected);
    }
}
