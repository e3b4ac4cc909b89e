import CDRM
import CPosix
import FBRuntime

/// Atomic modesetting (wlroots `backend/drm/atomic.c`, kmscube
/// `drm-atomic.c`): each frame is one request that sets the primary plane's
/// framebuffer, with a page-flip event and, where the plane has it,
/// FB_DAMAGE_CLIPS naming the pixels that changed.
///
/// Made for one output: it turns on the universal-planes and atomic client
/// capabilities, finds the CRTC's primary plane, looks up the property IDs
/// it needs by name (CRTC: ACTIVE, MODE_ID; connector: CRTC_ID; plane:
/// FB_ID, CRTC_ID, SRC_X/Y/W/H in 16.16 fixed point, CRTC_X/Y/W/H in
/// pixels, and FB_DAMAGE_CLIPS when present) and makes a blob of the mode.
/// The first frame (and the first after regaining DRM master) is a full
/// modeset: checked with TEST_ONLY first, then committed blocking with
/// ALLOW_MODESET. Later frames are `PAGE_FLIP_EVENT | NONBLOCK` commits of
/// the plane alone.
///
/// The request is built in fixed storage and the ioctl issued directly
/// (libdrm's drmModeAtomicCommit allocates per call); the damage blob is
/// created before and destroyed right after each commit (the kernel keeps
/// its own reference for the commit). A property that does not fit the
/// storage is recorded as the request's first error and reported once, at
/// commit.
///
/// Restoring the console is left to `KMSOutput.restore()` (legacy
/// SetCrtc, which the kernel accepts from atomic clients).
///
/// Threading: one thread (the render thread).
public final class AtomicKMSCommitter: KMSCommitter {
    public var apiName: String { "atomic" }
    public let device: DRMDevice
    /// The primary plane that scans out our framebuffers.
    public let planeID: UInt32
    /// True when the plane has FB_DAMAGE_CLIPS.
    public var supportsDamageClips: Bool { props.planeDamageClips != 0 }

    private struct PropertyIDs {
        var crtcActive: UInt32 = 0, crtcModeID: UInt32 = 0
        var connectorCrtcID: UInt32 = 0
        var planeFBID: UInt32 = 0, planeCrtcID: UInt32 = 0
        var srcX: UInt32 = 0, srcY: UInt32 = 0, srcW: UInt32 = 0, srcH: UInt32 = 0
        var crtcX: UInt32 = 0, crtcY: UInt32 = 0, crtcW: UInt32 = 0, crtcH: UInt32 = 0
        var planeDamageClips: UInt32 = 0
    }
    private let props: PropertyIDs
    /// The mode blob of the CRTC's MODE_ID and the mode it holds: made
    /// again when the output's mode changed (a connector back with
    /// another, `KMSPresenter`).
    private var modeBlobID: UInt32
    private var blobMode: drmModeModeInfo
    private let request: AtomicRequest

