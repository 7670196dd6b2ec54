/// A chart that renders itself as a standalone SVG document.
///
/// Rendering is a pure function of the value: the same chart gives the same
/// bytes on every machine (no dates, randomness, locale or libm).
public protocol Chart: Sendable {
    /// The SVG document (UTF-8 text, `xmlns`, `viewBox`, `width`, `height`).
    func svg() -> String
}
