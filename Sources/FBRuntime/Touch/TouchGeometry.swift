import Raster

/// Small helpers the recognizers share.
enum TouchGeometry {
    static func distance(_ a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        return FloatMath.squareRoot(dx * dx + dy * dy)
    }

    /// The angle of the vector `a` → `b`, radians, clockwise on a y-down
    /// screen, in [−π, π].
    static func angle(_ a: Point, _ b: Point) -> Double {
        FloatMath.atan2Turns(b.y - a.y, b.x - a.x) * 2 * Double.pi
    }

    /// `angle` − `reference` folded into (−π, π]: the smaller turn.
    static func wrapped(_ angle: Double) -> Double {
        guard angle.isFinite else { return 0 }
        var a = angle
        while a > Double.pi { a -= 2 * Double.pi }
        while a <= -Double.pi { a += 2 * Double.pi }
        return a
    }
}

/// A rate from the recent past: (value change) / (time), over the samples
/// of the last `window` seconds — what a finger's speed is as it lifts,
/// not averaged over the whole gesture. A ring of eight samples, allocated
/// once.
struct RecentRate {
    static let window: MediaTime = 0.1
    private var xs = [Double](repeating: 0, count: 8)
    private var ys = [Double](repeating: 0, count: 8)
    private var timeLanes = [Double](repeating: 0, count: 8)
    private var count = 0
    private var next = 0

    mutating func reset() { count = 0; next = 0 }

    /// A sample at the newest sample's time replaces it: the fingers of
    /// one hardware frame arrive as separate moves with one timestamp, and
    /// only the frame's final state is a sample.
    mutating func add(time: MediaTime, x: Double, y: Double) {
        if count > 0 {
            let newest = (next + 7) & 7
            if timeLanes[newest] == time { xs[newest] = x; ys[newest] = y; return }
        }
        timeLanes[next] = time; xs[next] = x; ys[next] = y
        next = (next + 1) & 7
        count = min(count + 1, 8)
    }

    /// Units per second of x and y; zero with fewer than two samples or
    /// no time between them.
    func rate() -> (x: Double, y: Double) {
        guard count >= 2 else { return (0, 0) }
        let newest = (next + 7) & 7
        let t1 = timeLanes[newest]
        var oldest = newest
        for k in 1..<count {
            let i = (newest - k + 8) & 7
            if t1 - timeLanes[i] > Self.window { break }
            oldest = i
        }
        if oldest == newest { oldest = (newest + 7) & 7 }   // only the newest is recent: use the one before
        let dt = t1 - timeLanes[oldest]
        guard dt > 0, dt.isFinite else { return (0, 0) }
        return ((xs[newest] - xs[oldest]) / dt, (ys[newest] - ys[oldest]) / dt)
    }
}
