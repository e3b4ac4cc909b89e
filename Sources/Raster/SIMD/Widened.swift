/// Sixteen-bit lanes over the two-channels-per-word layout.
///
/// Half a chunk (8 pixels, `SIMD8<UInt32>`) is split with the mask
/// `0x00FF00FF` into blue/red and green/alpha words; reinterpreted as
/// `SIMD16<UInt16>`, each 16-bit lane holds one channel, so products with an
/// 8-bit factor and `div255` are 16-bit lane operations (`pmullw`/`psrlw` on
/// SSE2; `mla.8h`/`usra.8h` on NEON). The reinterpretation is free.
///
/// Measured shape of the generated code (Swift 6.3): 16-bit multiplies on
/// `SIMD16<UInt16>` vectorize, but on `SIMD32<UInt16>` inside a kernel loop
/// the multiply was scalarized (32 `imul`s through the stack, ~400× slower),
/// and widening with `SIMD64<UInt16>(truncatingIfNeeded:)` likewise. 32-bit
/// multiplies are avoided because baseline x86-64 (SSE2) has none. Keep
/// vectors at 256 bits or less for multiplies.
public typealias Pixels8 = SIMD8<UInt32>
public typealias Channels16 = SIMD16<UInt16>

@inlinable @inline(__always)
func lanes16(_ v: Pixels8) -> Channels16 { unsafeBitCast(v, to: Channels16.self) }

@inlinable @inline(__always)
func words32(_ v: Channels16) -> Pixels8 { unsafeBitCast(v, to: Pixels8.self) }

/// The high 16 bits of each lane's 32-bit product, `(a·b) >> 16`: one
/// `pmulhuw` per 8 lanes on SSE2, `umull`/`umull2` and `uzp2` on NEON.
/// (Written as widen, multiply, shift, narrow on 8-lane halves, the
/// pattern LLVM matches; a lane of `b` that is 0 while the others are not
/// made LLVM fall back to `pmuludq` and shuffles.)
@inlinable @inline(__always)
func mulHigh(_ a: Channels16, _ b: Channels16) -> Channels16 {
    @inline(__always)
    func half(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> SIMD8<UInt16> {
        SIMD8<UInt16>(truncatingIfNeeded: (SIMD8<UInt32>(truncatingIfNeeded: a) &* SIMD8<UInt32>(truncatingIfNeeded: b)) &>> 16)
    }
    return Channels16(lowHalf: half(a.lowHalf, b.lowHalf), highHalf: half(a.highHalf, b.highHalf))
}

/// Each channel of `p` times `f/255` (div255 rounding), where `f` holds one
/// 8-bit factor per pixel in the low byte of its 32-bit lane.
@inlinable @inline(__always)
func scaleChannels(_ p: Pixels8, _ f: Pixels8) -> Pixels8 {
    let factor = lanes16(f | (f &<< 16))
    let rb = div255(lanes16(p & 0x00FF_00FF) &* factor)
    let ag = div255(lanes16((p &>> 8) & 0x00FF_00FF) &* factor)
    return words32(rb) | (words32(ag) &<< 8)
}

/// `scaleChannels` on a 16-pixel chunk, as two 8-pixel halves.
@inlinable @inline(__always)
func scaleChannels(_ p: Pixels16, _ f: Pixels16) -> Pixels16 {
    Pixels16(lowHalf: scaleChannels(p.lowHalf, f.lowHalf), highHalf: scaleChannels(p.highHalf, f.highHalf))
}
