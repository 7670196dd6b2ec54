import Foundation
import TestSupport
import Testing

/// docs/architecture.md names the modules Package.swift declares and the folders the big modules
/// have, no more and no fewer: a module or folder added, renamed or removed fails here until the
/// document says so.
@Suite(.timeLimit(.cli))
struct ArchitectureDocumentTests {
    static let document: String = (try? String(contentsOf: Repository.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)) ?? ""

    /// The first cell of each row of the markdown table under the line `heading`, with the
    /// backticks and any trailing `/` removed; a cell naming two things (`` `A`, `B` ``) gives both.
    static func firstColumn(after heading: String) -> [String] {
        let lines = document.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: heading) else { return [] }
        var names: [String] = []
        var inTable = false
        for line in lines[(start + 1)...] {
            if line.hasPrefix("|") {
                inTable = true
                let cell = line.split(separator: "|", omittingEmptySubsequences: false)[1]
                if cell.contains("---") || cell.trimmingCharacters(in: .whitespaces) == "module"
                    || cell.trimmingCharacters(in: .whitespaces) == "folder"
                {
                    continue
                }
                names += cell.split(separator: ",").map {
                    $0.trimmingCharacters(in: CharacterSet(charactersIn: " `/"))
                }
            } else if inTable {
                break
            }
        }
        return names.sorted()
    }

    /// The targets Package.swift declares that ship (tests and their support left out, and the
    /// example's targets, built from examples/AppPolicyCheck's sources, which are an app's).
    static func declaredModules() throws -> [String] {
        let manifest = try String(contentsOf: Repository.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declaration = try Regex(#"\.(target|executableTarget|systemLibrary)\(\s*name:\s*"([A-Za-z]+)"([^)]*)\)"#)
        let names = manifest.matches(of: declaration).compactMap { m -> String? in
            let rest = m.output[3].substring.map(String.init) ?? ""
            return rest.contains("path: \"examples/") ? nil : m.output[2].substring.map(String.init)
        }
        return names.filter { $0 != "TestSupport" }.sorted()
    }

    @Test("the module table lists exactly the modules of Package.swift")
    func modules() throws {
        let listed = Self.firstColumn(after: "| module | role |")
        #expect(!listed.isEmpty, "no module table in docs/architecture.md")
        #expect(listed == (try Self.declaredModules()))
    }

    @Test(
        "each folder table lists exactly the folders of its module",
        arguments: [
            "Sources/RetryStormEngine", "Sources/RetryPolicy", "Sources/SVGCharts"
        ])
    func folders(module: String) throws {
        let path = Repository.root.appendingPathComponent(module)
        let folders = try FileManager.default.contentsOfDirectory(at: path, includingPropertiesForKeys: [.isDirectoryKey])
            .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
            .map(\.lastPathComponent).sorted()
        // The table follows the line "`<module>`:".
        let listed = Self.firstColumn(after: "`\(module)`:")
        #expect(listed == folders, "\(module)")
        // Every file is in a folder: a flat file beside them is a room nobody named.
        let loose = try FileManager.default.contentsOfDirectory(atPath: path.path).filter { $0.hasSuffix(".swift") }
        #expect(loose.isEmpty, "\(module): \(loose)")
    }
}
