internal import CSpawn
import Foundation

/// A program started with `posix_spawn`, its standard output and error captured through pipes.
///
/// Why not Foundation's `Process`: on Linux with Swift 6.3.1 its `run()` crashes the parent now
/// and then (SIGSEGV: `findMaximumOpenFromProcSelfFD` copies a whole 256-byte `d_name` out of a
/// `readdir` record that may end the buffer, swift-corelibs-foundation PR #5472; seen about one
/// test run in three here, as the suite starts hundreds of processes). Here the pipes are opened
/// close-on-exec, so no other child inherits them, and the child starts with the default
/// disposition of every signal and an empty signal mask, whatever this process ignores or blocks.
package struct ChildProcess: Sendable {
    /// How a child ended.
    package enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// What a finished child wrote and how it ended.
    package struct Outcome: Sendable {
        package var termination: Termination
        package var stdout: [UInt8]
        package var stderr: [UInt8]
        /// It ran past the timeout and was sent SIGTERM (and SIGKILL if that did not end it).
        package var timedOut: Bool
    }

    package let pid: Int32  // pid_t (CSpawn, imported internally, declares one too)
    /// The read ends of the child's standard output and error (-1 when not ``Stream/capture``).
    package let stdoutFD: Int32
    package let stderrFD: Int32

    /// Why a child could not be started: `strerror` of the cause.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// Where a child's standard output or error goes.
    package enum Stream: Sendable {
        /// A pipe this process reads (``finish(timeout:)``).
        case capture
        /// /dev/null.
        case discard
        /// A pipe whose reading end is already closed: the child's first write fails with EPIPE
        /// (or SIGPIPE), as when a reader such as `head` has gone.
        case closedPipe
    }

    /// Starts `executable` (a path) with `arguments` in `directory` (nil: this one), with
    /// `environment` (nil: this process's). Its standard input is /dev/null.
    package static func spawn(
        _ executable: String, _ arguments: [String], directory: String? = nil,
        environment: [String: String]? = nil, stdout: Stream = .capture,
        stderr: Stream = .capture
    ) throws(Failure) -> ChildProcess {
        var out: [Int32] = [-1, -1]
        var err: [Int32] = [-1, -1]
        func closeAll() { for fd in out + err where fd >= 0 { close(fd) } }
        func failure() -> Failure { Failure(description: String(cString: strerror(errno))) }
        if stdout != .discard { guard rs_pipe_cloexec(&out) == 0 else { throw failure() } }
        if stderr != .discard {
            guard rs_pipe_cloexec(&err) == 0 else {
                let f = failure()
                closeAll()
                throw f
            }
        }
        if stdout == .closedPipe {
            close(out[0])
            out[0] = -1
        }
        if stderr == .closedPipe {
            close(err[0])
            err[0] = -1
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (fd, stream, pipe) in [(Int32(1), stdout, out), (Int32(2), stderr, err)] {
            if stream == .discard {
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
            } else {
                posix_spawn_file_actions_adddup2(&actions, pipe[1], fd)
            }
        }
        if let directory { rs_spawn_addchdir(&actions, directory) }
        // Nothing but 0–2 crosses into the child: a pipe another thread holds without
        // close-on-exec would otherwise stay open in it, and whoever waits for that pipe's end
        // (Swift Testing's exit tests did, for minutes) would wait for this child too.
        rs_spawn_addclosefrom(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        #if canImport(Darwin)
            let closeOthers = Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)  // macOS's rs_spawn_addclosefrom
        #else
            let closeOthers: Int32 = 0
        #endif
        posix_spawnattr_setflags(&attributes, Int16(Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | closeOthers))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let env = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer {
            for p in argv { free(p) }
            for p in env ?? [] { free(p) }
        }
        var pid: pid_t = 0
        let code =
            env.map { e in posix_spawn(&pid, executable, &actions, &attributes, argv, e) }
            ?? posix_spawn(&pid, executable, &actions, &attributes, argv, rs_environ())
        // The child holds its own copies of the write ends now.
        for fd in [out[1], err[1]] where fd >= 0 { close(fd) }
        guard code == 0 else {
            for fd in [out[0], err[0]] where fd >= 0 { close(fd) }
            throw Failure(description: String(cString: strerror(code)))
        }
        return ChildProcess(pid: pid, stdoutFD: out[0], stderrFD: err[0])
    }

    /// Reads both pipes to their ends (together, so a child filling one while the other is read
    /// never blocks), then waits for the child. After `timeout` seconds it is sent SIGTERM, and
    /// SIGKILL five seconds after that.
    package func finish(timeout: Double = .infinity) -> Outcome {
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        var open = [stdoutFD, stderrFD].filter { $0 >= 0 }
        var deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        var killed = false
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while !open.isEmpty {
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let left = deadline.timeIntervalSinceNow
            let wait = timeout.isInfinite || killed ? -1 : Int32(max(0, min(left, 3600)) * 1000)
            let ready = poll(&fds, nfds_t(fds.count), wait)
            if ready == 0 && !timeout.isInfinite && deadline.timeIntervalSinceNow <= 0 {
                // SIGTERM first; a child that ignores it gets SIGKILL five seconds later.
                if timedOut { killed = true } else { timedOut = true }
                kill(pid, killed ? SIGKILL : SIGTERM)
                deadline = Date().addingTimeInterval(5)
                continue
            }
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            for f in fds where f.revents != 0 {
                let n = buffer.withUnsafeMutableBytes { read(f.fd, $0.baseAddress, $0.count) }
                if n > 0 {
                    if f.fd == stdoutFD { stdout += buffer[..<n] } else { stderr += buffer[..<n] }
                } else if n == 0 || errno != EINTR {
                    close(f.fd)
                    open.removeAll { $0 == f.fd }
                }
            }
        }
        return Outcome(termination: wait(), stdout: stdout, stderr: stderr, timedOut: timedOut)
    }

    /// The child has not ended yet (it is not reaped: ``wait()`` still gives its status).
    package var isRunning: Bool { rs_child_ended(pid) == 0 }

    /// Sends the child `signal`.
    package func send(_ signal: Int32) { kill(pid, signal) }

    /// Ends a child nobody will read: SIGKILL if it still runs, then reaps it and closes the pipes.
    /// A child must be reaped by ``finish(timeout:)``, ``wait()`` or this: a zombie left behind
    /// is seen again and again by anyone who waits for any child (Swift Testing's exit-test
    /// monitor waits with `waitid(P_ALL, WNOWAIT)` and never got past one).
    package func abandon() {
        if isRunning { kill(pid, SIGKILL) }
        _ = wait()
        for fd in [stdoutFD, stderrFD] where fd >= 0 { close(fd) }
    }

    /// Waits for the child to end (its pipes are not read: call when they are not captured or
    /// were read to their ends).
    package func wait() -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as functions.
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }
}
