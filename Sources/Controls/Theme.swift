import FBRuntime

/// The look of every control in one value: named colours, fonts and
/// metrics. `Theme.light` and `Theme.dark` are the two built in; an app
/// makes its own by changing fields of one of them.
///
/// A control draws from its `theme` (`Control.theme`); `Theme.apply(to:)`
/// gives a whole tree a new theme at run time, animating the colours.
public struct Theme {
    /// Named colours. Each control says which it uses in its doc comment.
    public struct Colors {
        /// The tint of what is on, selected or filled: a switch that is
        /// on, a slider's filled part, a button's background.
        public var accent: Color
        /// `accent` while a finger is on it (a pressed button).
        public var accentHighlighted: Color
        /// Text and symbols drawn on `accent`.
        public var onAccent: Color
        /// The screen behind the controls.
        public var background: Color
        /// Raised parts: a segmented control's selected segment, a stepper's
        /// body.
        public var surface: Color
        /// `surface` while a finger is on it.
        public var surfaceHighlighted: Color
        /// Knobs and thumbs that move along a track (a switch's knob, a
        /// slider's thumb).
        public var knob: Color
        /// Tracks that are off or unfilled: a switch that is off, a slider's
        /// track, a progress bar's empty part.
        public var track: Color
        public var text: Color
        public var secondaryText: Color
        /// Hairlines between parts (a segmented control's dividers).
        public var separator: Color
        /// Fills of disabled controls; their text is `disabledText`.
        public var disabled: Color
        public var disabledText: Color

        public init(accent: Color, accentHighlighted: Color, onAccent: Color, background: Color, surface: Color,
                    surfaceHighlighted: Color, knob: Color, track: Color, text: Color, secondaryText: Color, separator: Color,
                    disabled: Color, disabledText: Color) {
            self.accent = accent; self.accentHighlighted = accentHighlighted; self.onAccent = onAccent
            self.background = background; self.surface = surface; self.surfaceHighlighted = surfaceHighlighted
            self.knob = knob
            self.track = track; self.text = text; self.secondaryText = secondaryText; self.separator = separator
            self.disabled = disabled; self.disabledText = disabledText
        }
    }

    /// Fonts and their sizes, points. A `nil` font means
    /// `TextLayer.defaultFont` (the app shell sets it to DejaVu Sans).
    public struct Fonts {
        public var regular: Font?
        /// Titles of buttons and the selected segment.
        public var bold: Font?
        /// Button titles, segment titles, stepper symbols, points.
        public var bodySize: Double
        /// Large titles, points.
        public var titleSize: Double
        /// Small print, points.
        public var captionSize: Double

        public init(regular: Font? = nil, bold: Font? = nil, bodySize: Double = 17, titleSize: Double = 24, captionSize: Double = 13) {
            self.regular = regular; self.bold = bold
            self.bodySize = bodySize; self.titleSize = titleSize; self.captionSize = captionSize
        }
    }

    /// Sizes, points, and times, seconds.
    public struct Metrics {
        /// Corner radius of buttons, segmented controls and steppers.
        public var cornerRadius: Double = 10
        /// The height controls ask for (`preferredSize`): a comfortable
        /// finger target.
        public var controlHeight: Double = 44
        /// Space between a control's edge and its content (a button's title).
        public var padding: Double = 16
        /// Space between controls in a row or column.
        public var spacing: Double = 8
        /// How far a finger may slide off a pressed control and still count
        /// as on it (UIKit's 70 points is for big phones; boards are small).
        public var touchSlop: Double = 24
        /// Track height of sliders and progress bars.
        public var trackHeight: Double = 6
        /// Diameter of a slider's thumb.
        public var thumbSize: Double = 28
        /// A switch's size (its track; the knob is inset by 2 points).
        public var switchSize = Size(width: 52, height: 32)
        /// Line width of a progress ring.
        public var ringLineWidth: Double = 6
        /// Duration of a control's own animations (a switch's knob, a
        /// slider's jump to a tapped point, a theme change), seconds.
        public var animationDuration: Double = 0.2
        /// How long a button's highlight fades out after the finger lifts,
        /// seconds.
        public var feedbackDuration: Double = 0.3

        public init() {}
    }

