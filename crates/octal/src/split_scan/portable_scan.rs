//! The split scans ([`super::next_hit`], [`super::next_hit_planes`]) and
//! [`super::mark_walk`] in plain safe Rust, for every CPU (ARM, and x86 without AVX2):
//! the AVX2 kernels' steps of 32 pairs over fixed-size arrays that the compiler
//! vectorises for the target (SSE2, NEON). The AVX2 scans look each lane's low byte up
//! in its [`ByteSet`] by byte shuffles, which no portable code makes LLVM emit (see
//! `portable.rs`); here a step instead compares the 32 lanes with each value looked for
//! (a scan looks for a handful: one or two in about half the steps of `.6` and `.606`),
//! and only when more than [`COMPARE_MAX`] are looked for reads each lane's byte of a
//! 256-byte table (one load a lane, the rest vector code, as in the portable strike).
//! Calls are short (a few steps before a hit or the range's end), so the set-up counts:
//! the values are taken from the sets' tables by their set bits, the table built 16
//! bytes at a time, and a range shorter than a step goes straight to the scalar form.

use super::ByteSet;

/// The most values a step compares its lanes with; past them, [`by_table`]. (At most 8
/// compared took 1–3 % longer on `.6` to 2^20 and `.606` to 2^18; at most 4, 6 % on `.6`.)
const COMPARE_MAX: usize = 16;
/// The most groups (by top) [`by_table`] takes: one bit each in a byte of its table.
const TABLE_GROUPS: usize = 8;

/// The 32 XORs `low[i + j] ^ high[len − 1 − i − j]` (len = `low.len()` = `high.len()`).
#[inline(always)]
fn xors(low: &[u8], high: &[u8], i: usize) -> [u8; 32] {
    let len = low.len();
    let a: &[u8; 32] = low[i..i + 32].try_into().expect("32 lanes");
    let b: &[u8; 32] = high[len - i - 32..len - i].try_into().expect("32 lanes");
    std::array::from_fn(|j| a[j] ^ b[31 - j])
}

/// Lanes that are 0 or 1 as a mask, lane j at bit j.
#[inline(always)]
fn lane_mask(found: &[u8; 32]) -> u32 {
    let mut mask = 0;
    for (k, eight) in found.chunks_exact(8).enumerate() {
        mask |= (super::portable::lane_bits(eight.try_into().expect("8 lanes")) as u32) << (8 * k);
    }
    mask
}

/// Appends the members of `set` to `values`, with `top` beside each in `tops`, from
/// `values[n]` on; the new count. The table is read as four words, each set bit taken
/// by its trailing zeros. (`values` must have room: the caller counts the members.)
#[inline]
fn push_members(
    set: &ByteSet,
    top: u8,
    values: &mut [u8; COMPARE_MAX],
    tops: &mut [u8; COMPARE_MAX],
    mut n: usize,
) -> usize {
    for (w, word) in set.table.chunks_exact(8).enumerate() {
        let mut bits = u64::from_le_bytes(word.try_into().expect("8 bytes"));
        while bits != 0 {
            let at = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            // Byte i = 8w + at / 8 of the table, bit b = at % 8: the value with low
            // nibble i & 15, bits 4–6 b, bit 7 i >> 4.
            let (i, b) = (8 * w + at / 8, (at % 8) as u8);
            values[n] = (i & 15) as u8 | b << 4 | ((i >> 4) as u8) << 7;
            tops[n] = top;
            n += 1;
        }
    }
    n
}

