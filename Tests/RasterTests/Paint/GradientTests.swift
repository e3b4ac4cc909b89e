import XCTest
import Raster
import TestSupport

final class GradientTests: XCTestCase {
    let red = PremultipliedColor(red8: 230, green: 30, blue: 40)
    let yellow = PremultipliedColor(red8: 250, green: 220, blue: 40)
    let blue = PremultipliedColor(red8: 30, green: 60, blue: 220)
    let clearWhite = PremultipliedColor(red8: 255, green: 255, blue: 255, alpha: 0)

    var stops: [GradientStop] {
        [GradientStop(red, at: 0), GradientStop(yellow, at: 0.4), GradientStop(blue, at: 0.7),
         GradientStop(PremultipliedColor(red8: 30, green: 60, blue: 220, alpha: 60), at: 1)]
    }

    /// Three panels (pad, repeat, reflect) of 96×80 each.
    private func panels(_ make: (GradientSpread) -> GradientPaint) -> Surface<ARGB8888> {
        let (s, canvas) = PaintFixtures.backdrop(width: 3 * 96 + 8, height: 80)
        for (i, spread) in [GradientSpread.pad, .repeat, .reflect].enumerated() {
            var c = canvas
            let panel = IntRect(x: i * 100, y: 0, width: 96, height: 80)
            c.clip(to: panel)
            c.fill(panel, paint: make(spread))
        }
        return s
    }

    func testLinearGolden() {
        let s = panels { spread in
            GradientPaint.linear(x0: 30, y0: 20, x1: 60, y1: 50, stops: self.stops, spread: spread,
                                 transform: .translation(x: spread == .pad ? 0 : (spread == .repeat ? 100 : 200), y: 0))
        }
        PaintFixtures.assertGolden(s, "gradient-linear")
    }

    func testRadialGolden() {
        // Two-point conical with the focal circle off-centre, as Canvas 2D.
        let s = panels { spread in
            let dx = spread == .pad ? 0.0 : (spread == .repeat ? 100 : 200)
            return GradientPaint.radial(x0: 35 + dx, y0: 35, r0: 4, x1: 48 + dx, y1: 40, r1: 24, stops: self.stops, spread: spread)
        }
        PaintFixtures.assertGolden(s, "gradient-radial")
    }

    func testRadialEllipticalGolden() {
        // CAGradientLayer-style ellipse: a circle under a non-uniform scale,
        // rotated; and a cone (start circle outside the end circle).
        let (s, canvas) = PaintFixtures.backdrop(width: 200, height: 80)
        var c = canvas
        c.clip(to: IntRect(x: 0, y: 0, width: 96, height: 80))
        let t = AffineTransform.scale(x: 1.8, y: 0.8).concatenating(.rotation(radians: 0.4)).concatenating(.translation(x: 48, y: 40))
        c.fill(IntRect(x: 0, y: 0, width: 96, height: 80),
               paint: GradientPaint.radial(cx: 0, cy: 0, radius: 22, stops: stops, spread: .reflect, transform: t))
        var d = canvas
        d.clip(to: IntRect(x: 100, y: 0, width: 96, height: 80))
        d.fill(IntRect(x: 100, y: 0, width: 96, height: 80),
               paint: GradientPaint.radial(x0: 115, y0: 40, r0: 5, x1: 150, y1: 40, r1: 20, stops: stops))
        PaintFixtures.assertGolden(s, "gradient-radial-elliptical-cone")
    }

    func testConicGolden() {
        let s = panels { spread in
            let dx = spread == .pad ? 0.0 : (spread == .repeat ? 100 : 200)
            return GradientPaint.conic(cx: 48 + dx, cy: 40, startAngle: FloatMath.pi / 6,
                                       stops: self.stops + [GradientStop(self.red, at: 1)])
        }
        PaintFixtures.assertGolden(s, "gradient-conic")
    }

    // MARK: Oracles

