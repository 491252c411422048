//! [`super::strike`]'s kernel in plain safe Rust, for every CPU (ARM, and x86 without
//! AVX2): the design of the AVX-512 and AVX2 kernels (plane bytes, blocks of the
//! bitmap, 64 pairs a step, hits kept without a branch and struck in batches) over
//! fixed-size arrays that the compiler vectorises for the target (SSE2, NEON). Only the
//! look-up of each lane's byte in the block is one load a lane: no portable code makes
//! LLVM emit a byte shuffle from a variable table, and a select over a table's 16
//! entries costs more than the load (16 compares a lane per 16 bytes of the block).
//! Since a load costs the same whatever the block's size, a block is 2048 values (256
//! bytes: one whole byte of the plane indexes it), as on AVX-512.

use super::BATCH;

/// The most blocks struck at once: one. Each live block costs a look-up per lane, and
/// a second rarely helps (see the AVX2 kernel's `AVX2_LIVE`).
pub(super) const LIVE: usize = 1;

/// Bytes of a block of 2048 values.
const BLOCK_BYTES: usize = 256;

/// Strikes the pairs of whole steps of 64 out of the live blocks of `table` (at most
/// [`LIVE`]); returns how many pairs it looked at: all the whole steps, or fewer when a
/// live block is empty (the caller settles it).
pub(super) fn strike_live(
    pairs: (&[u8], &[u8], &[u8], &[u8]),
    table: &mut [u8],
    live: &[usize],
) -> usize {
    match *live {
        [a] => strike_blocks::<1>(pairs, table, [a]),
        [a, b] => strike_blocks::<2>(pairs, table, [a, b]),
        _ => unreachable!("at most two live blocks"),
    }
}

/// The bits of 8 lanes that are 0 or 1, lane j at bit j (a multiply gathers the low
/// bit of each byte into the top byte: the portable movemask).
#[inline(always)]
pub(super) fn lane_bits(lanes: &[u8; 8]) -> u64 {
    u64::from_le_bytes(*lanes).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// [`strike_live`] for `L` live blocks, each copied into an array of 256 bytes (the
/// "registers", read again after a batch that struck a value). A step: the 64 lanes'
/// plane bytes and bit planes (XORs of the forward and backward planes: vectorised),
/// each lane's byte of each live block (a load), then whether its bit is set and its
/// block (bits 3–7 of the bit plane) is the live one (vectorised), packed to a mask.
/// Kept apart, the loops vectorise around the loads: one loop doing all of a lane's
/// work at once, one lane at a time, took twice as long (`.007` to 2^17, 4.5 against
/// 2.4 CPU s).
#[inline(always)]
fn strike_blocks<const L: usize>(
    pairs: (&[u8], &[u8], &[u8], &[u8]),
    table: &mut [u8],
    live: [usize; L],
) -> usize {
    let len = super::planes_len(pairs);
    let (bytes, bits, bytes_back, bits_back) = pairs;
    assert!(live
        .iter()
        .all(|&b| (b + 1) * BLOCK_BYTES <= table.len() && b < 32));
    // The tag of block b in the bit plane: its bits 3–7.
    let tags: [u8; L] = std::array::from_fn(|k| (live[k] as u8) << 3);
    let load = |table: &[u8]| -> [[u8; BLOCK_BYTES]; L] {
        std::array::from_fn(|k| {
            let at = live[k] * BLOCK_BYTES;
            table[at..at + BLOCK_BYTES]
                .try_into()
                .expect("a block of 256 bytes")
        })
    };
    strike_in_batches!(
        len,
        table,
        load,
        |block| { block.iter().fold(0, |any, &b| any | b) == 0 },
        |t, at, step_bytes, step_bits| {
            let lanes =
                |plane: &[u8]| -> [u8; 64] { plane[at..at + 64].try_into().expect("64 lanes") };
            let (a, b, c, d) = (
                lanes(bytes),
                lanes(bytes_back),
                lanes(bits),
                lanes(bits_back),
            );
            for j in 0..64 {
                step_bytes[j] = a[j] ^ b[j];
                step_bits[j] = c[j] ^ d[j];
            }
            let mut found = [0u8; 64];
            for k in 0..L {
                let mut rows = [0u8; 64];
                for (row, &byte) in rows.iter_mut().zip(step_bytes.iter()) {
                    *row = t[k][usize::from(byte)];
                }
                for j in 0..64 {
                    let bit_block = step_bits[j];
                    let here = u8::from(bit_block & 0xf8 == tags[k]);
                    found[j] |= (rows[j] >> (bit_block & 7)) & here;
                }
            }
            let mut mask = 0u64;
            for (i, eight) in found.chunks_exact(8).enumerate() {
                let eight: &[u8; 8] = eight.try_into().expect("8 lanes");
                mask |= lane_bits(eight) << (8 * i);
            }
            mask
        }
    )
}

#[cfg(test)]
mod tests {
    use super::lane_bits;

    #[test]
    fn lane_bits_packs_the_low_bits_in_order() {
        for m in 0..=255u8 {
            let lanes: [u8; 8] = std::array::from_fn(|j| (m >> j) & 1);
            assert_eq!(lane_bits(&lanes), u64::from(m));
        }
    }
}
