import Foundation

/// What names one retrystorm process anywhere: its host, the host's boot, its pid and when it
/// started. A pid alone means nothing across pid namespaces (every container's first process is
/// pid 1) or hosts sharing a directory; with the boot id and the start time it names one process.
///
/// Written into ``OwnerMarker`` files for people and messages; whether the process still runs is
/// decided by the marker's lock, never by this text.
struct RunIdentity: Equatable, Sendable {
    var host: String
    /// Linux's `/proc/sys/kernel/random/boot_id`: changes at every boot. Empty elsewhere.
    var bootID: String
    var pid: Int32
    /// The process's start, clock ticks since boot (`/proc/self/stat` field 22). 0 elsewhere.
    var startTicks: UInt64
    /// The process's start, UTC, for people.
    var started: String

    /// The first line of every marker: what tells a marker from a file that merely has its name.
    static let magic = "retrystorm run marker 1"

    /// This process, read once.
    static let current = RunIdentity(
        host: ProcessInfo.processInfo.hostName, bootID: readLine("/proc/sys/kernel/random/boot_id") ?? "",
        pid: getpid(), startTicks: startTicks(), started: utcNow())

    /// The marker's text: the magic line, then `key: value` lines.
    var text: String {
        """
        \(Self.magic)
        host: \(Self.oneLine(host))
        boot_id: \(Self.oneLine(bootID))
        pid: \(pid)
        start_ticks: \(startTicks)
        started: \(started)

        """
    }

    /// Parses a marker's text; nil unless it is one (magic line first, every key present).
    init?(text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.first == Self.magic else { return nil }
        lines.removeFirst()
        var values: [String: String] = [:]
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            values[String(line[..<colon])] = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        }
        guard let host = values["host"], let boot = values["boot_id"], let pid = values["pid"].flatMap({ Int32($0) }),
            let ticks = values["start_ticks"].flatMap({ UInt64($0) }), let started = values["started"]
        else { return nil }
        self.init(host: host, bootID: boot, pid: pid, startTicks: ticks, started: started)
    }

    init(host: String, bootID: String, pid: Int32, startTicks: UInt64, started: String) {
        self.host = host
        self.bootID = bootID
        self.pid = pid
        self.startTicks = startTicks
        self.started = started
    }

    /// "pid 4242 on host build-7, started 2026-11-26T08:30:00Z", for messages.
    var description: String { "pid \(pid) on host \(host), started \(started)" }

    /// 16 random hexadecimal digits, for names no other run picks (staging directories,
    /// temporary files): unlike a pid, unique across hosts and containers.
    static func randomHex() -> String {
        let n = UInt64.random(in: 0...UInt64.max)
        let digits = String(n, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static func oneLine(_ s: String) -> String {
        String(s.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
    }

    private static func readLine(_ path: String) -> String? {
        guard let bytes = try? InputFile.read(path, cap: 4096) else { return nil }
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return line.isEmpty ? nil : line
    }

    /// Field 22 of /proc/self/stat; the command name (field 2) is in parentheses and may hold spaces.
    private static func startTicks() -> UInt64 {
        guard let stat = readLine("/proc/self/stat"), let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // Fields after the name start at 3: field 22 is the 20th of them.
        return fields.count > 19 ? UInt64(fields[19]) ?? 0 : 0
    }

    private static func utcNow() -> String {
        var t = time(nil)
        var parts = tm()
        gmtime_r(&t, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
            parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}
