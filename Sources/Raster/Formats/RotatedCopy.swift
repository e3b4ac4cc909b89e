/// A clockwise quarter turn of the picture on its way to scan-out (software
/// display rotation). With `.clockwise90` the source's top edge lands along
/// the destination's right edge.
public enum QuarterTurn: Int, Equatable, Sendable, CaseIterable {
    case none = 0
    case clockwise90 = 90
    case clockwise180 = 180
    case clockwise270 = 270

    /// True for 90 and 270: the destination is the source's height wide.
    @inlinable public var swapsAxes: Bool { self == .clockwise90 || self == .clockwise270 }

    /// The turn that undoes this one.
    @inlinable public var inverse: QuarterTurn {
        switch self {
        case .none: .none
        case .clockwise90: .clockwise270
        case .clockwise180: .clockwise180
        case .clockwise270: .clockwise90
        }
    }
}

/// Copies a rectangle of a premultiplied ARGB frame into a scan-out buffer
/// turned by a quarter turn, converting the pixels on the way (to XRGB8888,
/// or to RGB565 with the ordered dither of `Dither565`).
///
/// Coordinates: the source is `S` (`sw` × `sh` pixels, the UI as rendered),
/// the destination `D` (the panel, `sh` × `sw` for 90/270, else `sw` × `sh`).
/// A source pixel (u, v) goes to
///
///     none: (u, v)     90: (W−1−v, u)     180: (W−1−u, H−1−v)     270: (v, H−1−u)
///
/// where W × H is the destination's size (pixel centres under
/// `DisplayOrientation.uiToPanel` in FBRuntime). Dither thresholds follow
/// destination positions, so the pattern stays fixed on the panel.
///
/// Bad geometry never traps: the rectangle is clipped to the source, and to
/// what lands inside the destination (a destination of another size than
/// the turned source only receives the overlap).
///
/// Two implementations that must agree exactly: `family: .reference`, a
/// pixel at a time; `.simd`, tiled. The tiled path writes destination rows
/// in order (scan-out memory is often write-combined, so writes should be
/// sequential) and reads the source down columns in tiles of
/// `tileRows` source rows × 16 source columns, so each 64-byte source line
/// is read from memory once per tile; a tile's column is gathered into a
/// stack span and converted by the same row kernels as the unrotated copy.
public enum RotatedCopy {
    /// Source rows per tile: the gathered span's length (a 256-byte stack
    /// temporary) and the number of source lines a tile keeps in L1 (4 KiB).
    public static let tileRows = 64
    /// Source columns per tile: one 64-byte line of ARGB pixels.
    public static let tileColumns = 16

    /// The destination size for a source of `width` × `height`.
    @inlinable
    public static func destinationSize(width: Int, height: Int, turn: QuarterTurn) -> (width: Int, height: Int) {
        turn.swapsAxes ? (height, width) : (width, height)
    }

    /// Where `rect` (source pixels) lands in a destination of
    /// `destinationWidth` × `destinationHeight` (the turned source's size):
    /// the damage rectangle in panel coordinates. Not clipped.
    @inlinable
    public static func destinationRect(_ rect: IntRect, turn: QuarterTurn,
                                       destinationWidth w: Int, destinationHeight h: Int) -> IntRect {
        switch turn {
        case .none: rect
        case .clockwise90: IntRect(x: w - rect.maxY, y: rect.x, width: rect.height, height: rect.width)
        case .clockwise180: IntRect(x: w - rect.maxX, y: h - rect.maxY, width: rect.width, height: rect.height)
        case .clockwise270: IntRect(x: rect.y, y: h - rect.maxX, width: rect.height, height: rect.width)
        }
    }

    /// `rect` clipped to the source and to what lands inside `dest`.
    @inlinable
    static func clipped<D: PixelFormat>(_ rect: IntRect, _ source: PixelView<ARGB8888>, _ dest: PixelView<D>,
                                        _ turn: QuarterTurn) -> IntRect {
        let r = rect.intersection(source.bounds)
        let d = destinationRect(r, turn: turn, destinationWidth: dest.width, destinationHeight: dest.height)
            .intersection(dest.bounds)
        // Back into the source through the inverse turn, in a source-sized
        // frame (the destination size seen from the other side).
        return destinationRect(d, turn: turn.inverse, destinationWidth: turn.swapsAxes ? dest.height : dest.width,
                               destinationHeight: turn.swapsAxes ? dest.width : dest.height).intersection(r)
    }

