/// The screen-sized text (scene 8): replaced by `--lorem FILE`, the text
/// the LVGL side draws (Benchmarks/lvgl/lorem.txt).
enum Lorem {
    nonisolated(unsafe) static var text = """
        Lorem ipsum dolor sit amet, consectetur adipiscing elit. Sed do eiusmod tempor incididunt ut labore et dolore \
        magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo \
        consequat.
        """
}
