/// A JSON document (RFC 8259) with the line of every value, so that a message about a file such
/// as shard.json can name the line it is about.
///
/// Numbers keep their literal text: callers convert them with a checked initializer
/// (`Int("2.5")`, `Int("1e3")` and `Int("99999999999999999999")` are nil), never through a
/// `Double`. Nesting deeper than ``maxDepth`` is refused rather than recursed into, and an
/// object naming a key twice is refused, so one text has one meaning.
struct LocatedJSON: Sendable {
    enum Value: Sendable {
        case null
        case bool(Bool)
        /// The number as written, e.g. `-3`, `2.5`, `1e300`.
        case number(String)
        case string(String)
        case array([LocatedJSON])
        /// Members in file order (keys are unique).
        case object([(key: String, value: LocatedJSON)])
    }

    var value: Value
    /// The 1-based line on which the value starts.
    var line: Int

    /// Deeper nesting is refused (shard.json needs 4 levels).
    static let maxDepth = 32

    /// A syntax error and the 1-based line it is on.
    struct SyntaxError: Error, Sendable {
        var line: Int
        var message: String
    }

    /// Parses `bytes`, which must hold exactly one JSON value (whitespace around it allowed).
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> LocatedJSON {
        var parser = Parser(bytes: bytes)
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.position == bytes.count else { throw parser.problem("unexpected text after the JSON value") }
        return value
    }

    /// A short description of the kind of value, for messages ("a string", "an object", …).
    var kindName: String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number(let n): "the number \(n)"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }

    private struct Parser {
        let bytes: [UInt8]
        var position = 0
        var line = 1

        func problem(_ message: String) -> SyntaxError { SyntaxError(line: line, message: message) }

        var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skipSpace() {
            while let b = current, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D {
                if b == 0x0A { line += 1 }
                position += 1
            }
        }

        mutating func expect(_ literal: String) throws(SyntaxError) {
            for b in literal.utf8 {
                guard current == b else { throw problem("expected '\(literal)'") }
                position += 1
            }
        }

        mutating func value(depth: Int) throws(SyntaxError) -> LocatedJSON {
            guard depth < LocatedJSON.maxDepth else { throw problem("nested deeper than \(LocatedJSON.maxDepth) levels") }
            skipSpace()
            let start = line
            guard let b = current else { throw problem("the text ends where a value belongs") }
            switch b {
            case UInt8(ascii: "{"): return LocatedJSON(value: .object(try members(depth: depth)), line: start)
            case UInt8(ascii: "["): return LocatedJSON(value: .array(try elements(depth: depth)), line: start)
            case UInt8(ascii: "\""): return LocatedJSON(value: .string(try string()), line: start)
            case UInt8(ascii: "t"):
                try expect("true")
                return LocatedJSON(value: .bool(true), line: start)
            case UInt8(ascii: "f"):
                try expect("false")
                return LocatedJSON(value: .bool(false), line: start)
            case UInt8(ascii: "n"):
                try expect("null")
                return LocatedJSON(value: .null, line: start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return LocatedJSON(value: .number(try number()), line: start)
            default: throw problem("unexpected character '\(Unicode.Scalar(b))'")
            }
        }

        mutating func members(depth: Int) throws(SyntaxError) -> [(key: String, value: LocatedJSON)] {
            position += 1
            var result: [(key: String, value: LocatedJSON)] = []
            var seen = Set<String>()
            skipSpace()
            if current == UInt8(ascii: "}") {
                position += 1
                return result
            }
            while true {
                skipSpace()
                guard current == UInt8(ascii: "\"") else { throw problem("expected a key in quotes") }
                let key = try string()
                guard seen.insert(key).inserted else { throw problem("the key '\(key)' appears twice") }
                skipSpace()
                try expect(":")
                result.append((key, try value(depth: depth + 1)))
                skipSpace()
                if current == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                try expect("}")
                return result
            }
        }

        mutating func elements(depth: Int) throws(SyntaxError) -> [LocatedJSON] {
            position += 1
            var result: [LocatedJSON] = []
            skipSpace()
            if current == UInt8(ascii: "]") {
                position += 1
                return result
            }
            while true {
                result.append(try value(depth: depth + 1))
                skipSpace()
                if current == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                try expect("]")
                return result
            }
        }

        /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, kept as text.
        mutating func number() throws(SyntaxError) -> String {
            let start = position
            func digits(_ p: inout Parser) -> Int {
                let from = p.position
                while let b = p.current, b >= 0x30, b <= 0x39 { p.position += 1 }
                return p.position - from
            }
            if current == UInt8(ascii: "-") { position += 1 }
            let leadingZero = current == UInt8(ascii: "0")
            let whole = digits(&self)
            guard whole > 0, !(leadingZero && whole > 1) else { throw problem("malformed number") }
            if current == UInt8(ascii: ".") {
                position += 1
                guard digits(&self) > 0 else { throw problem("malformed number") }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                position += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
                guard digits(&self) > 0 else { throw problem("malformed number") }
            }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

        /// A quoted string with its escapes resolved; it must be valid UTF-8.
        mutating func string() throws(SyntaxError) -> String {
            position += 1
            var out: [UInt8] = []
            while true {
                guard let b = current else { throw problem("a string is not closed") }
                position += 1
                switch b {
                case UInt8(ascii: "\""):
                    guard let s = String(validating: out, as: UTF8.self) else { throw problem("a string is not valid UTF-8") }
                    return s
                case UInt8(ascii: "\\"):
                    try escape(into: &out)
                case 0..<0x20:
                    throw problem("a string holds a control character (line breaks are written \\n)")
                default:
                    out.append(b)
                }
            }
        }

        mutating func escape(into out: inout [UInt8]) throws(SyntaxError) {
            guard let e = current else { throw problem("a string is not closed") }
            position += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code) {
                    // A surrogate pair (RFC 8259 §7): the low half must follow at once.
                    try expect("\\u")
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw problem("a \\u escape has an unpaired surrogate") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw problem("a \\u escape has an unpaired surrogate") }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                throw problem("unknown escape '\\\(Unicode.Scalar(e))'")
            }
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            var code: UInt32 = 0
            for _ in 0..<4 {
                guard let b = current, let d = Self.hexValue(b) else { throw problem("a \\u escape needs four hexadecimal digits") }
                code = code << 4 | d
                position += 1
            }
            return code
        }

        static func hexValue(_ b: UInt8) -> UInt32? {
            switch b {
            case 0x30...0x39: UInt32(b - 0x30)
            case 0x41...0x46: UInt32(b - 0x41 + 10)
            case 0x61...0x66: UInt32(b - 0x61 + 10)
            default: nil
            }
        }
    }
}
