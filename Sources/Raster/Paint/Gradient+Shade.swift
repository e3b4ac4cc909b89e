// The per-row loops of `GradientPaint`. Each is generic over the spread rule,
// chosen once per span; the loops use no heap memory.
//
// Gradients have a single loop per shape, shared by both kernel families: the
// cost per pixel is a table lookup (a gather), which a 16-lane loop does not
// speed up in Swift's SIMD types, and one loop cannot disagree with itself.

extension GradientPaint {
    public func shade(x: Int, y: Int, count: Int, into span: UnsafeMutablePointer<UInt32>, family: KernelFamily) {
        guard count > 0 else { return }
        switch shape {
        case .nothing:
            span.update(repeating: 0, count: count)
        case .solid(let c):
            span.update(repeating: c, count: count)
        case let .linear(a, b, c):
            // t at the centre of the first pixel, and its step per pixel.
            let t0 = a * (Double(x) + 0.5) + b * (Double(y) + 0.5) + c
            switch spread {
            case .pad: shadeLinearPad(t0: t0, dt: a, count: count, span)
            case .repeat: shadeLinearPeriodic(RepeatSpread.self, t0: t0, dt: a, count: count, span)
            case .reflect: shadeLinearPeriodic(ReflectSpread.self, t0: t0, dt: a, count: count, span)
            }
        case .radial:
            switch spread {
            case .pad: shadeRadial(PadSpread.self, x: x, y: y, count: count, span)
            case .repeat: shadeRadial(RepeatSpread.self, x: x, y: y, count: count, span)
            case .reflect: shadeRadial(ReflectSpread.self, x: x, y: y, count: count, span)
            }
        case let .conic(inv, cx, cy, start):
            let p = inv.apply(x: Double(x) + 0.5, y: Double(y) + 0.5)
            var i = 0
            while i < count {
                let di = Double(i)
                let dx = p.x + di * inv.a - cx, dy = p.y + di * inv.b - cy
                var t = FloatMath.atan2Turns(dy, dx) - start
                t -= FloatMath.floor(t)
                span[i] = table[GradientPaint.tableIndex(RepeatSpread.fraction(Fixed24(t).raw))]
                i &+= 1
            }
        }
    }

    /// Linear, repeat or reflect: `t` modulo 2 in 8.24, stepped with `&+`,
    /// whose wrap-around at ±128 leaves `t` mod 2 exact.
    @inlinable
    func shadeLinearPeriodic<S: SpreadRule>(_: S.Type, t0: Double, dt: Double, count: Int, _ span: UnsafeMutablePointer<UInt32>) {
        var t = S.reduce(t0)
        let step = S.reduce(dt)
        let lut = table
        // A vertical gradient: one colour per row.
        if step == 0 { span.update(repeating: lut[GradientPaint.tableIndex(S.fraction(t))], count: count); return }
        var i = 0
        while i < count {
            span[i] = lut[GradientPaint.tableIndex(S.fraction(t))]
            t &+= step
            i &+= 1
        }
    }

    /// Linear, pad. Only pixels with `t` in −1…2 go through the 8.24 loop
    /// (so it cannot overflow however steep the gradient); the others are the
    /// end colours, which is also what the loop would give them, so where
    /// the split falls does not change the output.
    @inlinable
    func shadeLinearPad(t0: Double, dt: Double, count: Int, _ span: UnsafeMutablePointer<UInt32>) {
        let lut = table
        let first = lut[0], last = lut[255]
        var lo = 0, hi = count
        if dt == 0 {
            if !(t0 >= -1 && t0 <= 2) {
                span.update(repeating: t0 > 2 ? last : first, count: count)
                return
            }
        } else {
            var a = (-1 - t0) / dt, b = (2 - t0) / dt
            if a > b { swap(&a, &b) }
            lo = clampedIndex(FloatMath.ceil(a), count)
            hi = clampedIndex(FloatMath.floor(b) + 1, count)
            if hi < lo { hi = lo }
        }
        let before = dt > 0 ? first : last, after = dt > 0 ? last : first
        var i = 0
        while i < lo { span[i] = before; i &+= 1 }
        if lo < hi {
            var t = Fixed24(t0 + Double(lo) * dt).raw
            // |dt| ≥ 3 leaves at most one pixel here, so saturation is harmless.
            let step = Fixed24(dt).raw
            if step == 0 {
                // A vertical gradient: one colour per row.
                let c = lut[GradientPaint.tableIndex(PadSpread.fraction(t))]
                (span + i).update(repeating: c, count: hi &- i)
                i = hi
            }
            while i < hi {
                span[i] = lut[GradientPaint.tableIndex(PadSpread.fraction(t))]
                t &+= step
                i &+= 1
            }
        }
        while i < count { span[i] = after; i &+= 1 }
    }

    @inlinable
    func clampedIndex(_ v: Double, _ count: Int) -> Int {
        if !(v > 0) { return 0 }
        if v >= Double(count) { return count }
        return Int(v)
    }

    /// Two-point conical: per pixel, solve `a·t² − 2b·t + c = 0` for the
    /// largest t with a non-negative radius (see `radial(x0:…)`).
    @inlinable
    func shadeRadial<S: SpreadRule>(_: S.Type, x: Int, y: Int, count: Int, _ span: UnsafeMutablePointer<UInt32>) {
        guard case let .radial(inv, c0x, c0y, r0, cdx, cdy, dr, qa) = shape else { return }
        let p = inv.apply(x: Double(x) + 0.5, y: Double(y) + 0.5)
        let lut = table
        let r0sq = r0 * r0
        var i = 0
        while i < count {
            let di = Double(i)
            let px = p.x + di * inv.a - c0x, py = p.y + di * inv.b - c0y
            let b = px * cdx + py * cdy + r0 * dr
            let c = px * px + py * py - r0sq
            var t = 0.0
            var ok = true
            if qa == 0 {
                if b == 0 { ok = false } else {
                    t = c / (2 * b)
                    ok = r0 + t * dr >= 0
                }
            } else {
                let disc = b * b - qa * c
                if disc >= 0 {
                    let s = FloatMath.squareRoot(disc)
                    let t1 = (b + s) / qa, t2 = (b - s) / qa
                    let hiT = t1 > t2 ? t1 : t2, loT = t1 > t2 ? t2 : t1
                    if r0 + hiT * dr >= 0 { t = hiT } else if r0 + loT * dr >= 0 { t = loT } else { ok = false }
                } else {
                    ok = false
                }
            }
            span[i] = ok ? lut[GradientPaint.tableIndex(S.fraction(S.reduce(t)))] : 0
            i &+= 1
        }
    }
}
