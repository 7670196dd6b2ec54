import Foundation
import RetryStormVocabulary
import Testing

/// The one reader of input files: bounded by the bytes it reads, never by the size reported.
struct InputFileTests {
    static func temporary(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("retrystorm-input-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent(name).path
    }

    @Test("a file of exactly cap bytes is read whole; one byte more is refused")
    func capIsExact() throws {
        let path = Self.temporary("f.csv")
        let bytes = [UInt8]((0..<70_000).map { UInt8($0 % 251) })
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        #expect(try InputFile.read(path, cap: 70_000) == bytes)
        #expect(throws: InputFile.Failure.tooLarge(cap: 69_999)) { try InputFile.read(path, cap: 69_999) }
        #expect(try InputFile.read(path, cap: 1 << 30) == bytes)
    }

    /// /proc/kallsyms reports size 0 (stat) and holds megabytes: a reader that trusted st_size
    /// would take it for empty or read it whole; this one stops at the read that passes cap.
    @Test("a procfs file that reports size 0 is bounded by what is read", .enabled(if: FileManager.default.fileExists(atPath: "/proc/kallsyms")))
    func procfs() throws {
        var info = stat()
        #expect(stat("/proc/kallsyms", &info) == 0 && info.st_size == 0)
        #expect(throws: InputFile.Failure.tooLarge(cap: 4096)) { try InputFile.read("/proc/kallsyms", cap: 4096) }
        let status = try InputFile.read("/proc/self/status", cap: 1 << 20)
        #expect(String(decoding: status, as: UTF8.self).hasPrefix("Name:"))
    }

    @Test("a FIFO, a directory and a device are refused without blocking, naming what they are")
    func notRegular() throws {
        let fifo = Self.temporary("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: InputFile.Failure.notRegular("a FIFO (named pipe)")) { try InputFile.read(fifo, cap: 10) }
        #expect(throws: InputFile.Failure.notRegular("a directory")) { try InputFile.read(NSTemporaryDirectory(), cap: 10) }
        #expect(throws: InputFile.Failure.notRegular("a device")) { try InputFile.read("/dev/zero", cap: 10) }
        #expect(throws: InputFile.Failure.cannotOpen("No such file or directory")) { try InputFile.read(fifo + "-absent", cap: 10) }
    }

    @Test("text is nil for bytes that are not UTF-8")
    func text() throws {
        let path = Self.temporary("t.yaml")
        _ = FileManager.default.createFile(atPath: path, contents: Data([0x61, 0xFF, 0x62]))
        #expect(try InputFile.text(path, cap: 10) == nil)
        _ = FileManager.default.createFile(atPath: path, contents: Data("é\n".utf8))
        #expect(try InputFile.text(path, cap: 10) == "é\n")
    }
}
