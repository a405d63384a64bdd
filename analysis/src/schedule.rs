//! How the database spreads items over threads: runs of consecutive items of about the same
//! amount of text ("chunks"), handed out in text order to as many threads as there are cores.
//!
//! Each chunk's results land in its own items, so what is computed does not depend on which
//! thread did it or when: a run on one thread gives the same results, in the same order.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError, RwLock};

/// Below this much work (bytes of item text), one thread does it all: starting a thread and
/// waking an idle core costs more than it saves.
const PARALLEL_MIN: usize = 128 << 10;

/// A chunk holds at least this much text when the thread count is chosen automatically, so
/// that handing it out is cheap beside the work.
const CHUNK_MIN: usize = 16 << 10;

/// A chunk holds at most about this much text: the database lowers and checks a chunk before
/// letting go of its items' details, so the chunk size bounds what is held at once.
const CHUNK_MAX: usize = 128 << 10;

/// How many threads share the work (`Database::set_threads`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Threads {
    /// Every core, when there is enough work to share.
    #[default]
    Auto,
    /// Exactly this many (at least one), however little work there is, in chunks as small as
    /// one item: what tests use to compare a parallel run with a sequential one.
    Exactly(usize),
}

/// Which items go together and on how many threads.
#[derive(Debug)]
pub(crate) struct Plan {
    pub threads: usize,
    pub chunks: Vec<Range<usize>>,
}

impl Plan {
    /// A plan for items of these sizes (their work, in bytes of text; an item with nothing to
    /// do is 0 and rides along with its neighbours).
    pub fn new(sizes: &[usize], threads: Threads) -> Plan {
        let total: usize = sizes.iter().sum();
        let (threads, min) = match threads {
            Threads::Auto => {
                let cores = hsir_parser::cores();
                (if total < PARALLEL_MIN { 1 } else { cores }, CHUNK_MIN)
            }
            Threads::Exactly(n) => (n.max(1), 1),
        };
        // Several chunks per thread, so that a thread that drew large items is not left alone
        // at the end; and smaller ones towards the end (a quarter of each thread's share of
        // what is left), so that the threads finish together.
        let mut chunks = Vec::new();
        let (mut start, mut size, mut left) = (0, 0, total);
        let mut target = (total / (threads * 8)).clamp(min, CHUNK_MAX);
        for (i, &s) in sizes.iter().enumerate() {
            size += s;
            if size >= target {
                chunks.push(start..i + 1);
                left -= size;
                (start, size) = (i + 1, 0);
                target = target.min((left / (threads * 4)).max(min));
            }
        }
        if start < sizes.len() {
            chunks.push(start..sizes.len());
        }
        let threads = threads.min(chunks.len()).max(1);
        Plan { threads, chunks }
    }
}

/// The chunks of `items` as separate slices, for handing out.
fn split<'a, T>(mut items: &'a mut [T], plan: &Plan) -> Vec<Mutex<Option<&'a mut [T]>>> {
    let mut out = Vec::with_capacity(plan.chunks.len());
    let mut at = 0;
    for chunk in &plan.chunks {
        let (head, tail) = std::mem::take(&mut items).split_at_mut(chunk.end - at);
        at = chunk.end;
        items = tail;
        out.push(Mutex::new(Some(head)));
    }
    out
}

/// Runs `worker` on `plan.threads` threads, this one included.
fn on_threads(threads: usize, worker: impl Fn() + Sync) {
    if threads <= 1 {
        worker();
        return;
    }
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(&worker);
        }
        worker();
    });
}

/// Runs `f` on every chunk of `items`.
pub(crate) fn each_chunk<T: Send>(items: &mut [T], plan: &Plan, f: impl Fn(&mut [T]) + Sync) {
    let chunks = split(items, plan);
    let next = AtomicUsize::new(0);
    on_threads(plan.threads, || loop {
        let k = next.fetch_add(1, Ordering::Relaxed);
        let Some(cell) = chunks.get(k) else { break };
        let chunk = cell.lock().unwrap_or_else(PoisonError::into_inner).take();
        if let Some(chunk) = chunk {
            f(chunk);
        }
    });
}

/// What `pipeline` keeps while chunks finish their first stage out of order.
struct Order<M> {
    /// First-stage results not merged yet, by chunk.
    pending: Vec<Option<M>>,
    /// The first chunk not merged yet.
    next: usize,
}

/// Wakes the waiting threads if a worker panics, so that they stop instead of waiting for a
/// chunk that will never be merged; the panic then reaches the caller.
struct AbortOnPanic<'a> {
    aborted: &'a AtomicBool,
    merged: &'a Condvar,
}

impl Drop for AbortOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.aborted.store(true, Ordering::SeqCst);
            self.merged.notify_all();
        }
    }
}

