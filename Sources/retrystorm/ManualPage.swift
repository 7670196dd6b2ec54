import ArgumentParser
import RetryStormKit

/// A command tree as one man(7) page: the root's help as the description, then each command's
/// (subcommands depth first, hidden ones left out), each kept as the preformatted text `--help`
/// prints at 80 columns. No date: the page is the same for the same version, byte for byte.
enum ManualPage {
    static let columns = 80

    static func text(_ root: any ParsableCommand.Type) -> String {
        let name = root._commandName
        var out = """
            .TH \(name.uppercased()) 1 "" "RetryStorm \(escaped(RetryStormVersion.current))" "RetryStorm Manual"
            .SH NAME
            \(name) \\- \(escaped(root.configuration.abstract))
            .SH SYNOPSIS
            .B \(name)
            .I command
            .RI [ options ]

            """
        out += section("DESCRIPTION", root.helpMessage(columns: columns))
        out += ".SH COMMANDS\n"
        for (path, command) in commands(below: root, path: name) {
            out += ".SS \(escaped(path))\n" + preformatted(root.helpMessage(for: command, columns: columns))
        }
        out += """
            .SH SEE ALSO
            The documentation in the repository's docs/ directory: docs/command-line.md for every
            command and option, docs/scenario-reference.md for every scenario key.

            """
        return out
    }

    /// Every command under `command` that `--help` shows, with its full name, depth first.
    static func commands(below command: any ParsableCommand.Type, path: String) -> [(String, any ParsableCommand.Type)] {
        var out: [(String, any ParsableCommand.Type)] = []
        for sub in command.configuration.subcommands where sub.configuration.shouldDisplay {
            let full = path + " " + sub._commandName
            out.append((full, sub))
            out += commands(below: sub, path: full)
        }
        return out
    }

    static func section(_ title: String, _ body: String) -> String {
        ".SH \(title)\n" + preformatted(body)
    }

    /// `text` shown as it is: no filling or adjusting, every line escaped.
    static func preformatted(_ text: String) -> String {
        var out = ".nf\n"
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            out += escaped(String(line)) + "\n"
        }
        while out.hasSuffix("\n\n") { out.removeLast() }
        return out + ".fi\n"
    }

    /// `text` as roff text: backslashes written `\e`, hyphens `\-` (so that options copy as
    /// typed), every character beyond ASCII as `\[uXXXX]` (groff reads the input as Latin-1
    /// unless told otherwise), and a line that would start with a control character (`.` or `'`)
    /// guarded by `\&`.
    static func escaped(_ text: String) -> String {
        var s = ""
        for c in text.unicodeScalars {
            switch c {
            case "\\": s += "\\e"
            case "-": s += "\\-"
            case _ where c.value > 127:
                let hex = String(c.value, radix: 16, uppercase: true)
                s += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: s.unicodeScalars.append(c)
            }
        }
        if s.hasPrefix(".") || s.hasPrefix("'") { s = "\\&" + s }
        return s
    }
}