    /// - Throws: `.unsupported` where the driver refuses atomic or the CRTC
    ///   has no primary plane with the properties above.
    public init(output: KMSOutput) throws(KMSError) {
        let device = output.device
        let fd = device.fd
        guard device.enableAtomic() else {
            throw KMSError(.unsupported, "\(device.path) (\(device.driverName)) refuses DRM_CLIENT_CAP_ATOMIC")
        }
        guard let plane = AtomicKMSCommitter.primaryPlane(fd: fd, crtcID: output.crtcID, crtcIndex: output.crtcIndex) else {
            throw KMSError(.unsupported, "CRTC \(output.crtcID) on \(device.path) has no primary plane")
        }
        let crtcProps = AtomicKMSCommitter.properties(fd: fd, object: output.crtcID, type: fbr_drm_mode_object_crtc())
        let connectorProps = AtomicKMSCommitter.properties(fd: fd, object: output.connectorID, type: fbr_drm_mode_object_connector())
        let planeProps = AtomicKMSCommitter.properties(fd: fd, object: plane, type: fbr_drm_mode_object_plane())
        var ids = PropertyIDs()
        var missing: [String] = []
        func find(_ list: [(name: String, id: UInt32, value: UInt64)], _ name: String, required: Bool = true) -> UInt32 {
            if let p = list.first(where: { $0.name == name }) { return p.id }
            if required { missing.append(name) }
            return 0
        }
        ids.crtcActive = find(crtcProps, "ACTIVE")
        ids.crtcModeID = find(crtcProps, "MODE_ID")
        ids.connectorCrtcID = find(connectorProps, "CRTC_ID")
        ids.planeFBID = find(planeProps, "FB_ID")
        ids.planeCrtcID = find(planeProps, "CRTC_ID")
        ids.srcX = find(planeProps, "SRC_X"); ids.srcY = find(planeProps, "SRC_Y")
        ids.srcW = find(planeProps, "SRC_W"); ids.srcH = find(planeProps, "SRC_H")
        ids.crtcX = find(planeProps, "CRTC_X"); ids.crtcY = find(planeProps, "CRTC_Y")
        ids.crtcW = find(planeProps, "CRTC_W"); ids.crtcH = find(planeProps, "CRTC_H")
        ids.planeDamageClips = find(planeProps, "FB_DAMAGE_CLIPS", required: false)
        guard missing.isEmpty else {
            throw KMSError(.unsupported, "atomic: missing properties \(missing.joined(separator: ", ")) on \(device.path)")
        }
        self.device = device
        self.planeID = plane
        self.props = ids
        self.modeBlobID = try AtomicKMSCommitter.makeModeBlob(fd: fd, output.mode)
        self.blobMode = output.mode
        self.request = AtomicRequest()
    }

    private static func makeModeBlob(fd: Int32, _ mode: drmModeModeInfo) throws(KMSError) -> UInt32 {
        var mode = mode
        var blob: UInt32 = 0
        let r = drmModeCreatePropertyBlob(fd, &mode, MemoryLayout<drmModeModeInfo>.size, &blob)
        if drmErrno(r) != 0 { throw KMSError.call("atomic: creating the mode blob", errno: drmErrno(r)) }
        return blob
    }

    deinit { _ = drmModeDestroyPropertyBlob(device.fd, modeBlobID) }

    /// Checks the full state with TEST_ONLY, then commits it with
    /// ALLOW_MODESET (blocking, no event): connector → CRTC, the CRTC
    /// active with our mode, the primary plane showing `framebufferID`
    /// unscaled over the whole mode.
    public func modeset(_ output: KMSOutput, framebufferID: UInt32) throws(KMSError) {
        if !KMSOutput.sameTimings(output.mode, blobMode) {
            let blob = try AtomicKMSCommitter.makeModeBlob(fd: device.fd, output.mode)
            _ = drmModeDestroyPropertyBlob(device.fd, modeBlobID)
            modeBlobID = blob
            blobMode = output.mode
        }
        let w = UInt64(output.width), h = UInt64(output.height)
        request.reset()
        request.add(output.connectorID, props.connectorCrtcID, UInt64(output.crtcID))
        request.add(output.crtcID, props.crtcActive, 1)
        request.add(output.crtcID, props.crtcModeID, UInt64(modeBlobID))
        request.add(planeID, props.planeFBID, UInt64(framebufferID))
        request.add(planeID, props.planeCrtcID, UInt64(output.crtcID))
        request.add(planeID, props.srcX, 0)
        request.add(planeID, props.srcY, 0)
        request.add(planeID, props.srcW, w << 16)   // 16.16 fixed point
        request.add(planeID, props.srcH, h << 16)
        request.add(planeID, props.crtcX, 0)
        request.add(planeID, props.crtcY, 0)
        request.add(planeID, props.crtcW, w)
        request.add(planeID, props.crtcH, h)
        let allow = fbr_drm_mode_atomic_allow_modeset()
        try request.commit(fd: device.fd, flags: allow | fbr_drm_mode_atomic_test_only(), userData: nil,
                           what: "atomic TEST_ONLY modeset of CRTC \(output.crtcID) (\(output.connectorName), \(output.modeDescription))")
        try request.commit(fd: device.fd, flags: allow, userData: nil,
                           what: "atomic modeset of CRTC \(output.crtcID) (\(output.connectorName), \(output.modeDescription))")
    }