    /// The largest slope of the colour function (levels per unit t), for the
    /// error bound: the table quantises t to the nearest 1/255, which moves
    /// the colour by at most slope · 0.5/255. Measured on the reference
    /// (`colorComponents`) in steps of 1/4096 within each pair of stops:
    /// unpremultiplied mixing makes each piece a quadratic, steepest at an
    /// end, where a step's quotient is within 1/4096 of it.
    private func maxSlope(_ stops: [GradientStop], _ interpolation: GradientInterpolation = .unpremultiplied) -> Double {
        var m = 0.0
        for k in 0..<(stops.count - 1) {
            let l0 = stops[k].location!, l1 = stops[k + 1].location!
            guard l1 > l0 else { continue }
            let steps = 4096
            let h = (l1 - l0) / Double(steps)
            // The pair's own mix, not the neighbours' (shared locations).
            let pair = [GradientStop(stops[k].color, at: 0), GradientStop(stops[k + 1].color, at: 1)].enumerated().map { i, s in
                var s = s; s.straight = stops[k + i].straight; return s
            }
            var previous = GradientPaint.colorComponents(at: 0, stops: pair, interpolation: interpolation)
            for j in 1...steps {
                let c = GradientPaint.colorComponents(at: Double(j) / Double(steps), stops: pair, interpolation: interpolation)
                for (a, b) in [(c.a, previous.a), (c.r, previous.r), (c.g, previous.g), (c.b, previous.b)] { m = max(m, abs(a - b) / h) }
                previous = c
            }
            m *= 1 + 1.0 / 1024    // the steepest point may lie inside a step
        }
        return m
    }

    private func spreadT(_ t: Double, _ spread: GradientSpread) -> Double {
        switch spread {
        case .pad: return min(max(t, 0), 1)
        case .repeat: return t - t.rounded(.down)
        case .reflect:
            let m = t - 2 * (t / 2).rounded(.down)
            return m <= 1 ? m : 2 - m
        }
    }

    /// Linear gradients under random transforms against float geometry and
    /// float interpolation. Bound per channel: 0.5 (the table's rounding)
    /// + slope·0.5/255 (t to the nearest table entry) + 0.05 (8.24 drift
    /// over ≤ 512 pixels and the float t of the test itself). Pixels whose t
    /// lies within 1e-4 of a repeat/reflect seam are skipped.
    func testLinearMatchesFloatOracle() {
        var rng = SplitMix64(seed: 7)
        for trial in 0..<60 {
            let n = 2 + rng.below(4)
            var st: [GradientStop] = []
            for i in 0..<n { st.append(GradientStop(rng.premultipliedColor(), at: Double(i) / Double(n - 1))) }
            let spread: [GradientSpread] = [.pad, .repeat, .reflect]
            let sp = spread[trial % 3]
            let t = AffineTransform.rotation(radians: rng.unit() * 6).concatenating(.scale(x: 0.5 + rng.unit() * 2, y: 0.5 + rng.unit() * 2))
                .concatenating(.translation(x: rng.unit() * 100, y: rng.unit() * 100))
            let x0 = rng.unit() * 200 - 50, y0 = rng.unit() * 200 - 50
            let x1 = x0 + rng.unit() * 160 - 80, y1 = y0 + rng.unit() * 160 - 80
            let g = GradientPaint.linear(x0: x0, y0: y0, x1: x1, y1: y1, stops: st, spread: sp, transform: t)
            let bound = 0.5 + maxSlope(g.stops) * 0.5 / 255 + 0.05
            let inv = t.inverted()!
            for _ in 0..<20 {
                let px = rng.below(400) - 100, py = rng.below(400) - 100, count = 1 + rng.below(300)
                let span = PaintFixtures.span(g, x: px, y: py, count: count, family: .simd)
                for i in stride(from: 0, to: count, by: 7) {
                    let p = inv.apply(x: Double(px + i) + 0.5, y: Double(py) + 0.5)
                    let tRaw = ((p.x - x0) * (x1 - x0) + (p.y - y0) * (y1 - y0)) / ((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0))
                    if sp != .pad && abs(tRaw - tRaw.rounded()) < 1e-4 { continue }
                    let c = GradientPaint.colorComponents(at: spreadT(tRaw, sp), stops: g.stops)
                    let err = PaintFixtures.maxError(span[i], [c.a, c.r, c.g, c.b])
                    XCTAssertLessThanOrEqual(err, bound, "trial \(trial) pixel (\(px + i), \(py)) t=\(tRaw)")
                    if err > bound { return }
                }
            }
        }
    }

