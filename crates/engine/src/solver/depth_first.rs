//! The solver's one-pass search: depth first, with an explicit stack of frames (no
//! recursion). A frame holds its position's options, each as the nim-sum of the
//! values of its parts known so far, and the parts not memoized yet; those are
//! solved one after the other (each its own frame) and their values added in. Each
//! option's parts are computed and looked up once, where the two-pass search
//! (discover every reachable position, then evaluate them by rank) does both twice and
//! holds every position twice more. The stack holds at most [`SLOTS`] options and
//! parts (fewer under a small memory limit: a quarter of it at about 64 bytes a slot):
//! beyond that (long chains of positions with many options) it stops, and the
//! two-pass search goes on from the values memoized so far.

use super::Solver;
use crate::error::{Error, Result};
use crate::game::{Coord, Position};
use crate::memo_key::Key;

/// Most options and waiting parts the stack of frames may hold.
const SLOTS: usize = 1 << 20;

/// Bytes a slot of the stack takes, at most (an option's value, a waiting part, a
/// frame), for the memory limit.
const SLOT_BYTES: u64 = 64;

/// A position being valued.
struct Frame {
    key: Key,
    /// Where its options start in the values.
    values: usize,
    /// Where its waiting parts start, and the next one to solve.
    waits: usize,
    next: usize,
    /// The option of the frame below that this position is a part of.
    into: Option<usize>,
}

/// The frames and what they hold.
#[derive(Default)]
struct Stack {
    frames: Vec<Frame>,
    /// Each option's nim-sum of the values of its parts found so far.
    values: Vec<u32>,
    /// Parts not memoized when their option was listed: (option, part).
    waits: Vec<(usize, Key)>,
    /// Most values and waits it may hold.
    slots: usize,
    /// Options listed since the last progress report.
    listed: usize,
}

impl<'g> Solver<'g> {
    /// The value of `root` (one piece, in simplified form, not memoized) by one
    /// depth-first pass, memoizing every position it values; `None` when the stack
    /// outgrew its slots (what was valued stays memoized).
    pub(super) fn depth_first(&mut self, root: &[Coord]) -> Result<Option<u32>> {
        let per_entry = 160 + 24 * root.len() as u64;
        let describe = |game: &dyn crate::game::Game| {
            format!(
                "evaluating {} at {}",
                game.spec(),
                crate::game::position_words(game, root)
            )
        };
        let mut stack = Stack {
            slots: (self.limit.bytes() / 4 / SLOT_BYTES).clamp(1 << 10, SLOTS as u64) as usize,
            ..Stack::default()
        };
        if !self.open(&mut stack, Key::new(root), None)? {
            return Ok(None);
        }
        self.progress.start(0, "positions evaluated");
        let mut valued = 0usize;
        loop {
            let top = stack.frames.len() - 1;
            let next = stack.frames[top].next;
            if next < stack.waits.len() {
                stack.frames[top].next += 1;
                let (option, part) = &stack.waits[next];
                let option = *option;
                if let Some(v) = self.memo_get(part.as_slice()) {
                    stack.values[option] ^= v;
                } else {
                    let part = part.clone();
                    if !self.open(&mut stack, part, Some(option))? {
                        return Ok(None);
                    }
                }
                continue;
            }
            // Every option is valued: the position is.
            let frame = stack.frames.pop().expect("a frame");
            let v = self.rule.combine(
                &stack.values[frame.values..],
                self.game.terminal_value(),
                &mut self.scratch,
            );
            stack.values.truncate(frame.values);
            stack.waits.truncate(frame.waits);
            self.memo.insert(frame.key, v);
            valued += 1;
            if valued.is_multiple_of(4096) {
                self.progress.check_cancelled()?;
                self.progress.advance(4096);
                let needed = self.memo.len() as u64 * per_entry;
                self.limit.check(&describe(self.game), needed)?;
            }
            if stack.listed >= 1 << 16 {
                // Positions with many options: the report comes sooner.
                stack.listed = 0;
                self.progress.check_cancelled()?;
            }
            match frame.into {
                Some(option) => stack.values[option] ^= v,
                None => {
                    self.progress.finish();
                    return Ok(Some(v));
                }
            }
        }
    }

    /// Pushes the frame of `key`: lists its options, each with the nim-sum of its
    /// memoized parts and its other parts waiting. `false` when the stack outgrew its
    /// slots; a move that does not lower the rank is a contract error.
    fn open(&self, stack: &mut Stack, key: Key, into: Option<usize>) -> Result<bool> {
        let game = self.game;
        let p = key.as_slice();
        let rank = game.rank(p);
        let (values, waits) = (stack.values.len(), stack.waits.len());
        let mut full = false;
        let mut wrong: Option<Position> = None;
        game.for_each_option(p, &mut |o| {
            if full || wrong.is_some() {
                return;
            }
            if game.rank(o) >= rank {
                wrong = Some(o.to_vec());
                return;
            }
            // Every part waits at first; its slot of the memo is fetched meanwhile.
            let option = stack.values.len();
            self.for_each_key(o, &mut |k| {
                self.memo.prefetch(k);
                stack.waits.push((option, Key::new(k)));
            });
            stack.values.push(0);
            stack.listed += 1;
            full = stack.values.len() + stack.waits.len() > stack.slots;
        });
        if let Some(o) = wrong {
            return Err(Error::Contract(format!(
                "{} moves from {} to {} without lowering its rank",
                game.spec(),
                crate::game::position_words(game, p),
                crate::game::position_words(game, &o)
            )));
        }
        if full {
            return Ok(false);
        }
        // The memoized parts are added in; the others keep waiting, in order.
        let mut kept = waits;
        for i in waits..stack.waits.len() {
            let (option, ref part) = stack.waits[i];
            match self.memo_get(part.as_slice()) {
                Some(v) => stack.values[option] ^= v,
                None => {
                    stack.waits.swap(kept, i);
                    kept += 1;
                }
            }
        }
        stack.waits.truncate(kept);
        stack.frames.push(Frame {
            key,
            values,
            waits,
            next: waits,
            into,
        });
        Ok(true)
    }
}
