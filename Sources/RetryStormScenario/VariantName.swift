/// Variant names appear unquoted in CSV files and on command lines: letters, digits and a few
/// punctuation marks that need neither quoting in CSV nor escaping in a shell.
package enum VariantName {
    package static let punctuation = "- _ . + = : @ % /"

    package static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 120 && name.unicodeScalars.allSatisfy(\.isASCII)
            && name.allSatisfy { $0.isLetter || $0.isNumber || "-_.+=:@%/".contains($0) } && formulaProblem(name) == nil
    }

    /// The first characters a spreadsheet takes for the start of a formula when it opens a CSV
    /// file (OWASP, "CSV Injection"): a variant or population name in summary.csv starting with
    /// one would run as a formula in the reviewer's spreadsheet.
    package static let formulaStarts: Set<Character> = ["=", "+", "-", "@"]

    /// Why `name` cannot name a variant or a population because of its first character, or nil.
    package static func formulaProblem(_ name: String) -> String? {
        guard let first = name.first, formulaStarts.contains(first) else { return nil }
        return
            "'\(name)' starts with '\(first)', which a spreadsheet runs as a formula when it opens the CSV files: start the name with a letter or a digit"
    }
}
