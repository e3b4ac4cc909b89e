import FBRuntime
import FBRuntimeKMS

/// kmsprobe writes its patterns straight into the mapped dumb buffer (once
/// per pattern, row by row: the mapping may be write-combined).
extension DumbBuffer {
    /// Sets every pixel to `color(x, y)` (0x00RRGGBB), row by row.
    func fill(_ color: (Int, Int) -> UInt32) {
        fill(x: 0, y: 0, width: width, height: height, color)
    }

    /// Sets the pixels of one rectangle (clipped to the buffer) to
    /// `color(x, y)`, with x and y relative to the rectangle.
    func fill(x: Int, y: Int, width w: Int, height h: Int, _ color: (Int, Int) -> UInt32) {
        precondition(format == .xrgb8888)
        for row in max(0, y)..<min(height, y + h) {
            let pixels = (self.pixels + row * pitch).assumingMemoryBound(to: UInt32.self)
            for column in max(0, x)..<min(width, x + w) { pixels[column] = color(column - x, row - y) }
        }
    }
}
