import Foundation

/// How much memory this process may really use: the least of physical memory, the address-space
/// limit (`ulimit -v`, RLIMIT_AS) and the control group's limit (cgroup v2 `memory.max`, or v1
/// `memory.limit_in_bytes`), so that a run refused nowhere else is not killed by the kernel.
package struct MachineLimits: Sendable, Hashable {
    /// Bytes of physical memory.
    package var physical: Double
    /// Bytes of address space left under RLIMIT_AS (nil: unlimited).
    package var addressSpace: Double?
    /// Bytes the control group may hold (nil: no limit found).
    package var controlGroup: Double?

    package init(physical: Double, addressSpace: Double? = nil, controlGroup: Double? = nil) {
        self.physical = physical
        self.addressSpace = addressSpace
        self.controlGroup = controlGroup
    }

    /// The smallest of the three, bytes.
    package var bytes: Double { [physical, addressSpace ?? .infinity, controlGroup ?? .infinity].min()! }

    /// The share of ``bytes`` that work may plan to use (a study, a results directory read for
    /// its charts, a merge): the rest is headroom for what no estimate sees (allocator
    /// fragmentation, the kernel's page cache).
    package static let share = 0.8

    /// The bytes work may plan to use: ``share`` of ``bytes``.
    package var usable: Double { bytes * Self.share }

    /// Which limit is the smallest, for messages.
    package var description: String {
        let b = bytes
        if let c = controlGroup, c == b, c < physical { return "the control group's memory limit" }
        if let a = addressSpace, a == b, a < physical { return "the address-space limit (ulimit -v)" }
        return "this machine"
    }

    /// The limits of this process, read now.
    package static var current: MachineLimits {
        MachineLimits(
            physical: Double(ProcessInfo.processInfo.physicalMemory), addressSpace: addressSpaceLeft(),
            controlGroup: controlGroupLimit())
    }

    /// RLIMIT_AS minus the address space mapped when the process started (libraries, the
    /// runtimes' first heaps): what the estimates have to fit in. Not minus what is mapped now:
    /// by the time a study is checked, its input files are loaded, and the estimate counts them
    /// already (``mappedAtStart``).
    static func addressSpaceLeft() -> Double? {
        var limit = rlimit()
        // RLIM_INFINITY is all ones on Linux and 2^63 − 1 on macOS: anything that large is no limit.
        guard getrlimit(Self.addressSpaceResource, &limit) == 0, limit.rlim_cur < rlim_t(1) << 62 else { return nil }
        return max(0, Double(limit.rlim_cur) - mappedAtStart)
    }

    /// The address space mapped the first time it is asked for: at start for the command line,
    /// whose first step is ``startupRefusal()``.
    static let mappedAtStart = mappedBytes()

    /// Address space a command needs beyond what is mapped when it starts (about 78 MiB of
    /// libraries and runtime on Linux), bytes, before any estimate of its own work: the Swift and
    /// Foundation runtimes' first allocations, the YAML parser's regular expressions, the
    /// interruption watcher's thread. Measured with `ulimit -v` on keys, schema, validate, run,
    /// compare --jobs 2, chart, report and policy export of small inputs: each ran with 2 MiB
    /// left and trapped (SIGSEGV, SIGABRT, SIGILL in malloc) with none; 8 MiB is four times that.
    /// What a command's own work needs beyond this is the resource guard's to estimate.
    package static let startupHeadroom = 8.0 * 1_048_576

    /// A one-line refusal when `ulimit -v` leaves this process less than ``startupHeadroom``
    /// of address space, nil otherwise. Checked first thing, before anything allocates much.
    package static func startupRefusal() -> String? {
        guard let left = addressSpaceLeft(), left < startupHeadroom else { return nil }
        var limit = rlimit()
        getrlimit(addressSpaceResource, &limit)
        return
            "the address-space limit (ulimit -v \(limit.rlim_cur / 1024)) leaves \(Format.bytes(left)) beside the \(Format.bytes(mappedAtStart)) mapped at start; retrystorm needs at least \(Format.bytes(startupHeadroom)) more: raise ulimit -v"
    }

    #if os(Linux)
        static let addressSpaceResource = __rlimit_resource_t(RLIMIT_AS.rawValue)
    #else
        static let addressSpaceResource = RLIMIT_AS
    #endif

    /// The most bytes read from one of the kernel's files below (/proc/self/statm, /proc/self/cgroup,
    /// a cgroup's memory limit): each is a line or a few, a few hundred bytes; a control group
    /// nested a hundred deep is still well under this.
    static let maxKernelFileBytes = 64 << 10

    /// The text of a kernel file, through the one bounded reader (nil when it cannot be read).
    static func kernelFile(_ path: String) -> String? {
        try? InputFile.text(path, cap: maxKernelFileBytes)
    }

    /// The process's mapped address space, bytes (Linux: /proc/self/statm; elsewhere 0). Read
    /// into a buffer on the stack: it is asked first thing, when a tight `ulimit -v` may leave
    /// less than the bounded reader's 64 KiB buffer (`ulimit -v 82000` trapped in that allocation
    /// once the binary had grown past the loader's own limit).
    static func mappedBytes() -> Double {
        #if os(Linux)
            let fd = open("/proc/self/statm", O_RDONLY)
            guard fd >= 0 else { return 0 }
            defer { close(fd) }
            // "size resident shared …" in pages: the first field is a few digits.
            var buffer: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            let pages = withUnsafeMutableBytes(of: &buffer) { raw -> Double in
                let n = read(fd, raw.baseAddress, raw.count)
                guard n > 0 else { return 0 }
                var value = 0.0
                for byte in raw.prefix(n) {
                    guard byte >= 0x30 && byte <= 0x39 else { break }
                    value = value * 10 + Double(byte - 0x30)
                }
                return value
            }
            return pages * Double(sysconf(Int32(_SC_PAGESIZE)))
        #else
            return 0
        #endif
    }

    /// The tightest memory limit of this process's control group and its ancestors, bytes.
    static func controlGroupLimit() -> Double? {
        #if os(Linux)
            var candidates: [String] = []
            let membership = kernelFile("/proc/self/cgroup") ?? ""
            for line in membership.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
                guard parts.count == 3 else { continue }
                let path = String(parts[2])
                let root: String
                let file: String
                if parts[0] == "0" && parts[1].isEmpty {
                    (root, file) = ("/sys/fs/cgroup", "memory.max")
                } else if parts[1].split(separator: ",").contains("memory") {
                    (root, file) = ("/sys/fs/cgroup/memory", "memory.limit_in_bytes")
                } else {
                    continue
                }
                // The group and every ancestor: a parent's limit binds its children.
                var dir = path
                while true {
                    candidates.append(root + (dir == "/" ? "" : dir) + "/" + file)
                    if dir == "/" || dir.isEmpty { break }
                    dir = (dir as NSString).deletingLastPathComponent
                }
            }
            var least: Double?
            for file in Set(candidates) {
                guard let text = kernelFile(file) else { continue }
                let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
                // "max", or v1's "no limit" of about 2^63 rounded to pages.
                guard let v = Double(t), v < 9e18 else { continue }
                least = min(least ?? v, v)
            }
            return least
        #else
            return nil
        #endif
    }
}