    /// Concentric radial and conic gradients against float geometry; bound
    /// as for linear (atan2's 2e-6-turn error and the sqrt's ulp are far
    /// below the table's 1/510).
    func testRadialAndConicMatchFloatOracle() {
        var rng = SplitMix64(seed: 11)
        let st = [GradientStop(red), GradientStop(yellow), GradientStop(blue)]
        for trial in 0..<30 {
            let cx = rng.unit() * 100, cy = rng.unit() * 100, r = 5 + rng.unit() * 80
            let start = rng.unit() * 7 - 1
            let sp: GradientSpread = [.pad, .repeat, .reflect][trial % 3]
            let radial = GradientPaint.radial(cx: cx, cy: cy, radius: r, stops: st, spread: sp)
            let conic = GradientPaint.conic(cx: cx, cy: cy, startAngle: start, stops: st)
            let bound = 0.5 + maxSlope(radial.stops) * 0.5 / 255 + 0.05
            for _ in 0..<10 {
                let px = rng.below(200) - 50, py = rng.below(200) - 50, count = 1 + rng.below(200)
                let rs = PaintFixtures.span(radial, x: px, y: py, count: count, family: .simd)
                let cs = PaintFixtures.span(conic, x: px, y: py, count: count, family: .reference)
                for i in 0..<count {
                    let dx = Double(px + i) + 0.5 - cx, dy = Double(py) + 0.5 - cy
                    let tr = (dx * dx + dy * dy).squareRoot() / r
                    if !(sp != .pad && abs(tr - tr.rounded()) < 1e-4) {
                        let c = GradientPaint.colorComponents(at: spreadT(tr, sp), stops: radial.stops)
                        XCTAssertLessThanOrEqual(PaintFixtures.maxError(rs[i], [c.a, c.r, c.g, c.b]), bound, "radial trial \(trial)")
                    }
                    var tc = (atan2(dy, dx) - start) / (2 * Double.pi)
                    tc -= tc.rounded(.down)
                    if abs(tc - tc.rounded()) < 1e-4 || dx * dx + dy * dy < 1 { continue }
                    let c = GradientPaint.colorComponents(at: tc, stops: conic.stops)
                    XCTAssertLessThanOrEqual(PaintFixtures.maxError(cs[i], [c.a, c.r, c.g, c.b]), bound, "conic trial \(trial) at (\(dx), \(dy))")
                }
            }
        }
    }

    /// Two-point conical against a brute-force float search for the largest
    /// t with |p − c(t)| = r(t), r(t) ≥ 0.
    func testTwoPointConicalMatchesBruteForce() {
        let st = [GradientStop(red), GradientStop(blue)]
        let g = GradientPaint.radial(x0: 30, y0: 30, r0: 6, x1: 60, y1: 40, r1: 30, stops: st, spread: .reflect)
        for y in stride(from: 0, to: 90, by: 9) {
            let span = PaintFixtures.span(g, x: 0, y: y, count: 90, family: .simd)
            for x in stride(from: 0, to: 90, by: 5) {
                let px = Double(x) + 0.5, py = Double(y) + 0.5
                // f(t) = |p − c(t)| − r(t); scan down from a large t for the
                // first sign change while r(t) ≥ 0 (r(−0.25) = 0), then bisect.
                func f(_ t: Double) -> Double {
                    let cx = 30 + 30 * t, cy = 30 + 10 * t, r = 6 + 24 * t
                    return ((px - cx) * (px - cx) + (py - cy) * (py - cy)).squareRoot() - r
                }
                let positiveAtTop = f(20) > 0
                var t = 20.0
                while t > -0.25 && (f(t) > 0) == positiveAtTop { t -= 0.001 }
                var lo = t, hi = t + 0.001
                for _ in 0..<60 {
                    let mid = (lo + hi) / 2
                    if (f(mid) > 0) == positiveAtTop { hi = mid } else { lo = mid }
                }
                let tt = (lo + hi) / 2
                if tt < -0.24 { XCTAssertEqual(span[x], 0, "no circle at (\(x), \(y))"); continue }
                let m = tt - 2 * (tt / 2).rounded(.down)
                let c = GradientPaint.colorComponents(at: m <= 1 ? m : 2 - m, stops: g.stops)
                XCTAssertLessThanOrEqual(PaintFixtures.maxError(span[x], [c.a, c.r, c.g, c.b]), 0.5 + 255 * 0.5 / 255 + 0.2, "(\(x), \(y)) t=\(tt)")
            }
        }
    }

