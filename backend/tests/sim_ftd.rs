//! Dynamatic's fast-token-delivery (FTD) circuits of the benchmark suite
//! (`../shared/dynamatic-suite/ir/*_FTD__handshake_export.mlir`) run in the interpreter on the
//! inputs their C `main()` makes, and give the kernel's results: the return value, and the
//! arrays it writes. The inputs and the expected results are computed here, in Rust, from the
//! C sources' own recipe (`c/*.c`: glibc's `rand()`, seeded as `main` seeds it). Every circuit
//! ends by `end`: its outer loop starts again from sources' constants once it exits.
//! Skipped, with a message, when the suite is missing.

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use hsir_backend::sim::{self, Ending, Inputs, Outcome};
use hsir_backend::Program;

/// glibc's `rand()` (the additive feedback generator `random()` uses with its default state of
/// 31 words), seeded as `srand(seed)` seeds it.
struct GlibcRand {
    state: Vec<i32>,
    front: usize,
    rear: usize,
}

impl GlibcRand {
    fn new(seed: u32) -> GlibcRand {
        let mut r = vec![0i32; 31];
        r[0] = if seed == 0 { 1 } else { seed as i32 };
        for i in 1..31 {
            // 16807 * r[i-1] % 2147483647, by Schrage's method as glibc computes it.
            let word = r[i - 1] as i64;
            let hi = word / 127_773;
            let lo = word % 127_773;
            let mut next = 16_807 * lo - 2_836 * hi;
            if next < 0 {
                next += 2_147_483_647;
            }
            r[i] = next as i32;
        }
        let mut rng = GlibcRand { state: r, front: 3, rear: 0 };
        for _ in 0..310 {
            rng.next();
        }
        rng
    }

    fn next(&mut self) -> i32 {
        let sum = self.state[self.front].wrapping_add(self.state[self.rear]);
        self.state[self.front] = sum;
        self.front = (self.front + 1) % 31;
        self.rear = (self.rear + 1) % 31;
        ((sum as u32) >> 1) as i32
    }

    /// `rand() % 100`.
    fn percent(&mut self) -> i32 {
        self.next() % 100
    }
}

/// The suite's `ir/` folder.
fn suite() -> Option<PathBuf> {
    common::dynamatic_suite().map(|dir| dir.join("ir"))
}

fn words(values: &[i32]) -> Vec<u64> {
    values.iter().map(|&v| v as u32 as u64).collect()
}

fn float_words(values: &[f32]) -> Vec<u64> {
    values.iter().map(|v| v.to_bits() as u64).collect()
}

/// Runs the FTD export of `kernel` with `scalars` on its scalar arguments (in order), one
/// token on every control argument, and `memories` by name.
fn run(
    dir: &std::path::Path,
    kernel: &str,
    scalars: &[i32],
    memories: BTreeMap<String, Vec<u64>>,
) -> Outcome {
    let path = dir.join(format!("{kernel}_FTD__handshake_export.mlir"));
    let text = std::fs::read_to_string(&path).unwrap();
    let (parse, _) = hsir_analysis::parse_bytes(text.as_bytes());
    let program = Program::new(&parse).unwrap_or_else(|e| panic!("{kernel}: {e:?}"));
    let func = program.func(kernel).unwrap_or_else(|| panic!("no @{kernel}"));
    let mut scalars = scalars.iter();
    let args = func
        .args()
        .iter()
        .map(|&a| match func.shape(a) {
            None => Vec::new(),
            Some(shape) if shape.control => vec![0],
            Some(_) => vec![*scalars.next().expect("a scalar input") as u32 as u64],
        })
        .collect();
    let outcome = sim::run(&program, kernel, &Inputs { args, memories }, 20_000_000)
        .unwrap_or_else(|e| panic!("{kernel}: {e}"));
    for result in &outcome.results {
        assert_eq!(result.len(), 1, "{kernel}: each result once: {:?}", outcome.results);
    }
    outcome
}