    public func pageFlip(_ output: KMSOutput, framebufferID: UInt32, userData: UnsafeMutableRawPointer?) throws(KMSError) {
        request.reset()
        request.add(planeID, props.planeFBID, UInt64(framebufferID))
        try request.commit(fd: device.fd, flags: fbr_drm_mode_page_flip_event() | fbr_drm_mode_atomic_nonblock(),
                           userData: userData, what: "atomic flip to framebuffer \(framebufferID)")
    }

    /// The flip with FB_DAMAGE_CLIPS (a blob made for this commit and
    /// destroyed after it) when the plane has the property and `damage`
    /// is not empty.
    public func pageFlip(_ output: KMSOutput, framebufferID: UInt32, damage: DamageClips,
                         userData: UnsafeMutableRawPointer?) throws(KMSError) -> Bool {
        var blob: UInt32 = 0
        if supportsDamageClips && !damage.isEmpty {
            let rects = damage.kernelRects
            let r = drmModeCreatePropertyBlob(device.fd, rects.baseAddress, rects.count * MemoryLayout<drm_mode_rect>.stride, &blob)
            if drmErrno(r) != 0 { blob = 0 }   // flip without clips: the driver then updates the whole plane
        }
        defer { if blob != 0 { _ = drmModeDestroyPropertyBlob(device.fd, blob) } }
        request.reset()
        request.add(planeID, props.planeFBID, UInt64(framebufferID))
        if blob != 0 { request.add(planeID, props.planeDamageClips, UInt64(blob)) }
        try request.commit(fd: device.fd, flags: fbr_drm_mode_page_flip_event() | fbr_drm_mode_atomic_nonblock(),
                           userData: userData, what: "atomic flip to framebuffer \(framebufferID)")
        return blob != 0
    }

    /// Off: one blocking ALLOW_MODESET commit of the CRTC's ACTIVE = 0
    /// (the mode, the plane and its framebuffer stay in the state, as
    /// DPMS off does). On: nothing here; the presenter's next `modeset`
    /// sets ACTIVE = 1 with the frame.
    public func setDisplayActive(_ output: KMSOutput, _ active: Bool) throws(KMSError) {
        guard !active else { return }
        request.reset()
        request.add(output.crtcID, props.crtcActive, 0)
        try request.commit(fd: device.fd, flags: fbr_drm_mode_atomic_allow_modeset(), userData: nil,
                           what: "atomic ACTIVE = 0 of CRTC \(output.crtcID)")
    }

    // MARK: Discovery (once, at init)

    /// The properties of a KMS object: name, ID and current value.
    static func properties(fd: Int32, object: UInt32, type: UInt32) -> [(name: String, id: UInt32, value: UInt64)] {
        guard let list = drmModeObjectGetProperties(fd, object, type) else { return [] }
        defer { drmModeFreeObjectProperties(list) }
        var result: [(name: String, id: UInt32, value: UInt64)] = []
        for i in 0..<Int(list.pointee.count_props) {
            guard let p = drmModeGetProperty(fd, list.pointee.props[i]) else { continue }
            defer { drmModeFreeProperty(p) }
            result.append((stringFromCArray(p.pointee.name), p.pointee.prop_id, list.pointee.prop_values[i]))
        }
        return result
    }

    /// The primary plane that can drive the CRTC (`crtcIndex` in its
    /// possible_crtcs), preferring one already on that CRTC.
    static func primaryPlane(fd: Int32, crtcID: UInt32, crtcIndex: Int) -> UInt32? {
        guard let resources = drmModeGetPlaneResources(fd) else { return nil }
        defer { drmModeFreePlaneResources(resources) }
        var candidate: UInt32?
        for i in 0..<Int(resources.pointee.count_planes) {
            guard let plane = drmModeGetPlane(fd, resources.pointee.planes[i]) else { continue }
            defer { drmModeFreePlane(plane) }
            guard plane.pointee.possible_crtcs & (1 << UInt32(crtcIndex)) != 0 else { continue }
            let props = properties(fd: fd, object: plane.pointee.plane_id, type: fbr_drm_mode_object_plane())
            guard props.contains(where: { $0.name == "type" && $0.value == fbr_drm_plane_type_primary() }) else { continue }
            if plane.pointee.crtc_id == crtcID { return plane.pointee.plane_id }
            if candidate == nil { candidate = plane.pointee.plane_id }
        }
        return candidate
    }
}

