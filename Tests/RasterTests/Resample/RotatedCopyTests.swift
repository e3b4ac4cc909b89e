import XCTest
import Raster
import TestSupport

final class RotatedCopyTests: XCTestCase {
    /// A source of random premultiplied pixels (opaque ones when `opaque`,
    /// so an XRGB8888 result is again a valid ARGB source).
    func randomSource(_ width: Int, _ height: Int, seed: UInt64, opaque: Bool = false) -> Surface<ARGB8888> {
        let s = Surface<ARGB8888>(width: width, height: height)!
        var rng = SplitMix64(seed: seed)
        for y in 0..<height { for x in 0..<width {
            let c = rng.premultipliedColor().argb
            s.view[x, y] = opaque ? c | 0xFF00_0000 : c
        } }
        return s
    }

    /// A destination view over a guarded buffer: rows padded by 3 pixels,
    /// the last pixel ending at a PROT_NONE page, everything preset to
    /// `fill` so untouched pixels (padding included) can be checked.
    final class GuardedView<F: PixelFormat> {
        let buffer: GuardedBuffer<F.Storage>
        let view: PixelView<F>
        init(_ width: Int, _ height: Int, fill: F.Storage) {
            let stride = width + 3
            let count = stride * (height - 1) + width
            buffer = GuardedBuffer(count: count)
            buffer.pointer.initialize(repeating: fill, count: count)
            view = PixelView(base: buffer.pointer, width: width, height: height, rowStride: stride)
        }
        var all: [F.Storage] { Array(UnsafeBufferPointer(start: buffer.pointer, count: buffer.count)) }
    }

    /// The tiled path equals the reference, pixel for pixel, padding and
    /// the untouched area included, for sizes around the tile sizes and
    /// rectangles partly or wholly outside the source.
    func testTiledEqualsReference() {
        var rng = SplitMix64(seed: 90)
        let sizes = [(1, 1), (3, 2), (17, 5), (16, 64), (65, 17), (150, 77), (64, 129)]
        for (w, h) in sizes {
            let src = randomSource(w, h, seed: UInt64(w * 1000 + h))
            for turn in QuarterTurn.allCases {
                let (dw, dh) = RotatedCopy.destinationSize(width: w, height: h, turn: turn)
                var rects = [src.view.bounds, IntRect(x: -5, y: -7, width: w + 20, height: h + 9),
                             IntRect(x: w + 1, y: 0, width: 4, height: 4), IntRect(x: 0, y: 0, width: 0, height: 3)]
                for _ in 0..<6 {
                    let x = rng.below(w + 2) - 1, y = rng.below(h + 2) - 1
                    rects.append(IntRect(x: x, y: y, width: rng.below(w + 1), height: rng.below(h + 1)))
                }
                for r in rects {
                    let fast = GuardedView<XRGB8888>(dw, dh, fill: 0x1234_5678)
                    let slow = GuardedView<XRGB8888>(dw, dh, fill: 0x1234_5678)
                    RotatedCopy.copy(src.view, into: fast.view, rect: r, turn: turn, family: .simd)
                    RotatedCopy.copy(src.view, into: slow.view, rect: r, turn: turn, family: .reference)
                    XCTAssertEqual(fast.all, slow.all, "XRGB8888 \(w)x\(h) turn \(turn) rect \(r)")
                    let fast565 = GuardedView<RGB565>(dw, dh, fill: 0xA5A5)
                    let slow565 = GuardedView<RGB565>(dw, dh, fill: 0xA5A5)
                    RotatedCopy.copyDithered(src.view, into: fast565.view, rect: r, turn: turn, family: .simd)
                    RotatedCopy.copyDithered(src.view, into: slow565.view, rect: r, turn: turn, family: .reference)
                    XCTAssertEqual(fast565.all, slow565.all, "RGB565 \(w)x\(h) turn \(turn) rect \(r)")
                }
            }
        }
    }

