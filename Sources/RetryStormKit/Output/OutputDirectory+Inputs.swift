import Foundation

extension OutputDirectory {
    /// Writes the copies of the input files `inputs` read (``InputFiles/copies``), byte for byte
    /// what was parsed, and — when options named some (`--set`, `--vary`, `--grid`), which the
    /// scenario.yaml kept beside them does not say — inputs.json, listing those with their
    /// copies, so that `report`, `chart` and `merge` read the copies and never the files the
    /// command named. Nothing for a scenario without input files. Call before ``commit()``.
    package func writeInputs(_ inputs: InputFiles) throws(OutputError) {
        for copy in inputs.copies { try write(copy.name, bytes: copy.bytes) }
        let listed = inputs.records.filter { $0.from != InputRecord.scenario }
        if !listed.isEmpty { try write(InputRecord.listName, InputRecord.json(listed)) }
    }

    /// Writes `bytes` to `name` inside the staging directory, from the array's own memory (a
    /// copy of a 250 MB profile is not copied again on the way).
    package func write(_ name: String, bytes: [UInt8]) throws(OutputError) {
        try whileOpen { () throws(OutputError) in
            let path = staging.appendingPathComponent(name).path
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
            guard fd >= 0 else { throw OutputError(message: "cannot write \(given)/\(name): \(String(cString: strerror(errno)))") }
            defer { close(fd) }
            var done = 0
            while done < bytes.count {
                let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + done, $0.count - done) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw OutputError(message: "cannot write \(given)/\(name): \(String(cString: strerror(errno)))") }
                done += n
            }
        }
    }
}