/// Two stages per chunk. `first` runs on each chunk as soon as a thread takes it; `merge`
/// folds its result into `state`, in chunk order; `second` runs on the chunk once it and
/// every chunk before it have been merged, reading `state` (which later chunks may go on
/// growing meanwhile). The thread that ran `first` on a chunk runs `second` on it, so that at
/// most one chunk per thread is between the stages. Returns the state with every chunk merged.
pub(crate) fn pipeline<T: Send, M: Send, S: Send + Sync>(
    items: &mut [T],
    plan: &Plan,
    state: S,
    first: impl Fn(&mut [T]) -> M + Sync,
    merge: impl Fn(&mut S, M) + Sync,
    second: impl Fn(&mut [T], &RwLock<S>) + Sync,
) -> S {
    let chunks = split(items, plan);
    let next = AtomicUsize::new(0);
    let state = RwLock::new(state);
    let order = Mutex::new(Order { pending: (0..chunks.len()).map(|_| None).collect(), next: 0 });
    let merged = Condvar::new();
    let aborted = AtomicBool::new(false);
    on_threads(plan.threads, || {
        let _guard = AbortOnPanic { aborted: &aborted, merged: &merged };
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some(cell) = chunks.get(k) else { break };
            let Some(chunk) = cell.lock().unwrap_or_else(PoisonError::into_inner).take() else {
                break;
            };
            let result = first(chunk);
            let mut order = order.lock().unwrap_or_else(PoisonError::into_inner);
            order.pending[k] = Some(result);
            if order.next == k {
                let mut state = state.write().unwrap_or_else(PoisonError::into_inner);
                loop {
                    let at = order.next;
                    let Some(result) = order.pending.get_mut(at).and_then(Option::take) else {
                        break;
                    };
                    merge(&mut state, result);
                    order.next += 1;
                }
                drop(state);
                merged.notify_all();
            }
            while order.next <= k {
                if aborted.load(Ordering::SeqCst) {
                    return;
                }
                order = merged.wait(order).unwrap_or_else(PoisonError::into_inner);
            }
            drop(order);
            second(chunk, &state);
        }
    });
    state.into_inner().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_every_item_once_in_order() {
        let sizes: Vec<usize> = (0..1000).map(|i| (i * 7919) % 3000).collect();
        for threads in [Threads::Auto, Threads::Exactly(1), Threads::Exactly(3)] {
            let plan = Plan::new(&sizes, threads);
            let mut at = 0;
            for chunk in &plan.chunks {
                assert_eq!(chunk.start, at);
                assert!(chunk.end > chunk.start);
                at = chunk.end;
            }
            assert_eq!(at, sizes.len());
        }
        // Small work stays on one thread unless asked otherwise.
        assert_eq!(Plan::new(&[100, 200], Threads::Auto).threads, 1);
        let plan = Plan::new(&[100, 200, 300], Threads::Exactly(2));
        assert_eq!((plan.threads, plan.chunks.len()), (2, 3));
        assert!(Plan::new(&[], Threads::Exactly(4)).chunks.is_empty());
    }

    /// Chunks shrink towards the end, down to single items, so that no thread is left with a
    /// large last chunk while the others wait.
    #[test]
    fn chunks_shrink_towards_the_end() {
        let sizes = vec![1000; 1000];
        let plan = Plan::new(&sizes, Threads::Exactly(2));
        let lens: Vec<usize> = plan.chunks.iter().map(|c| c.len()).collect();
        assert!(lens.windows(2).all(|w| w[0] >= w[1]), "{lens:?}");
        assert_eq!(lens[0], 63, "a sixteenth of the work first: {lens:?}");
        assert_eq!(lens.last(), Some(&1), "{lens:?}");
    }

    /// The second stage of a chunk sees every earlier chunk merged, whatever the threads do.
    #[test]
    fn the_second_stage_sees_every_earlier_chunk() {
        let sizes = vec![1; 200];
        let plan = Plan::new(&sizes, Threads::Exactly(4));
        let mut items: Vec<(usize, usize)> = (0..200).map(|i| (i, 0)).collect();
        let merged = pipeline(
            &mut items,
            &plan,
            Vec::new(),
            |chunk| chunk.iter().map(|&(i, _)| i).collect::<Vec<_>>(),
            |seen: &mut Vec<usize>, ids| seen.extend(ids),
            |chunk, seen| {
                let seen = seen.read().unwrap();
                for item in chunk {
                    item.1 = seen.len();
                    assert!(seen.len() > item.0, "item {} ran before its chunk was merged", item.0);
                }
            },
        );
        assert_eq!(merged, (0..200).collect::<Vec<_>>(), "merged in chunk order");
    }
}
