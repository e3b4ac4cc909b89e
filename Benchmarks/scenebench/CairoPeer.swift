import CCairo
import FBRuntime
import Raster
import TestSupport

/// The same scene drawn by cairo's image backend (ARGB32 premultiplied, the
/// same format), for a peer figure. It covers what the benchmark scene uses
/// apart from shadows: rounded backgrounds, contents clipped to rounded
/// bounds (bilinear; the trilinear photos too, cairo has no mip maps) and
/// opacity groups (`cairo_push_group` … `paint_with_alpha`).
///
/// Per frame the layer tree is first turned into a command list at the
/// frame's time (presentation values, untimed), then the list is drawn
/// (timed): cairo is measured drawing only.
final class CairoPeer {
    enum Command {
        case fill(cairo_matrix_t, Path, Color)
        case image(cairo_matrix_t, clip: Path?, source: OpaquePointer, scaleX: Double, scaleY: Double)
        case pushGroup
        case popGroup(alpha: Double)
    }

    let surface: OpaquePointer
    let cr: OpaquePointer
    private var sources: [ObjectIdentifier: OpaquePointer] = [:]
    private(set) var commands: [Command] = []

    init(target: Surface<ARGB8888>) {
        surface = cairo_image_surface_create_for_data(
            UnsafeMutableRawPointer(target.pixels).assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
            Int32(target.width), Int32(target.height), Int32(target.rowStride * 4))!
        cr = cairo_create(surface)!
        cairo_set_tolerance(cr, FlattenLimits.defaultTolerance)
    }

    deinit {
        cairo_destroy(cr)
        for (_, s) in sources { cairo_surface_destroy(s) }
        cairo_surface_destroy(surface)
    }

    /// Turns `root` at `time` into commands.
    func prepare(_ root: Layer, at time: MediaTime) {
        commands.removeAll(keepingCapacity: true)
        var m = cairo_matrix_t()
        cairo_matrix_init_identity(&m)
        walk(root, parent: m, time: time)
    }

    private func source(_ contents: LayerContents) -> OpaquePointer {
        if let s = sources[ObjectIdentifier(contents)] { return s }
        let image = contents.image
        let s = cairo_image_surface_create_for_data(
            UnsafeMutableRawPointer(image.pixels).assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
            Int32(image.width), Int32(image.height), Int32(image.rowStride * 4))!
        sources[ObjectIdentifier(contents)] = s
        return s
    }

    private func walk(_ layer: Layer, parent: cairo_matrix_t, time: MediaTime) {
        guard !layer.isHidden else { return }
        var g = layer.geometry
        if case .point(let p)? = layer.presentationValue(for: .position, at: time) { g.position = p }
        if case .transform(let t)? = layer.presentationValue(for: .transform, at: time) { g.transform = t }
        var opacity = layer.opacity
        if case .scalar(let o)? = layer.presentationValue(for: .opacity, at: time) { opacity = o }
        let f = g.toSuperlayer.flattened
        var own = cairo_matrix_t(xx: f.m00, yx: f.m10, xy: f.m01, yy: f.m11, x0: f.m02, y0: f.m12)
        var parentMatrix = parent
        var m = cairo_matrix_t()
        cairo_matrix_multiply(&m, &own, &parentMatrix)
        let b = g.bounds
        let shape = Path(roundedRect: b.minX, b.minY, b.width, b.height, radii: CornerRadii(layer.cornerRadius))
        let grouped = opacity < 1
        if grouped { commands.append(.pushGroup) }
        if let color = layer.backgroundColor { commands.append(.fill(m, shape, color)) }
        if let contents = layer.contents {
            commands.append(.image(m, clip: layer.masksToBounds ? shape : nil, source: source(contents),
                                   scaleX: b.width / Double(contents.width), scaleY: b.height / Double(contents.height)))
        }
        for sublayer in layer.sublayers { walk(sublayer, parent: m, time: time) }
        if grouped { commands.append(.popGroup(alpha: opacity)) }
    }

    /// Draws the prepared commands.
    func draw() {
        for command in commands {
            switch command {
            case .fill(var m, let path, let c):
                cairo_set_matrix(cr, &m)
                cairo_new_path(cr)
                Cairo.append(path, transform: .identity, to: cr)
                cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
                cairo_fill(cr)
            case .image(var m, let clip, let source, let sx, let sy):
                cairo_save(cr)
                cairo_set_matrix(cr, &m)
                if let clip {
                    cairo_new_path(cr)
                    Cairo.append(clip, transform: .identity, to: cr)
                    cairo_clip(cr)
                }
                cairo_scale(cr, sx, sy)
                cairo_set_source_surface(cr, source, 0, 0)
                cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
                cairo_paint(cr)
                cairo_restore(cr)
            case .pushGroup:
                cairo_push_group(cr)
            case .popGroup(let alpha):
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, alpha)
            }
        }
        cairo_surface_flush(surface)
    }
}

