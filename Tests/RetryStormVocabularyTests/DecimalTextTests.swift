import RetryStormVocabulary
import Testing

/// `Units.decimal` checks bytes for speed; it accepts exactly what checking each scalar accepted.
struct DecimalTextTests {
    /// The check as it was written before: every scalar one of `0123456789.eE+-` after every
    /// `_` Character is removed.
    static func byScalars(_ s: String) -> Double? {
        let t = String(s.filter { $0 != "_" })
        guard !t.isEmpty, t.unicodeScalars.allSatisfy({ "0123456789.eE+-".unicodeScalars.contains($0) }),
            let v = Double(t), v.isFinite
        else { return nil }
        return v
    }

    static let texts = [
        "0", "1.5", "-2", "+3", "1e5", "1E-3", ".5", "5.", "1_000", "_1_", "__", "_", "", " 1", "1 ", "nan", "inf", "-inf",
        "0x10", "1e400", "1.2.3", "e", "--1", "é", "1\u{0301}", "_\u{0301}1", "١", "１", "1\u{00A0}", "12345678901234567890",
        "3599.99964", "0.00036", "1e-400"
    ]

    @Test("the same numbers, and the same refusals, as a check of scalars", arguments: texts)
    func sameAsScalars(text: String) {
        let got = Units.decimal(text)
        let expected = Self.byScalars(text)
        #expect(
            got == expected || (got?.isNaN == true && expected?.isNaN == true),
            "\(text): \(String(describing: got)) vs \(String(describing: expected))")
    }
}