    func testPremultipliedInterpolation() {
        // Opaque red to transparent: the midpoint is half-transparent red,
        // not a darkened or whitened red (straight-alpha interpolation with
        // transparent white would give pink).
        let g = GradientPaint.linear(x0: 0, y0: 0, x1: 255, y1: 0, stops: [GradientStop(.init(red8: 255, green: 0, blue: 0)), GradientStop(clearWhite)])
        g.interpolation = .premultiplied
        let span = PaintFixtures.span(g, x: 127, y: 0, count: 1, family: .simd)
        let a = span[0] >> 24
        XCTAssertEqual((span[0] >> 16) & 0xFF, a)
        XCTAssertEqual(span[0] & 0xFFFF, 0)
        XCTAssertTrue((126...129).contains(a), "alpha \(a)")
    }

    /// Issue 22: the default mixes straight colour and alpha (Core
    /// Graphics, SVG, cairo). White to black at 20 % opacity is mid-grey at
    /// 60 % half-way: 77 premultiplied (128 mixing premultiplied colours,
    /// as before). A stop made from straight channels keeps its colour at
    /// alpha 0 (red to transparent white passes through pink, SVG's
    /// well-known result); one made from a premultiplied colour is
    /// transparent black.
    func testUnpremultipliedInterpolationIsTheDefault() {
        func midpoint(_ stops: [GradientStop], _ interpolation: GradientInterpolation? = nil) -> PremultipliedColor {
            let g = GradientPaint.linear(x0: 0, y0: 0, x1: 254, y1: 0, stops: stops)
            if let interpolation { g.interpolation = interpolation }
            // Pixel 127's centre, 127.5, is t = 0.502 (table entry 128).
            return PremultipliedColor(argb: PaintFixtures.span(g, x: 127, y: 0, count: 1, family: .reference)[0])
        }
        let whiteToDimBlack = [GradientStop(red: 1, green: 1, blue: 1), GradientStop(red: 0, green: 0, blue: 0, alpha: 0.2)]
        var c = midpoint(whiteToDimBlack)
        XCTAssertEqual(Double(c.alpha), 255 * (1 - 0.8 * 128 / 255), accuracy: 1)       // 153
        XCTAssertEqual(Double(c.red), 255 * (127.0 / 255) * (1 - 0.8 * 128 / 255), accuracy: 1)   // 76
        c = midpoint(whiteToDimBlack, .premultiplied)
        XCTAssertEqual(Double(c.red), 127, accuracy: 1)
        // Straight stops keep their colour at alpha 0: pink half-way.
        c = midpoint([GradientStop(red: 1, green: 0, blue: 0), GradientStop(red: 1, green: 1, blue: 1, alpha: 0)])
        XCTAssertEqual(Double(c.alpha), 127, accuracy: 1)
        XCTAssertEqual(Double(c.red), 127, accuracy: 1)
        XCTAssertEqual(Double(c.green), 127 * 127 / 255, accuracy: 1)
        // A premultiplied transparent stop has no colour: red darkens.
        c = midpoint([GradientStop(.init(red8: 255, green: 0, blue: 0)), GradientStop(clearWhite)])
        XCTAssertEqual(Double(c.red), 255 * (127.0 / 255) * (127.0 / 255), accuracy: 1)
        XCTAssertEqual(c.green, 0)
        // Opaque stops: the same table both ways.
        let opaque = GradientPaint.linear(x0: 0, y0: 0, x1: 255, y1: 0, stops: [GradientStop(red), GradientStop(blue), GradientStop(yellow)])
        let before = PaintFixtures.span(opaque, x: 0, y: 0, count: 256, family: .reference)
        opaque.interpolation = .premultiplied
        XCTAssertEqual(PaintFixtures.span(opaque, x: 0, y: 0, count: 256, family: .reference), before)
    }

    // MARK: Stops and bad input