fn returned(outcome: &Outcome) -> i32 {
    outcome.results[0][0] as u32 as i32
}

#[test]
fn gcd() {
    let Some(dir) = suite() else { return };
    let (a, b) = (7_966_496, 314_080_416);
    let outcome = run(&dir, "gcd", &[a, b], BTreeMap::new());
    let expected = {
        let (mut x, mut y) = (a, b);
        while y != 0 {
            (x, y) = (y, x % y);
        }
        x
    };
    assert_eq!(returned(&outcome), expected);
}

#[test]
fn fir() {
    let Some(dir) = suite() else { return };
    let mut rng = GlibcRand::new(13);
    let (mut di, mut idx) = (vec![0; 1000], vec![0; 1000]);
    for j in 0..1000 {
        di[j] = rng.percent();
        idx[j] = rng.percent();
    }
    let expected = (0..1000).fold(0i32, |t, i| t.wrapping_add(idx[i].wrapping_mul(di[999 - i])));
    let memories = BTreeMap::from([("di".into(), words(&di)), ("idx".into(), words(&idx))]);
    let outcome = run(&dir, "fir", &[], memories);
    assert_eq!(returned(&outcome), expected);
    assert_eq!(outcome.ending, Ending::End, "its loop starts again from a source's zero");
    assert!(outcome.leftovers.is_empty(), "{:?}", outcome.leftovers);
}

#[test]
fn matvec() {
    let Some(dir) = suite() else { return };
    const N: usize = 20;
    let mut rng = GlibcRand::new(1);
    let (mut m, mut v) = (vec![0; N * N], vec![0; N]);
    for y in 0..N {
        v[y] = rng.percent();
        for x in 0..N {
            m[y * N + x] = rng.percent();
        }
    }
    let mut out = vec![0i32; N];
    for i in 0..N {
        out[i] = (0..N).fold(0i32, |t, j| t.wrapping_add(v[j].wrapping_mul(m[i * N + j])));
    }
    let memories = BTreeMap::from([
        ("m".into(), words(&m)),
        ("v".into(), words(&v)),
        ("out".into(), vec![0; N]),
    ]);
    let outcome = run(&dir, "matvec", &[], memories);
    assert_eq!(returned(&outcome), out[N - 1]);
    assert_eq!(outcome.memories["out"], words(&out));
    // FTD feeds the store-count constant of `out`'s `mem_controller` from the start token, so
    // it announces one store for the 20 the loop makes: as in Dynamatic's counter, `memEnd`
    // leaves once the count first reaches 0 (after the first store; `ctrlEnd` is the start
    // token too), and the run says what the counts missed.
    let held: Vec<&str> = outcome.held.iter().map(|h| h.message.as_str()).collect();
    assert_eq!(
        held,
        ["`mem_controller` (`%memEnd`) received 19 stores more than its store counts announced"]
    );
}

#[test]
fn bicg() {
    let Some(dir) = suite() else { return };
    const N: usize = 10;
    let mut rng = GlibcRand::new(1);
    let (mut a, mut s, mut q, mut p, mut r) =
        (vec![0; N * N], vec![0; N], vec![0; N], vec![0; N], vec![0; N]);
    for y in 0..N {
        s[y] = rng.percent();
        q[y] = rng.percent();
        p[y] = rng.percent();
        r[y] = rng.percent();
        for x in 0..N {
            a[y * N + x] = rng.percent();
        }
    }
    let memories = BTreeMap::from([
        ("a".into(), words(&a)),
        ("s".into(), words(&s)),
        ("q".into(), words(&q)),
        ("p".into(), words(&p)),
        ("r".into(), words(&r)),
    ]);
    let mut tmp = 0i32;
    for i in 0..N {
        tmp = q[i];
        for j in 0..N {
            let val = a[i * N + j];
            s[j] = s[j].wrapping_add(r[i].wrapping_mul(val));
            tmp = tmp.wrapping_add(val.wrapping_mul(p[j]));
        }
        q[i] = tmp;
    }
    let outcome = run(&dir, "bicg", &[], memories);
    assert_eq!(returned(&outcome), tmp);
    assert_eq!(outcome.memories["s"], words(&s));
    assert_eq!(outcome.memories["q"], words(&q));
}

