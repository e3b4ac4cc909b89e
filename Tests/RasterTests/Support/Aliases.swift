import Raster

/// XCTest brings Foundation, which has its own `AffineTransform`.
typealias AffineTransform = Raster.AffineTransform
