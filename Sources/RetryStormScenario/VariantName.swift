/// Variant names appear unquoted in CSV files and on command lines: letters, digits and a few
/// punctuation marks that need neither quoting in CSV nor escaping in a shell.
package enum VariantName {
    package static let punctuation = "- _ . + = : @ % /"

    package static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 120 && name.unicodeScalars.allSatisfy(\.isASCII)
            && name.allSatisfy { $0.isLetter || $0.isNumber || "-_.+=:@%/".contains($0) }
    }
}
