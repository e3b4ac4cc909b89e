extension Animation {
    /// True when everything the animation drives is a subclass property
    /// (`.custom` keys: a shape's path, a text layer's size): the layer's
    /// common presentation values do not depend on it, so evaluating them
    /// skips it (a morphing path is not interpolated for nothing). A
    /// transition drives nothing and counts as false.
    var drivesOnlyCustomKeys: Bool {
        switch self {
        case let .basic(a): if case .custom = a.key { return true } else { return false }
        case let .keyframe(a): if case .custom = a.key { return a.pathSampler == nil } else { return false }
        case let .spring(a): if case .custom = a.key { return true } else { return false }
        case .transition: return false
        case let .group(g):
            var i = 0
            while i < g.animations.count { if !g.animations[i].drivesOnlyCustomKeys { return false }; i += 1 }
            return !g.animations.isEmpty
        }
    }
}
