import Raster

/// A 64-bit digest of everything that decides the pixels of one layer (or
/// of a subtree drawn as one image): the change detector behind damage
/// tracking and the `shouldRasterize` cache. Two equal signatures are taken
/// to mean equal pixels; a collision (about 2⁻⁶⁴ per comparison) would
/// leave a stale area until its next change.
///
/// Doubles are hashed by bit pattern, so 0 and −0 (or two NaNs) may differ:
/// that costs a redraw, never a missed one.
struct LayerSignature {
    private(set) var value: UInt64 = 0x243F_6A88_85A3_08D3

    @inline(__always) mutating func combine(_ v: UInt64) {
        // A multiply–xorshift step (as in splitmix64's finaliser): every
        // input bit reaches every output bit.
        var x = (value ^ v) &* 0x9E37_79B9_7F4A_7C15
        x ^= x &>> 31
        x = x &* 0xBF58_476D_1CE4_E5B9
        value = x ^ (x &>> 29)
    }
    @inline(__always) mutating func combine(_ v: Double) { combine(v.bitPattern) }
    @inline(__always) mutating func combine(_ v: Int) { combine(UInt64(bitPattern: Int64(v))) }
    @inline(__always) mutating func combine(_ v: Bool) { combine(v ? 1 as UInt64 : 2) }

    mutating func combine(_ r: Rect) { combine(r.minX); combine(r.minY); combine(r.width); combine(r.height) }
    mutating func combine(_ r: IntRect) { combine(r.x); combine(r.y); combine(r.width); combine(r.height) }
    mutating func combine(_ c: Color) { combine(c.red); combine(c.green); combine(c.blue); combine(c.alpha) }
    mutating func combine(_ m: ProjectiveTransform) {
        combine(m.m00); combine(m.m01); combine(m.m02)
        combine(m.m10); combine(m.m11); combine(m.m12)
        combine(m.m20); combine(m.m21); combine(m.m22)
    }
    mutating func combine(_ path: Path?) {
        guard let path else { combine(0 as UInt64); return }
        combine(path.verbs.count)
        for verb in path.verbs { combine(UInt64(verb.rawValue)) }
        for p in path.points { combine(p.x); combine(p.y) }
    }

    /// The values that decide how `r` draws its own parts (background,
    /// contents, border, shadow) and how its image is combined: the map to
    /// the target, presentation values, the non-animatable properties and
    /// the opacity inherited from superlayers that do not group.
    /// With `imageOnly`, only what the layer image shows (the rasterize
    /// cache's key): not opacity, shadow, operator or mask, which apply
    /// when the image is composited.
    ///
    /// With `trims` false, a trim the layer can damage in part is left out
    /// (`Layer.combineTrimSignature`): the survey adds it last.
    mutating func combine(_ r: Compositor.ResolvedLayer, inheritedOpacity: Double, imageOnly: Bool = false, trims: Bool = true) {
        let p = r.p, l = r.layer
        combine(r.toTarget)
        combine(r.bounds)
        combine(p.geometry.isGeometryFlipped); combine(r.sublayersFlipped)
        combine(p.geometry.zPosition)
        if !imageOnly { combine(inheritedOpacity); combine(p.opacity) }
        if let c = p.backgroundColor { combine(c) } else { combine(3 as UInt64) }
        combine(p.cornerRadius); combine(Int(l.maskedCorners?.rawValue ?? 0xFF))
        combine(l.masksToBounds)
        combine(p.borderWidth); combine(p.borderColor)
        combine(l.contents?.serial ?? 0)
        combine(l.contentsGravity.signatureCode); combine(l.minificationFilter.signatureCode)
        combine(l.minificationFilterBias)
        combine(l.magnificationFilter.signatureCode)
        combine(p.contentsRect); combine(p.contentsCenter); combine(l.contentsScale)
        combine(l.isOpaque)
        combine(l.allowsEdgeAntialiasing); combine(Int(l.edgeAntialiasingMask.rawValue))
        if l.drawsOwnContent || l.isTransformLayer || l.replicator != nil {
            l.combineContentSignature(into: &self, at: r.localTime)
            if trims { l.combineTrimSignature(into: &self, at: r.localTime) }
        }
        guard !imageOnly else { return }
        combine(l.backgroundBlurRadius)
        if !l.filters.isEmpty { combine(filtersOf: l, at: r.localTime) } else { combine(7 as UInt64) }
        combine(p.shadowColor); combine(p.shadowOpacity); combine(p.shadowRadius)
        combine(p.shadowOffset.width); combine(p.shadowOffset.height)
        combine(p.shadowPath)
        combine(l.isDoubleSided); combine(l.allowsGroupOpacity)
        combine(Int(l.compositingOperator.rawValue))
        combine(l.mask != nil)
        combine(l.shouldRasterize); combine(l.rasterizationScale)
    }
}

extension ContentsGravity {
    var signatureCode: Int {
        switch self {
        case .center: return 0
        case .top: return 1
        case .bottom: return 2
        case .left: return 3
        case .right: return 4
        case .topLeft: return 5
        case .topRight: return 6
        case .bottomLeft: return 7
        case .bottomRight: return 8
        case .resize: return 9
        case .resizeAspect: return 10
        case .resizeAspectFill: return 11
        case .tile: return 12
        }
    }
}

extension ContentsFilter {
    var signatureCode: Int {
        switch self {
        case .nearest: return 0
        case .linear: return 1
        case .trilinear: return 2
        }
    }
}

extension LayerSignature {
    /// Folds an animatable value (a custom property's presentation value).
    mutating func combine(_ v: AnimatableValue?) {
        guard let v else { combine(6 as UInt64); return }
        switch v {
        case let .scalar(x): combine(10 as UInt64); combine(x)
        case let .point(p): combine(11 as UInt64); combine(p.x); combine(p.y)
        case let .rect(r): combine(12 as UInt64); combine(r)
        case let .color(c): combine(13 as UInt64); combine(c)
        case let .transform(t):
            combine(14 as UInt64)
            // Element by element, not through an array literal (allocated per call in debug builds).
            combine(t.m11); combine(t.m12); combine(t.m13); combine(t.m14)
            combine(t.m21); combine(t.m22); combine(t.m23); combine(t.m24)
            combine(t.m31); combine(t.m32); combine(t.m33); combine(t.m34)
            combine(t.m41); combine(t.m42); combine(t.m43); combine(t.m44)
        case let .path(p): combine(15 as UInt64); combine(p)
        case let .colors(list):
            combine(16 as UInt64); combine(list.count)
            var i = 0
            while i < list.count { combine(list[i]); i += 1 }         // index loops: no iterator (debug builds)
        case let .scalars(list):
            combine(17 as UInt64); combine(list.count)
            var i = 0
            while i < list.count { combine(list[i]); i += 1 }
        }
    }

    /// Folds the presentation values of a layer's custom properties `names`
    /// at its local time `t`.
    mutating func combine(customKeys names: [String], of layer: Layer, at t: MediaTime) {
        var i = 0
        while i < names.count { combine(layer.customPresentationValue(forKey: names[i], atLocalTime: t)); i += 1 }
    }
}