/// One atomic request in fixed storage: properties grouped by object (the
/// kernel's DRM_IOCTL_MODE_ATOMIC layout: per object a count, then the
/// property IDs and values in that order). Adding to an object that is not
/// the last one starts a new group, so callers add each object's
/// properties together.
final class AtomicRequest {
    static let objectCapacity = 4
    static let propertyCapacity = 24
    private let objects = UnsafeMutablePointer<UInt32>.allocate(capacity: AtomicRequest.objectCapacity)
    private let counts = UnsafeMutablePointer<UInt32>.allocate(capacity: AtomicRequest.objectCapacity)
    private let propertyIDs = UnsafeMutablePointer<UInt32>.allocate(capacity: AtomicRequest.propertyCapacity)
    private let values = UnsafeMutablePointer<UInt64>.allocate(capacity: AtomicRequest.propertyCapacity)
    private var objectCount = 0
    private var propertyCount = 0
    /// The first property that did not fit (wlroots' request builder
    /// records its first error and reports it at commit).
    private var overflowed = false

    deinit {
        objects.deallocate(); counts.deallocate(); propertyIDs.deallocate(); values.deallocate()
    }

    func reset() {
        objectCount = 0
        propertyCount = 0
        overflowed = false
    }

    func add(_ object: UInt32, _ property: UInt32, _ value: UInt64) {
        guard !overflowed else { return }
        if objectCount == 0 || objects[objectCount - 1] != object {
            guard objectCount < AtomicRequest.objectCapacity else { overflowed = true; return }
            objects[objectCount] = object
            counts[objectCount] = 0
            objectCount += 1
        }
        guard propertyCount < AtomicRequest.propertyCapacity else { overflowed = true; return }
        propertyIDs[propertyCount] = property
        values[propertyCount] = value
        propertyCount += 1
        counts[objectCount - 1] += 1
    }

    /// The request as the ioctl will see it: per object, its properties
    /// and values in order (tests; allocates).
    var groups: [(object: UInt32, properties: [(id: UInt32, value: UInt64)])] {
        var result: [(object: UInt32, properties: [(id: UInt32, value: UInt64)])] = []
        var p = 0
        for o in 0..<objectCount {
            var list: [(id: UInt32, value: UInt64)] = []
            for _ in 0..<Int(counts[o]) { list.append((propertyIDs[p], values[p])); p += 1 }
            result.append((objects[o], list))
        }
        return result
    }

    /// Issues DRM_IOCTL_MODE_ATOMIC with `flags` (drmIoctl retries EINTR
    /// and EAGAIN).
    func commit(fd: Int32, flags: UInt32, userData: UnsafeMutableRawPointer?, what: @autoclosure () -> String) throws(KMSError) {
        if overflowed {
            throw KMSError(.callFailed, "\(what()): the request holds at most \(AtomicRequest.objectCapacity) objects and \(AtomicRequest.propertyCapacity) properties")
        }
        var arguments = drm_mode_atomic()
        arguments.flags = flags
        arguments.count_objs = UInt32(objectCount)
        arguments.objs_ptr = UInt64(UInt(bitPattern: objects))
        arguments.count_props_ptr = UInt64(UInt(bitPattern: counts))
        arguments.props_ptr = UInt64(UInt(bitPattern: propertyIDs))
        arguments.prop_values_ptr = UInt64(UInt(bitPattern: values))
        arguments.user_data = UInt64(UInt(bitPattern: userData))
        let r = drmIoctl(fd, fbr_drm_ioctl_mode_atomic(), &arguments)
        if r != 0 { throw KMSError.call(what(), errno: fbr_errno()) }
    }
}
