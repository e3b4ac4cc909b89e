/// Which points a fill covers, from the winding number `w` of the path
/// around the point (the sum of +1 for each crossing edge going down and −1
/// for each going up).
public enum FillRule: Sendable {
    /// Inside where `w ≠ 0`.
    case nonZero
    /// Inside where `w` is odd.
    case evenOdd
}
