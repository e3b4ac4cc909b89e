/// The test patterns kmsprobe shows, as pure functions of the pixel position
/// and the buffer size, returning 0x00RRGGBB. The host compares QEMU's
/// screendumps of them with Tests/Goldens/vm-<name>.png, so any change here
/// needs new goldens (FBR_UPDATE_GOLDENS=1 scripts/vm-test).
enum Pattern: CaseIterable {
    /// Four quadrants — red top left, green top right, blue bottom left,
    /// mid grey bottom right — inside an 8-pixel white border. A swapped
    /// channel, a mirrored axis or a wrong pitch shows at once.
    case quadrants
    /// Eight vertical colour bars (white, yellow, cyan, green, magenta, red,
    /// blue, black) over the top three quarters; below them four ramps from
    /// 0 to 255 across the width, in grey, red, green and blue, so every
    /// level of every channel reaches the screen.
    case bars

    /// The rectangle `damageSquare(x:y:)` paints over `bars` while it is
    /// on screen: 96x64 pixels at the centre.
    static func damageRect(width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        (width / 2 - 48, height / 2 - 32, 96, 64)
    }

    /// A black and white checkerboard of 8-pixel cells, by position inside
    /// `damageRect`.
    static func damageSquare(x: Int, y: Int) -> UInt32 {
        (x / 8 + y / 8) % 2 == 0 ? 0xFF_FFFF : 0x00_0000
    }

    var name: String {
        switch self {
        case .quadrants: return "quadrants"
        case .bars: return "bars"
        }
    }

    func color(x: Int, y: Int, width: Int, height: Int) -> UInt32 {
        switch self {
        case .quadrants:
            let border = 8
            if x < border || y < border || x >= width - border || y >= height - border { return 0xFF_FFFF }
            let right = x >= width / 2, bottom = y >= height / 2
            switch (right, bottom) {
            case (false, false): return 0xFF_0000
            case (true, false): return 0x00_FF00
            case (false, true): return 0x00_00FF
            case (true, true): return 0x80_8080
            }
        case .bars:
            let barsHeight = height * 3 / 4
            if y < barsHeight {
                let bars: [UInt32] = [0xFF_FFFF, 0xFF_FF00, 0x00_FFFF, 0x00_FF00, 0xFF_00FF, 0xFF_0000, 0x00_00FF, 0x00_0000]
                return bars[x * bars.count / width]
            }
            let level = UInt32(x * 256 / width)
            let ramp = (y - barsHeight) * 4 / (height - barsHeight)
            switch ramp {
            case 0: return level << 16 | level << 8 | level
            case 1: return level << 16
            case 2: return level << 8
            default: return level
            }
        }
    }
}