/// [`super::next_hit`] on any CPU.
pub(super) fn next_hit(
    low: &[u8],
    high: &[u8],
    from: usize,
    set: &ByteSet,
) -> Option<(usize, u32)> {
    let len = low.len().min(high.len());
    let (low, high) = (&low[..len], &high[..len]);
    let n = set.len as usize;
    if n == 0 {
        return None;
    }
    let planes = (low, high, low, high);
    let (i, hit) = if from + 32 > len {
        (from, None)
    } else if n <= COMPARE_MAX {
        let (mut values, mut tops) = ([0u8; COMPARE_MAX], [0u8; COMPARE_MAX]);
        push_members(set, 0, &mut values, &mut tops, 0);
        match n {
            1 => by_compare::<1, false>(planes, from, n, &values, &tops),
            2 => by_compare::<2, false>(planes, from, n, &values, &tops),
            3..=4 => by_compare::<4, false>(planes, from, n, &values, &tops),
            5..=8 => by_compare::<8, false>(planes, from, n, &values, &tops),
            _ => by_compare::<16, false>(planes, from, n, &values, &tops),
        }
    } else {
        by_table::<false>(planes, from, std::slice::from_ref(&(0, set.clone())))
    };
    hit.or_else(|| super::next_hit_scalar(low, high, i, set))
}

/// [`super::next_hit_planes`] on any CPU.
pub(super) fn next_hit_planes(
    low: &[u8],
    high: &[u8],
    low_tops: &[u8],
    high_tops: &[u8],
    from: usize,
    groups: &[(u8, ByteSet)],
) -> Option<(usize, u32)> {
    let len = low.len().min(high.len());
    let planes = (
        &low[..len],
        &high[..len],
        &low_tops[..len],
        &high_tops[..len],
    );
    let n: usize = groups.iter().map(|(_, set)| set.len as usize).sum();
    if n == 0 {
        return None;
    }
    let (i, hit) = if from + 32 > len {
        (from, None)
    } else if n <= COMPARE_MAX {
        let (mut values, mut tops) = ([0u8; COMPARE_MAX], [0u8; COMPARE_MAX]);
        let mut at = 0;
        for (top, set) in groups {
            at = push_members(set, *top, &mut values, &mut tops, at);
        }
        match n {
            1 => by_compare::<1, true>(planes, from, n, &values, &tops),
            2 => by_compare::<2, true>(planes, from, n, &values, &tops),
            3..=4 => by_compare::<4, true>(planes, from, n, &values, &tops),
            5..=8 => by_compare::<8, true>(planes, from, n, &values, &tops),
            _ => by_compare::<16, true>(planes, from, n, &values, &tops),
        }
    } else if groups.len() <= TABLE_GROUPS {
        by_table::<true>(planes, from, groups)
    } else {
        (from, None)
    };
    hit.or_else(|| {
        let (low, high, low_tops, high_tops) = planes;
        super::next_hit_planes_scalar(low, high, low_tops, high_tops, i, groups)
    })
}

/// The whole steps of 32 pairs from `from` of `planes` (low bytes, high bytes, and
/// their tops when `TOPS`, all of one length), each lane compared with the first `K`
/// of `values` and their `tops` (the first `n` ≤ K being the values looked for, the
/// rest padded with the first: a lane equal to it is a hit anyway). Returns the first
/// step with a hit, or where the whole steps ended.
#[inline(always)]
fn by_compare<const K: usize, const TOPS: bool>(
    planes: (&[u8], &[u8], &[u8], &[u8]),
    from: usize,
    n: usize,
    values: &[u8; COMPARE_MAX],
    tops: &[u8; COMPARE_MAX],
) -> (usize, Option<(usize, u32)>) {
    let (low, high, low_tops, high_tops) = planes;
    let len = low.len();
    // Padded with the first value: the loops below run K times, unrolled.
    let pad = |a: &[u8; COMPARE_MAX]| -> [u8; K] {
        std::array::from_fn(|k| if k < n { a[k] } else { a[0] })
    };
    let (values, tops) = (pad(values), pad(tops));
    let mut i = from;
    while i + 32 <= len {
        let v = xors(low, high, i);
        let t = if TOPS {
            xors(low_tops, high_tops, i)
        } else {
            [0; 32]
        };
        let mut found = [0u8; 32];
        for k in 0..K {
            for j in 0..32 {
                let same = u8::from(v[j] == values[k]);
                found[j] |= if TOPS {
                    same & u8::from(t[j] == tops[k])
                } else {
                    same
                };
            }
        }
        let mask = lane_mask(&found);
        if mask != 0 {
            return (i, Some((i, mask)));
        }
        i += 32;
    }
    (i, None)
}