/// `atax` (whose header types its arrays `float`) and `atax_float`: the same kernel.
fn atax(kernel: &str) {
    let Some(dir) = suite() else { return };
    const N: usize = 10;
    let mut rng = GlibcRand::new(1);
    let (mut a, mut x) = (vec![0f32; N * N], vec![0f32; N]);
    let (mut y, mut tmp) = (vec![0f32; N], vec![0f32; N]);
    for i in 0..N {
        x[i] = rng.percent() as f32;
        for j in 0..N {
            a[i * N + j] = rng.percent() as f32;
        }
    }
    let memories = BTreeMap::from([
        ("A".into(), float_words(&a)),
        ("x".into(), float_words(&x)),
        ("y".into(), float_words(&y)),
        ("tmp".into(), float_words(&tmp)),
    ]);
    for i in 0..N {
        let mut t = tmp[i];
        for j in 0..N {
            t += a[i * N + j] * x[j];
        }
        for j in 0..N {
            y[j] += a[i * N + j] * t;
        }
        tmp[i] = t;
    }
    let outcome = run(&dir, kernel, &[], memories);
    assert_eq!(returned(&outcome), tmp[N - 1] as i32);
    assert_eq!(outcome.memories["y"], float_words(&y), "{kernel}");
    assert_eq!(outcome.memories["tmp"], float_words(&tmp), "{kernel}");
}

#[test]
fn atax_int_header() {
    atax("atax");
}

#[test]
fn atax_float() {
    atax("atax_float");
}

#[test]
fn kernel_2mm() {
    let Some(dir) = suite() else { return };
    const N: usize = 7;
    let mut rng = GlibcRand::new(1);
    let alpha = rng.next();
    let beta = rng.next();
    let (mut a, mut b, mut c, mut d) =
        (vec![0; N * N], vec![0; N * N], vec![0; N * N], vec![0; N * N]);
    for i in 0..N {
        for k in 0..N {
            a[i * N + k] = rng.percent();
        }
        for l in 0..N {
            d[i * N + l] = rng.percent();
        }
    }
    for k in 0..N {
        for j in 0..N {
            b[k * N + j] = rng.percent();
        }
        for l in 0..N {
            c[k * N + l] = rng.percent();
        }
    }
    let memories = BTreeMap::from([
        ("tmp".into(), vec![0; N * N]),
        ("A".into(), words(&a)),
        ("B".into(), words(&b)),
        ("C".into(), words(&c)),
        ("D".into(), words(&d)),
    ]);
    let mut tmp = vec![0i32; N * N];
    for i in 0..N {
        for j in 0..N {
            tmp[i * N + j] = 0;
            for k in 0..N {
                let product = alpha.wrapping_mul(a[i * N + k]).wrapping_mul(b[k * N + j]);
                tmp[i * N + j] = tmp[i * N + j].wrapping_add(product);
            }
        }
    }
    for i in 0..N {
        for l in 0..N {
            d[i * N + l] = d[i * N + l].wrapping_mul(beta);
            for k in 0..N {
                let product = tmp[i * N + k].wrapping_mul(c[k * N + l]);
                d[i * N + l] = d[i * N + l].wrapping_add(product);
            }
        }
    }
    let outcome = run(&dir, "kernel_2mm", &[alpha, beta], memories);
    assert_eq!(returned(&outcome), d[N * N - 1]);
    assert_eq!(outcome.memories["tmp"], words(&tmp));
    assert_eq!(outcome.memories["D"], words(&d));
}
