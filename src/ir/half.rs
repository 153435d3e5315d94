//! The IEEE 754 half-precision encoding (`half`): its bits to and from the `f64` a [`super::Const`]
//! holds, and round-to-nearest-even narrowing, as `__truncsfhf2`/`__truncdfhf2` and AArch64's
//! `fcvt` compute it (the interpreter's semantics and the constant checks share it).

const SIGN: u16 = 0x8000;
const EXPONENT: u16 = 0x7c00;
const FRACTION: u16 = 0x03ff;
/// Bits an `f64` fraction has beyond a `half` one.
const FRACTION_SHIFT: u32 = 52 - 10;

/// The value of `half` bits `h`, exactly (a NaN keeps its payload in the top fraction bits).
pub fn to_f64(h: u16) -> f64 {
    let sign = if h & SIGN != 0 { -1.0 } else { 1.0 };
    let exponent = (h & EXPONENT) >> 10;
    let fraction = h & FRACTION;
    match exponent {
        0 => sign * f64::from(fraction) * 2f64.powi(-24),
        0x1f if fraction == 0 => sign * f64::INFINITY,
        0x1f => {
            f64::from_bits((u64::from(h & SIGN) << 48) | (0x7ffu64 << 52) | (u64::from(fraction) << FRACTION_SHIFT))
        }
        _ => sign * (1.0 + f64::from(fraction) / 1024.0) * 2f64.powi(i32::from(exponent) - 15),
    }
}

/// The `half` bits of `v` if `half` holds it exactly (a NaN: if its payload fits in 10 bits).
pub fn exact_bits(v: f64) -> Option<u16> {
    let bits = v.to_bits();
    if v.is_nan() {
        let low = bits & ((1u64 << FRACTION_SHIFT) - 1);
        let sign = ((bits >> 48) as u16) & SIGN;
        return (low == 0).then_some(sign | EXPONENT | (((bits >> FRACTION_SHIFT) as u16) & FRACTION));
    }
    let h = round(v);
    (to_f64(h).to_bits() == bits).then_some(h)
}

/// The bits of a `half` constant holding `v`: exact for every verified constant (a signaling NaN
/// stays signaling), rounded otherwise.
pub fn constant_bits(v: f64) -> u16 {
    exact_bits(v).unwrap_or_else(|| round(v))
}

/// `v` rounded to the nearest `half`, ties to even, in one step (a `float` widens to `f64`
/// exactly, so this rounds both); beyond the largest finite `half` (65504) it becomes infinity.
/// A NaN is quieted and keeps the top bits of its payload.
pub fn round(v: f64) -> u16 {
    let bits = v.to_bits();
    let sign = ((bits >> 48) as u16) & SIGN;
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1u64 << 52) - 1);
    if biased == 0x7ff {
        return match fraction {
            0 => sign | EXPONENT,
            _ => sign | EXPONENT | 0x0200 | ((fraction >> FRACTION_SHIFT) as u16 & FRACTION),
        };
    }
    if biased == 0 {
        // An f64 subnormal is far below half's smallest subnormal (2^-24).
        return sign;
    }
    let exponent = biased - 1023;
    let significand = (1u64 << 52) | fraction;
    // Bits of the 53-bit significand below the result's last place: 42 for a normal half, more
    // below 2^-14 (half's subnormals have their last place at 2^-24).
    let shift = if exponent >= -14 { FRACTION_SHIFT } else { (28 - exponent).min(55) as u32 };
    let mut units = significand >> shift;
    let rest = significand & ((1u64 << shift) - 1);
    let halfway = 1u64 << (shift - 1);
    if rest > halfway || (rest == halfway && units & 1 == 1) {
        units += 1;
    }
    if exponent < -14 {
        // A carry into 2^10 units is the smallest normal, whose encoding is exactly 0x0400.
        return sign | units as u16;
    }
    // `units` holds the implicit bit (2^10): adding it carries into the exponent field, as does a
    // rounding up to 2^11.
    let magnitude = (((exponent + 14) as u64) << 10) + units;
    if magnitude >= u64::from(EXPONENT) {
        sign | EXPONENT
    } else {
        sign | magnitude as u16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_half() {
        for h in 0..=u16::MAX {
            let v = to_f64(h);
            let quieted = if v.is_nan() { h | 0x0200 } else { h };
            assert_eq!(round(v), quieted, "{h:#06x}");
            assert_eq!(exact_bits(v), Some(h), "{h:#06x}");
        }
    }

    #[test]
    fn rounds_to_nearest_even() {
        assert_eq!(round(1.0 + 1.0 / 2048.0), 0x3c00); // tie, even stays
        assert_eq!(round(1.0 + 3.0 / 2048.0), 0x3c02); // tie, odd rounds up
        assert_eq!(round(65504.0), 0x7bff);
        assert_eq!(round(65519.99), 0x7bff);
        assert_eq!(round(65520.0), 0x7c00);
        assert_eq!(round(-1e10), 0xfc00);
        assert_eq!(round(2f64.powi(-25)), 0x0000); // tie with zero: even
        assert_eq!(round(2f64.powi(-25) * 1.5), 0x0001);
        assert_eq!(round(2f64.powi(-14) * (1.0 - 2f64.powi(-12))), 0x0400); // rounds up to normal
        assert_eq!(exact_bits(0.1), None);
        assert_eq!(exact_bits(-0.0), Some(0x8000));
        // A signaling NaN constant keeps its bits; arithmetic (round) quiets it.
        assert_eq!(constant_bits(to_f64(0x7c01)), 0x7c01);
        assert_eq!(round(to_f64(0x7c01)), 0x7e01);
    }
}
