import Raster

/// What the KMS presenter counted, readable after the render loop stops
/// (or on the render thread).
public struct KMSPresenterStatistics: Equatable, Sendable {
    /// Modesets (the first frame, and each regain of the display).
    public var modesets = 0
    /// Page flips queued.
    public var flips = 0
    /// Flips whose commit carried FB_DAMAGE_CLIPS (atomic, where the plane
    /// has the property).
    public var damageClipCommits = 0
    /// The rectangles those commits named, and their pixels (each clip's
    /// area, overlaps counted per clip), in framebuffer pixels.
    public var damageClipRects = 0
    public var damageClipPixels = 0
    /// The bounding box of the last flip's clips; `.zero` when that flip
    /// carried none (no property, empty damage, or a modeset).
    public var lastDamageClipBounds = IntRect.zero
    /// Commits refused for want of DRM master (EACCES/EPERM).
    public var masterLosses = 0
    /// drmSetMaster attempts that failed while master was lost.
    public var failedMasterAttempts = 0
    /// Times the display was taken back (master regained, modeset done
    /// with the whole frame).
    public var regains = 0
    /// VT switches away and back (VTSwitcher).
    public var vtReleases = 0
    public var vtAcquires = 0
    /// Times the connector was found disconnected, and connected again
    /// (hotplug events, or a failed commit followed by a probe).
    public var disconnections = 0
    public var reconnections = 0
    /// Reconnections after which the presenter followed another mode (new
    /// buffers of its size; `KMSOutput.modeOnReconnection`).
    public var modeChanges = 0
    /// Commits that failed with an error other than EBUSY and EACCES/EPERM
    /// (the presenter retries them as modesets with back-off).
    public var failedCommits = 0
    /// Recoveries: a modeset with the whole frame that succeeded after a
    /// reconnection or failed commits.
    public var recoveries = 0
    /// DRM hotplug events seen (each followed by a probe of the connector).
    public var hotplugEvents = 0
    /// Connector changes found by reading its state between frames
    /// (`KMSPresenter.connectorPollNanoseconds`) with no hotplug event.
    public var connectorPollChanges = 0
    /// Times the display was powered off and on (`setDisplayPower`).
    public var displayPowerOffs = 0
    public var displayPowerOns = 0

    public init() {}
}
