import Foundation

/// Whether a process exists (signal 0 probes without sending anything).
enum ProcessLiveness {
    static func isAlive(_ pid: Int32) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }
}
