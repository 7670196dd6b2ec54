import Foundation
import RetryStormKit
import TestSupport
import Testing

/// The launcher that replaces Foundation's Process (whose run() crashes now and then on Linux).
@Suite(.timeLimit(.cli), .endsRunPastTimeLimit)
struct ChildProcessTests {
    @Test("both pipes are read to their ends together, the status and the directory are the child's")
    func captures() throws {
        // 200 KB on stdout and stderr each: more than a pipe holds, so reading one to its end
        // while the other fills would block.
        let script = "pwd; head -c 200000 /dev/zero | tr '\\000' a; head -c 200000 /dev/zero | tr '\\000' b >&2; exit 7"
        let child = try ChildProcess.spawn("/bin/sh", ["-c", script], directory: "/tmp")
        let outcome = child.finish()
        #expect(outcome.termination == .exited(7))
        #expect(outcome.stdout.count == "/tmp\n".utf8.count + 200_000)
        #expect(String(decoding: outcome.stdout.prefix(5), as: UTF8.self) == "/tmp\n")
        // Counted, not compared as arrays: a failing #expect on 200 KB arrays would diff them for minutes.
        #expect(outcome.stdout.dropFirst(5).allSatisfy { $0 == UInt8(ascii: "a") })
        #expect(outcome.stderr.count == 200_000 && outcome.stderr.allSatisfy { $0 == UInt8(ascii: "b") })
        #expect(!outcome.timedOut)
    }

    @Test("a child starts with every signal at its default and none blocked, whatever this process does")
    func signalsReset() throws {
        // This process may ignore SIGPIPE (the CLI does); `yes` into a closed pipe must still die of it.
        let old = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, old) }
        let child = try ChildProcess.spawn("/bin/sh", ["-c", "grep -E '^(SigBlk|SigIgn)' /proc/self/status"])
        let text = String(decoding: child.finish().stdout, as: UTF8.self)
        let masks = text.split(separator: "\n").compactMap { line in line.split(separator: "\t").last.flatMap { UInt64($0, radix: 16) } }
        // Signals 1–31 (bits 0–30). glibc keeps 32 and 33 for its threads, and `sigfillset` leaves
        // them out, so a child inherits whatever the parent's runtime set for those two.
        let standard: UInt64 = 0x7FFF_FFFF
        #expect(masks.count == 2 && masks.allSatisfy { $0 & standard == 0 }, "\(text)")
    }

    @Test("a descriptor this process holds without close-on-exec is closed in the child")
    func onlyStandardDescriptors() throws {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)  // plain pipe(2): inherited across exec unless the spawn closes it
        defer { for fd in fds { close(fd) } }
        let script = "for fd in \(fds[0]) \(fds[1]); do if [ -e /proc/self/fd/$fd ]; then echo open; else echo closed; fi; done"
        let outcome = try ChildProcess.spawn("/bin/sh", ["-c", script]).finish(timeout: 60)
        #expect(String(decoding: outcome.stdout, as: UTF8.self) == "closed\nclosed\n")
    }

    @Test("an abandoned child is killed and reaped: no zombie is left for another waiter")
    func abandoned() throws {
        let child = try ChildProcess.spawn("/bin/sleep", ["60"])
        #expect(child.isRunning)
        child.abandon()
        var status: Int32 = 0
        // Reaped already: the child is no longer this process's to wait for.
        #expect(waitpid(child.pid, &status, WNOHANG) == -1 && errno == ECHILD)
    }

    @Test("a child killed by a signal, one past its timeout, and a program that is not there")
    func endings() throws {
        #expect(try ChildProcess.spawn("/bin/sh", ["-c", "kill -9 $$"]).finish().termination == .signalled(9))
        let slow = try ChildProcess.spawn("/bin/sleep", ["30"]).finish(timeout: 0.2)
        #expect(slow.timedOut && slow.termination == .signalled(SIGTERM))
        // One that ignores SIGTERM is killed five seconds later, not waited for.
        let stubborn = try ChildProcess.spawn("/bin/sh", ["-c", "trap '' TERM; exec sleep 60"]).finish(timeout: 0.2)
        #expect(stubborn.timedOut && stubborn.termination == .signalled(SIGKILL))
        #expect(throws: ChildProcess.Failure.self) { try ChildProcess.spawn("/nonexistent/program", []) }
    }
}