    /// `rect` of `source`, turned, into `dest` as XRGB8888.
    public static func copy(_ source: PixelView<ARGB8888>, into dest: PixelView<XRGB8888>, rect: IntRect,
                            turn: QuarterTurn, family: KernelFamily = .simd) {
        if turn == .none { ScanoutConversion.copy(source, into: dest, rect: rect, family: family); return }
        let r = clipped(rect, source, dest, turn)
        guard !r.isEmpty else { return }
        switch family {
        case .reference:
            reference(source, dest, r, turn) { s, _, _ in XRGB8888.fromPremultipliedARGB(s) }
        case .simd:
            tiled(source, dest, r, turn) { d, s, n, _, _ in SIMDKernels.toXRGB8888(d, s, n) }
        }
    }

    /// `rect` of `source`, turned, into `dest` as RGB565, dithered
    /// (`Dither565`, thresholds at destination positions).
    public static func copyDithered(_ source: PixelView<ARGB8888>, into dest: PixelView<RGB565>, rect: IntRect,
                                    turn: QuarterTurn, family: KernelFamily = .simd) {
        if turn == .none { ScanoutConversion.copyDithered(source, into: dest, rect: rect, family: family); return }
        let r = clipped(rect, source, dest, turn)
        guard !r.isEmpty else { return }
        switch family {
        case .reference:
            reference(source, dest, r, turn) { s, x, y in Dither565.pixel(s, x: x, y: y) }
        case .simd:
            tiled(source, dest, r, turn) { d, s, n, x, y in Dither565.row(d, s, n, x: x, y: y) }
        }
    }

    /// One pixel at a time, straight from the mapping in the type's
    /// comment. `r` is clipped already.
    @inlinable
    static func reference<D: PixelFormat>(_ source: PixelView<ARGB8888>, _ dest: PixelView<D>, _ r: IntRect,
                                          _ turn: QuarterTurn, _ convert: (UInt32, Int, Int) -> D.Storage) {
        let w = dest.width, h = dest.height
        var v = r.y
        while v < r.maxY {
            var u = r.x
            while u < r.maxX {
                let x: Int, y: Int
                switch turn {
                case .none: x = u; y = v
                case .clockwise90: x = w - 1 - v; y = u
                case .clockwise180: x = w - 1 - u; y = h - 1 - v
                case .clockwise270: x = v; y = h - 1 - u
                }
                dest.row(y)[x] = convert(source.row(v)[u], x, y)
                u &+= 1
            }
            v &+= 1
        }
    }

    /// Tiled: for each destination row, gather the source pixels that land
    /// on it (a reversed source row for 180; a source column, a tile at a
    /// time, for 90/270) into a stack span in destination order, then run
    /// the row kernel `convert(destination, span, count, x, y)` on it.
    /// - Complexity: O(area); no heap allocation.
    @inlinable
    static func tiled<D: PixelFormat>(_ source: PixelView<ARGB8888>, _ dest: PixelView<D>, _ r: IntRect,
                                      _ turn: QuarterTurn,
                                      _ convert: (UnsafeMutablePointer<D.Storage>, UnsafePointer<UInt32>, Int, Int, Int) -> Void) {
        let w = dest.width, h = dest.height
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: tileRows) { buffer in
            let span = buffer.baseAddress!
            if turn == .clockwise180 {
                // Destination row H−1−v holds source row v backwards.
                var v = r.y
                while v < r.maxY {
                    let row = UnsafePointer(source.row(v))
                    let y = h - 1 - v
                    var u1 = r.maxX   // pieces from the right end: destination left to right
                    while u1 > r.x {
                        let n = Swift.min(tileRows, u1 - r.x)
                        var i = 0
                        while i < n { span[i] = row[u1 - 1 - i]; i &+= 1 }
                        let x = w - u1
                        convert(dest.row(y) + x, UnsafePointer(span), n, x, y)
                        u1 -= n
                    }
                    v &+= 1
                }
                return
            }
            // 90: destination row u holds source column u, rows descending
            //     (x = W−1−v); 270: destination row H−1−u holds it ascending
            //     (x = v).
            let clockwise = turn == .clockwise90
            var v0 = r.y
            while v0 < r.maxY {
                let rows = Swift.min(tileRows, r.maxY - v0)
                var u0 = r.x
                while u0 < r.maxX {
                    let columns = Swift.min(tileColumns, r.maxX - u0)
                    var u = u0
                    while u < u0 + columns {
                        var i = 0
                        if clockwise {
                            var p = UnsafePointer(source.row(v0 + rows - 1) + u)
                            while i < rows { span[i] = p.pointee; p -= source.rowStride; i &+= 1 }
                            let x = w - v0 - rows
                            convert(dest.row(u) + x, UnsafePointer(span), rows, x, u)
                        } else {
                            var p = UnsafePointer(source.row(v0) + u)
                            while i < rows { span[i] = p.pointee; p += source.rowStride; i &+= 1 }
                            let y = h - 1 - u
                            convert(dest.row(y) + v0, UnsafePointer(span), rows, v0, y)
                        }
                        u &+= 1
                    }
                    u0 += columns
                }
                v0 += rows
            }
        }
    }
}
