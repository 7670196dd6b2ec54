/// Axis and legend titles that name the unit the ticks are printed in.
///
/// Rules, so that a title never contradicts its ticks:
/// - a label that already names a duration unit in parentheses ("p99 (s)",
///   "delay (ms, log scale)") keeps it, and the axis uses that unit;
/// - otherwise the unit is added in parentheses, inside a parenthesis the
///   label ends with: "time to success" → "time to success (s)",
///   "time to success (log scale)" → "time to success (s, log scale)";
/// - an empty label becomes the unit's name: "seconds".
package enum AxisTitle {
    /// The duration unit `label` names as a whole entry of a parenthesised
    /// list: "(s)", "(ms, log scale)", "(log scale, min)".
    package static func namedUnit(in label: String) -> DurationUnit? {
        var inside: String?
        var found: DurationUnit?
        func check(_ entry: String) {
            let trimmed = entry.trimmingSpaces
            if found == nil, let unit = DurationUnit.all.first(where: { $0.symbol == trimmed }) { found = unit }
        }
        for character in label {
            switch character {
            case "(": inside = ""
            case ")":
                if let text = inside { for part in text.split(separator: ",") { check(String(part)) } }
                inside = nil
            default: inside?.append(character)
            }
        }
        return found
    }

    /// `label` with `extras` (a unit symbol, "log scale") added by the rules above.
    package static func compose(_ label: String, unit: DurationUnit?, extras: [String] = []) -> String {
        var parts: [String] = []
        if let unit, namedUnit(in: label) != unit { parts.append(unit.symbol) }
        parts += extras.filter { !label.contains($0) }
        guard !parts.isEmpty else { return label }
        if label.isEmpty {
            guard let unit else { return parts.joined(separator: ", ") }
            let rest = parts.filter { $0 != unit.symbol }
            return rest.isEmpty ? unit.name : "\(unit.name) (\(rest.joined(separator: ", ")))"
        }
        if label.hasSuffix(")"), let open = label.lastIndex(of: "(") {
            let head = label[..<open]
            let body = label[label.index(after: open)..<label.index(before: label.endIndex)]
            return head + "(" + parts.joined(separator: ", ") + ", " + body + ")"
        }
        return label + " (" + parts.joined(separator: ", ") + ")"
    }
}

extension String {
    /// Without leading and trailing spaces (Foundation-free).
    package var trimmingSpaces: String {
        var scalars = Substring(self)
        while scalars.first == " " { scalars = scalars.dropFirst() }
        while scalars.last == " " { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