/// As [`by_compare`] for any number of values in at most [`TABLE_GROUPS`] groups: a
/// table gives each low byte the groups whose set holds it (bit g: group g), read
/// once a lane; the lane's top is compared with each group's (vector code).
#[inline(always)]
fn by_table<const TOPS: bool>(
    planes: (&[u8], &[u8], &[u8], &[u8]),
    from: usize,
    groups: &[(u8, ByteSet)],
) -> (usize, Option<(usize, u32)>) {
    let (low, high, low_tops, high_tops) = planes;
    let len = low.len();
    assert!(groups.len() <= TABLE_GROUPS);
    let mut table = [0u8; 256];
    // Group g's top and bit; unused groups have bit 0.
    let mut group_tops = [0u8; TABLE_GROUPS];
    let mut group_bits = [0u8; TABLE_GROUPS];
    for (g, (top, set)) in groups.iter().enumerate() {
        (group_tops[g], group_bits[g]) = (*top, 1 << g);
        // Value v = 16·high + low is bit high & 7 of the set's byte low + 16·(high >> 3):
        // 16 bytes at a time, each a shift of 16 bytes of the set (vector code).
        for (high, sixteen) in table.chunks_exact_mut(16).enumerate() {
            let row = &set.table[16 * (high >> 3)..][..16];
            for (t, &r) in sixteen.iter_mut().zip(row) {
                *t |= (r >> (high & 7) & 1) << g;
            }
        }
    }
    let mut i = from;
    while i + 32 <= len {
        let v = xors(low, high, i);
        let mut rows = [0u8; 32];
        for (row, &v) in rows.iter_mut().zip(&v) {
            *row = table[usize::from(v)];
        }
        let mut found = [0u8; 32];
        if TOPS {
            let t = xors(low_tops, high_tops, i);
            let mut here = [0u8; 32];
            for g in 0..TABLE_GROUPS {
                for j in 0..32 {
                    here[j] |= u8::from(t[j] == group_tops[g]).wrapping_neg() & group_bits[g];
                }
            }
            for j in 0..32 {
                found[j] = u8::from(rows[j] & here[j] != 0);
            }
        } else {
            for j in 0..32 {
                found[j] = u8::from(rows[j] != 0);
            }
        }
        let mask = lane_mask(&found);
        if mask != 0 {
            return (i, Some((i, mask)));
        }
        i += 32;
    }
    (i, None)
}

/// [`super::mark_walk`] on any CPU: as on AVX2, the indices of 8 parts at a time
/// (vector code: 32-bit XOR, minimum and add), then their 8 stores. (Walking the rows
/// as slices, the index capped in the row so that only the row is bounds-checked, took
/// 6 % longer on `.6` to 2^20, 3.55 against 3.38 CPU s.)
pub(super) fn mark_walk(bytes: &mut [u8], stride: usize, width: usize, value: u32, others: &[u32]) {
    // Every index min(·, width) + i·stride is then below bytes.len() < 2^31.
    assert!(width < stride && others.len() * stride <= bytes.len() && bytes.len() < 1 << 31);
    let chunks = others.chunks_exact(8);
    let rest = chunks.remainder();
    for (c, chunk) in chunks.enumerate() {
        let mut at = [0u32; 8];
        for (j, (a, &b)) in at.iter_mut().zip(chunk).enumerate() {
            *a = (value ^ b).min(width as u32) + ((c * 8 + j) * stride) as u32;
        }
        for &a in &at {
            bytes[a as usize] = 1;
        }
    }
    let done = others.len() - rest.len();
    for (j, &b) in rest.iter().enumerate() {
        bytes[(done + j) * stride + ((value ^ b) as usize).min(width)] = 1;
    }
}