    func testStopRules() {
        // Missing locations are spread evenly, CSS-style.
        let a = GradientPaint.linear(x0: 0, y0: 0, x1: 1, y1: 0, stops: [GradientStop(red), GradientStop(yellow), GradientStop(blue, at: 0.8), GradientStop(red)])
        XCTAssertEqual(a.stops.map { $0.location! }, [0, 0.4, 0.8, 1])
        // Unsorted locations are sorted (stably); NaN counts as missing.
        let b = GradientPaint.linear(x0: 0, y0: 0, x1: 1, y1: 0, stops: [GradientStop(blue, at: 0.9), GradientStop(red, at: 0.1), GradientStop(yellow, at: .nan)])
        XCTAssertEqual(b.stops.map { $0.location! }, [0.1, 0.9, 1])
        XCTAssertEqual(b.stops.map { $0.color }, [red, blue, yellow])
        // Duplicate locations make a hard edge: left of 0.5 is red, right is blue.
        let c = GradientPaint.linear(x0: 0, y0: 0, x1: 100, y1: 0, stops: [GradientStop(red, at: 0), GradientStop(red, at: 0.5), GradientStop(blue, at: 0.5), GradientStop(blue, at: 1)])
        let span = PaintFixtures.span(c, x: 0, y: 0, count: 100, family: .simd)
        XCTAssertEqual(span[48], red.argb); XCTAssertEqual(span[51], blue.argb)
        // Out-of-range locations stay: the 0…1 window of a red→blue ramp from −1 to 2.
        let d = GradientPaint.linear(x0: 0, y0: 0, x1: 1, y1: 0, stops: [GradientStop(red, at: -1), GradientStop(blue, at: 2)])
        let mid = d.tableColor(at: 0.5)
        XCTAssertEqual(Double((mid >> 16) & 0xFF), (230.0 + 30) / 2, accuracy: 1)
    }

