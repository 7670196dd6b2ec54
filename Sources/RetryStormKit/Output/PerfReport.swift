import Foundation

/// Wall-clock measurements of a run. They go to stderr and perf.json only, never into the
/// deterministic CSVs.
package struct PerfReport: Sendable {
    package var events: Int64
    package var wallSeconds: Double
    package var replications: Int
    package var jobs: Int

    package init(events: Int64, wallSeconds: Double, replications: Int, jobs: Int) {
        self.events = events
        self.wallSeconds = wallSeconds
        self.replications = replications
        self.jobs = jobs
    }

    package var eventsPerSecond: Double { wallSeconds > 0 ? Double(events) / wallSeconds : 0 }

    /// The process's peak resident set so far, bytes: Linux's VmHWM, which starts afresh at exec.
    /// (getrusage's ru_maxrss is kept across fork and exec: a child of a large process would report
    /// its parent's peak.) Elsewhere, ru_maxrss.
    package static var peakRSSBytes: Int {
        var usage = rusage()
        #if os(Linux)
            if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kib = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
            {
                return kib * 1024
            }
            // glibc declares RUSAGE_SELF as an enum case and counts ru_maxrss in KiB.
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return Int(usage.ru_maxrss) * 1024
        #else
            // Darwin declares RUSAGE_SELF as an Int32 and counts ru_maxrss in bytes.
            getrusage(RUSAGE_SELF, &usage)
            return Int(usage.ru_maxrss)
        #endif
    }

    package var json: String {
        """
        {
          "events": \(events),
          "wall_s": \(Format.fixed(wallSeconds, 3)),
          "events_per_s": \(Format.fixed(eventsPerSecond, 0)),
          "peak_rss_bytes": \(Self.peakRSSBytes),
          "replications": \(replications),
          "jobs": \(jobs)
        }

        """
    }

    /// One line for stderr.
    package var line: String {
        "\(Format.grouped(events)) events in \(Format.fixed(wallSeconds, 2)) s (\(Format.grouped(eventsPerSecond)) events/s, \(replications) replication\(replications == 1 ? "" : "s"), \(jobs) job\(jobs == 1 ? "" : "s"), peak RSS \(Self.peakRSSBytes / 1_048_576) MiB)"
    }
}