    /// Turns compose as rotations must: four quarter turns are the
    /// identity, two make a half turn, 90 then 270 undo each other; no
    /// turn is the plain conversion. (Opaque pixels: XRGB8888 is then a
    /// valid ARGB source for the next turn.)
    func testTurnsComposeLikeRotations() {
        for family in [KernelFamily.simd, .reference] {
            let src = randomSource(37, 21, seed: 4, opaque: true)
            func turned(_ s: PixelView<ARGB8888>, _ turn: QuarterTurn) -> Surface<ARGB8888> {
                let (w, h) = RotatedCopy.destinationSize(width: s.width, height: s.height, turn: turn)
                let out = Surface<XRGB8888>(width: w, height: h)!
                RotatedCopy.copy(s, into: out.view, rect: s.bounds, turn: turn, family: family)
                let argb = Surface<ARGB8888>(width: w, height: h)!
                for y in 0..<h { for x in 0..<w { argb.view[x, y] = out.view[x, y] } }
                return argb
            }
            var four = src
            for _ in 0..<4 { four = turned(four.view, .clockwise90) }
            XCTAssertEqual(pixelChecksum(four.view), pixelChecksum(src.view))
            XCTAssertEqual(pixelChecksum(turned(turned(src.view, .clockwise90).view, .clockwise90).view),
                           pixelChecksum(turned(src.view, .clockwise180).view))
            XCTAssertEqual(pixelChecksum(turned(turned(src.view, .clockwise90).view, .clockwise270).view),
                           pixelChecksum(src.view))
            XCTAssertEqual(pixelChecksum(turned(src.view, .none).view), pixelChecksum(src.view))
            let q = turned(src.view, .clockwise90)
            XCTAssertEqual(q.width, 21); XCTAssertEqual(q.height, 37)
            // The source's top-left pixel lands at the destination's top-right.
            XCTAssertEqual(q.view[20, 0], src.view[0, 0])
        }
    }

    /// Dithering follows panel positions: the turned dithered copy equals
    /// dithering the (exactly) turned picture in place.
    func testDitherThresholdsFollowTheDestination() {
        let src = randomSource(29, 18, seed: 7, opaque: true)
        for turn in QuarterTurn.allCases {
            let (w, h) = RotatedCopy.destinationSize(width: 29, height: 18, turn: turn)
            let exact = Surface<XRGB8888>(width: w, height: h)!
            RotatedCopy.copy(src.view, into: exact.view, rect: src.view.bounds, turn: turn)
            let asARGB = Surface<ARGB8888>(width: w, height: h)!
            for y in 0..<h { for x in 0..<w { asARGB.view[x, y] = exact.view[x, y] } }
            let expected = Surface<RGB565>(width: w, height: h)!
            ScanoutConversion.copyDithered(asARGB.view, into: expected.view, rect: asARGB.view.bounds, family: .reference)
            let got = Surface<RGB565>(width: w, height: h)!
            RotatedCopy.copyDithered(src.view, into: got.view, rect: src.view.bounds, turn: turn)
            XCTAssertEqual(pixelChecksum(got.view), pixelChecksum(expected.view), "turn \(turn)")
        }
    }

    /// `destinationRect` is exactly the set of destination pixels a copy of
    /// the rectangle writes (found by looking at which pixels changed).
    func testDestinationRectIsWhatTheCopyWrites() {
        var rng = SplitMix64(seed: 11)
        let src = randomSource(40, 25, seed: 3, opaque: true)
        for turn in QuarterTurn.allCases {
            let (w, h) = RotatedCopy.destinationSize(width: 40, height: 25, turn: turn)
            for _ in 0..<20 {
                let r = IntRect(x: rng.below(39), y: rng.below(24), width: 1 + rng.below(20), height: 1 + rng.below(12))
                    .intersection(src.view.bounds)
                let dest = Surface<XRGB8888>(width: w, height: h)!   // cleared to 0; opaque pixels are never 0
                RotatedCopy.copy(src.view, into: dest.view, rect: r, turn: turn)
                var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min, count = 0
                for y in 0..<h { for x in 0..<w where dest.view[x, y] != 0 {
                    minX = min(minX, x); minY = min(minY, y); maxX = max(maxX, x + 1); maxY = max(maxY, y + 1); count += 1
                } }
                let written = IntRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
                XCTAssertEqual(RotatedCopy.destinationRect(r, turn: turn, destinationWidth: w, destinationHeight: h), written,
                               "turn \(turn) rect \(r)")
                XCTAssertEqual(count, r.width * r.height)
            }
        }
    }

    /// A destination of the wrong size gets only the overlap, never a
    /// write outside it (the guard page would fault).
    func testMismatchedDestinationIsClipped() {
        let src = randomSource(30, 20, seed: 5)
        for turn in QuarterTurn.allCases {
            for (w, h) in [(7, 9), (45, 33), (1, 1)] {
                let a = GuardedView<XRGB8888>(w, h, fill: 7), b = GuardedView<XRGB8888>(w, h, fill: 7)
                RotatedCopy.copy(src.view, into: a.view, rect: src.view.bounds, turn: turn, family: .simd)
                RotatedCopy.copy(src.view, into: b.view, rect: src.view.bounds, turn: turn, family: .reference)
                XCTAssertEqual(a.all, b.all)
            }
        }
    }
}