    func testBadInputPaintsNothingOrSolid() {
        let nothing: [GradientPaint] = [
            .linear(x0: 0, y0: 0, x1: 10, y1: 0, stops: []),
            .linear(x0: 5, y0: 5, x1: 5, y1: 5, stops: stops),
            .linear(x0: .nan, y0: 0, x1: 10, y1: 0, stops: stops),
            .linear(x0: 0, y0: 0, x1: .infinity, y1: 0, stops: stops),
            .linear(x0: 0, y0: 0, x1: 10, y1: 0, stops: stops, transform: .scale(x: 0, y: 1)),
            .linear(x0: 0, y0: 0, x1: 10, y1: 0, stops: stops, transform: AffineTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0)),
            .radial(x0: 0, y0: 0, r0: 5, x1: 0, y1: 0, r1: 5, stops: stops),
            .radial(x0: 0, y0: 0, r0: -1, x1: 0, y1: 0, r1: 5, stops: stops),
            .radial(cx: 0, cy: 0, radius: .nan, stops: stops),
            .conic(cx: .infinity, cy: 0, startAngle: 0, stops: stops),
            .conic(cx: 0, cy: 0, startAngle: .nan, stops: stops),
        ]
        for (i, g) in nothing.enumerated() {
            XCTAssertFalse(g.isOpaque)
            XCTAssertEqual(PaintFixtures.span(g, x: -3, y: 2, count: 40, family: .simd), [UInt32](repeating: 0, count: 40), "case \(i)")
        }
        let one = GradientPaint.radial(cx: 0, cy: 0, radius: 10, stops: [GradientStop(yellow, at: 0.3)])
        XCTAssertEqual(PaintFixtures.span(one, x: 0, y: 0, count: 20, family: .simd), [UInt32](repeating: yellow.argb, count: 20))
        XCTAssertTrue(one.isOpaque)
        // Huge but finite geometry: no trap, pad gives end colours.
        let steep = GradientPaint.linear(x0: 0, y0: 0, x1: 1e-9, y1: 0, stops: [GradientStop(red), GradientStop(blue)])
        let s = PaintFixtures.span(steep, x: -1_000_000, y: 0, count: 300, family: .simd)
        XCTAssertEqual(s[0], red.argb)
        let far = PaintFixtures.span(steep, x: 1_000_000_000, y: 0, count: 3, family: .simd)
        XCTAssertEqual(far[0], blue.argb)
        let rep = GradientPaint.linear(x0: 0, y0: 0, x1: 1e-9, y1: 0, stops: [GradientStop(red), GradientStop(blue)], spread: .reflect)
        _ = PaintFixtures.span(rep, x: Int.max / 4, y: Int.min / 4, count: 100, family: .simd)
    }

    func testFamiliesAgreeOnCanvas() {
        let paints: [GradientPaint] = [
            .linear(x0: 3, y0: 4, x1: 90, y1: 30, stops: stops, spread: .reflect),
            .radial(x0: 30, y0: 30, r0: 3, x1: 40, y1: 35, r1: 40, stops: stops, spread: .repeat),
            .conic(cx: 50, cy: 20, startAngle: 1, stops: stops),
        ]
        for p in paints {
            let (a, ca) = PaintFixtures.backdrop(width: 133, height: 41, family: .simd)
            let (b, cb) = PaintFixtures.backdrop(width: 133, height: 41, family: .reference)
            ca.fill(IntRect(x: -5, y: 3, width: 200, height: 30), paint: p, alpha: 200)
            cb.fill(IntRect(x: -5, y: 3, width: 200, height: 30), paint: p, alpha: 200)
            XCTAssertEqual(PaintFixtures.checksum(a), PaintFixtures.checksum(b))
        }
    }

    func testPaintMathAgainstLibm() {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<10000 {
            let x = (rng.unit() - 0.5) * 200
            let sc = FloatMath.sinCos(x)
            XCTAssertEqual(sc.sin, sin(x), accuracy: 1e-14); XCTAssertEqual(sc.cos, cos(x), accuracy: 1e-14)
            let y = (rng.unit() - 0.5) * 10, z = (rng.unit() - 0.5) * 10
            XCTAssertEqual(FloatMath.atan2Turns(y, z), atan2(y, z) / (2 * .pi), accuracy: 2e-6)
            let v = rng.unit() * pow(10, Double(rng.below(40) - 20))
            XCTAssertEqual(FloatMath.squareRoot(v), v.squareRoot(), accuracy: v.squareRoot() * 3e-16)
            XCTAssertEqual(FloatMath.floor(x), x.rounded(.down)); XCTAssertEqual(FloatMath.ceil(x), x.rounded(.up))
        }
        XCTAssertEqual(FloatMath.squareRoot(0), 0); XCTAssertTrue(FloatMath.squareRoot(-1).isNaN)
        XCTAssertEqual(FloatMath.squareRoot(5e-324), (5e-324).squareRoot(), accuracy: 1e-170)
    }

    /// A linear gradient whose colour does not depend on y is row-invariant
    /// (a draw shades one row and reuses it): every row, negative ones
    /// included, shades to the same span, for each spread; a tilted one is
    /// not row-invariant. Vertical gradients (one colour per row) match the
    /// per-pixel table lookup.
    func testRowInvariantLinearGradients() {
        var rng = SplitMix64(seed: 31)
        let stops = [GradientStop(PremultipliedColor(red8: 200, green: 30, blue: 90)),
                     GradientStop(PremultipliedColor(red8: 10, green: 220, blue: 40, alpha: 180), at: 0.4),
                     GradientStop(PremultipliedColor(red8: 0, green: 0, blue: 250))]
        for trial in 0..<60 {
            let spread: GradientSpread = [.pad, .repeat, .reflect][trial % 3]
            let t = AffineTransform.scale(x: 0.5 + rng.unit() * 3, y: 0.5 + rng.unit()).concatenating(.translation(x: rng.unit() * 50 - 25, y: rng.unit() * 50))
            let g = GradientPaint.linear(x0: rng.unit() * 40, y0: 7, x1: 60 + rng.unit() * 200, y1: 7, stops: stops, spread: spread, transform: t)
            XCTAssertTrue(g.isRowInvariant)
            let x = rng.below(100) - 50, n = 1 + rng.below(300)
            let first = PaintFixtures.span(g, x: x, y: 0, count: n, family: .simd)
            for y in [-1000, -3, -1, 1, 2, 77, 100_000] {
                XCTAssertEqual(PaintFixtures.span(g, x: x, y: y, count: n, family: trial % 2 == 0 ? .simd : .reference), first, "trial \(trial) row \(y)")
            }
            let vertical = GradientPaint.linear(x0: 3, y0: 0, x1: 3, y1: 80, stops: stops, spread: spread)
            XCTAssertFalse(vertical.isRowInvariant)
            for y in [-5, 0, 13, 40, 79, 120] {
                let span = PaintFixtures.span(vertical, x: x, y: y, count: n, family: .simd)
                XCTAssertEqual(span, [UInt32](repeating: vertical.tableColor(at: (Double(y) + 0.5) / 80), count: n), "vertical, row \(y)")
            }
        }
        XCTAssertFalse(GradientPaint.linear(x0: 0, y0: 0, x1: 10, y1: 3, stops: stops).isRowInvariant)
    }
}