    public var colors: Colors
    public var fonts: Fonts
    public var metrics: Metrics

    public init(colors: Colors, fonts: Fonts = Fonts(), metrics: Metrics = Metrics()) {
        self.colors = colors; self.fonts = fonts; self.metrics = metrics
    }

    /// Dark text on light grey surfaces, blue accent.
    public static var light: Theme {
        Theme(colors: Colors(
            accent: Color(rgb: 0x1E6FD9), accentHighlighted: Color(rgb: 0x1550A0), onAccent: .white,
            background: Color(rgb: 0xF2F2F5), surface: .white, surfaceHighlighted: Color(rgb: 0xD8D8DE), knob: .white,
            track: Color(rgb: 0xC8C8CE), text: Color(rgb: 0x16161A), secondaryText: Color(rgb: 0x6C6C74),
            separator: Color(rgb: 0xB4B4BC), disabled: Color(rgb: 0xDCDCE0), disabledText: Color(rgb: 0xA0A0A8)))
    }

    /// Light text on near-black surfaces, a lighter blue accent.
    public static var dark: Theme {
        Theme(colors: Colors(
            accent: Color(rgb: 0x3D8BFF), accentHighlighted: Color(rgb: 0x2A66C0), onAccent: .white,
            background: Color(rgb: 0x101014), surface: Color(rgb: 0x2C2C32), surfaceHighlighted: Color(rgb: 0x46464E), knob: Color(rgb: 0xE6E6EA),
            track: Color(rgb: 0x3A3A42), text: Color(rgb: 0xF0F0F4), secondaryText: Color(rgb: 0x9A9AA4),
            separator: Color(rgb: 0x50505A), disabled: Color(rgb: 0x26262B), disabledText: Color(rgb: 0x5E5E66)))
    }

    /// Gives every `Control` in `root`'s tree (`root` included) this theme,
    /// and the `FocusRing` there. A `Sheet` or `Alert` not in the tree now
    /// takes the tree's theme when it is presented over it
    /// (`Theme.of(host:)`).
    ///
    /// In a displayed tree (`Layer.isDisplayRoot`) the colours animate from
    /// what is on screen to the new theme's over `duration` seconds, as one
    /// transaction (implicit animations of `backgroundColor`,
    /// `foregroundColor`, `strokeColor`…); `duration` 0 changes them at
    /// once. A tree that is not displayed changes at once either way.
    /// - Complexity: O(layers in the tree).
    public func apply(to root: Layer, duration: Double = 0.3) {
        Transaction.begin()
        if duration > 0 && duration.isFinite {
            Transaction.animationDuration = duration
        } else {
            Transaction.disableActions = true
        }
        apply(to: root, depth: 0)
        Transaction.commit()
    }

    /// The theme of the tree `host` is in: that of the nearest `Control`
    /// among `host` and its superlayers, else of the first `Control` below
    /// `host` (breadth first, up to 512 layers; sheets and alerts, which
    /// come and go, do not count); nil when there is none. What a sheet or
    /// an alert presented over `host` takes (`Theme.apply` gives every
    /// control of a tree the same theme).
    public static func of(host: Layer) -> Theme? {
        var up: Layer? = host
        var steps = 0
        while let l = up, steps < Compositor.maximumDepth {
            if let c = l as? Control, !(l is Sheet), !(l is Alert) { return c.theme }
            up = l.superlayer
            steps += 1
        }
        var queue: [Layer] = [host]
        var i = 0
        while i < queue.count && i < 512 {
            let l = queue[i]
            i += 1
            if i > 1, let c = l as? Control, !(l is Sheet), !(l is Alert) { return c.theme }
            if l is Sheet || l is Alert { continue }
            queue.append(contentsOf: l.sublayers)
        }
        return nil
    }

    /// Layer trees are at most `Compositor.maximumDepth` deep where it
    /// matters (drawing); the walk stops there too rather than recurse
    /// without bound.
    private func apply(to layer: Layer, depth: Int) {
        if let control = layer as? Control {
            control.theme = self
        } else if let ring = layer as? FocusRing {
            ring.theme = self
        }
        guard depth < Compositor.maximumDepth else { return }
        for sublayer in layer.sublayers { apply(to: sublayer, depth: depth + 1) }
    }
}
