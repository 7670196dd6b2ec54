/// A failed attempt, normalised from whatever the transport reported (URLSession, NIO, the
/// simulator's server model) into one plain value that ``Classifier`` maps to a ``FailureClass``.
///
/// All fields are plain values (no strings, no references) so the simulator can build one per
/// attempt for free; ``ServerErrorCode/init(code:)`` maps a service's error-code string once, and
/// ``RetryAfterHeader`` turns the servers' delay headers into ``retryAfter``. It is an `Error`, so
/// an operation run by ``retrying(_:clock:isolation:operation:)`` may throw it directly.
public struct NormalizedError: Error, Sendable, Hashable, Codable {
    /// A failure below HTTP: DNS, TCP, TLS, no network.
    public var transport: TransportFailure?
    /// The attempt timed out, and in which phase.
    public var timeout: TimeoutPhase?
    /// The HTTP status of the response, when there was one.
    public var status: Int?
    /// The service's error code (e.g. AWS `ThrottlingException`), normalised.
    public var code: ServerErrorCode?
    /// The server's requested wait (`Retry-After` seconds or HTTP-date, `x-amz-retry-after`,
    /// `grpc-retry-pushback-ms`), converted to a delay from the moment the response arrived.
    /// Negative means "do not retry" (gRPC pushback semantics).
    public var retryAfter: Nanoseconds?
    /// Whether the request reached the server; `.unknown` makes a write's outcome ambiguous.
    public var reachedServer: Reach
    /// A failure of a local resource (disk, database, keychain) before anything was sent.
    public var local: LocalResourceFailure?
    /// The server guarantees it did not process the request although it reached it: a Finagle
    /// NACK, an HTTP/2 REFUSED_STREAM, a load-shedding rejection from a full queue. Never ambiguous,
    /// and what Finagle requeues.
    public var unprocessed: Bool

    /// A failure from its parts; every part is optional, and a value with none of them set is an
    /// unknown transport problem (retried as a transient network failure by the default table).
    /// The factories ``http(_:retryAfter:code:unprocessed:)``, ``timedOut(_:)``,
    /// ``transport(_:reached:)`` and ``local(_:)`` build the usual cases.
    ///
    /// - Parameters:
    ///   - retryAfter: the server's requested wait in nanoseconds from the response (see
    ///     ``RetryAfterHeader``); negative means "do not retry".
    ///   - reachedServer: whether the request reached the server; `.unknown` (the default) makes a
    ///     response timeout or a reset ambiguous.
    ///
    /// ```swift
    /// // A 503 whose Retry-After asked for 30 s.
    /// let wait = RetryAfterHeader.retryAfter("30", now: 0)  // delay-seconds: `now` is not read
    /// let failure = NormalizedError(status: 503, retryAfter: wait, reachedServer: .yes)
    /// ```
    public init(
        transport: TransportFailure? = nil, timeout: TimeoutPhase? = nil, status: Int? = nil,
        code: ServerErrorCode? = nil, retryAfter: Nanoseconds? = nil, reachedServer: Reach = .unknown,
        local: LocalResourceFailure? = nil, unprocessed: Bool = false
    ) {
        self.transport = transport
        self.timeout = timeout
        self.status = status
        self.code = code
        self.retryAfter = retryAfter
        self.reachedServer = reachedServer
        self.local = local
        self.unprocessed = unprocessed
    }

    /// The same with the server's requested wait as a `Duration` (truncated to whole nanoseconds;
    /// negative means "do not retry").
    @_disfavoredOverload
    public init(
        transport: TransportFailure? = nil, timeout: TimeoutPhase? = nil, status: Int? = nil,
        code: ServerErrorCode? = nil, retryAfter: Duration?, reachedServer: Reach = .unknown,
        local: LocalResourceFailure? = nil, unprocessed: Bool = false
    ) {
        self.init(
            transport: transport, timeout: timeout, status: status, code: code, retryAfter: retryAfter.map(Time.nanoseconds),
            reachedServer: reachedServer, local: local, unprocessed: unprocessed)
    }

    /// An HTTP error response (the request reached the server); `unprocessed` when the server
    /// rejected it without doing any of it (load shedding).
    public static func http(
        _ status: Int, retryAfter: Nanoseconds? = nil, code: ServerErrorCode? = nil,
        unprocessed: Bool = false
    ) -> Self {
        NormalizedError(status: status, code: code, retryAfter: retryAfter, reachedServer: .yes, unprocessed: unprocessed)
    }

    /// ``http(_:retryAfter:code:unprocessed:)`` with the server's wait as a `Duration`.
    @_disfavoredOverload
    public static func http(_ status: Int, retryAfter: Duration?, code: ServerErrorCode? = nil, unprocessed: Bool = false) -> Self {
        http(status, retryAfter: retryAfter.map(Time.nanoseconds), code: code, unprocessed: unprocessed)
    }

    /// A local resource failure: nothing was sent.
    public static func local(_ failure: LocalResourceFailure) -> Self {
        NormalizedError(reachedServer: .no, local: failure)
    }

    /// Whether the request surely never took effect on the server (never sent, or refused unprocessed).
    @inlinable public var surelyNotApplied: Bool { reachedServer == .no || unprocessed }

    /// A timeout in `phase`; a response timeout leaves it unknown whether the server applied the request.
    public static func timedOut(_ phase: TimeoutPhase) -> Self {
        NormalizedError(timeout: phase, reachedServer: phase == .connect ? .no : .unknown)
    }

    /// A transport failure; `reached` says whether bytes of the request had been written.
    public static func transport(_ failure: TransportFailure, reached: Reach = .no) -> Self {
        NormalizedError(transport: failure, reachedServer: reached)
    }
}

/// Failures below HTTP.
public enum TransportFailure: UInt8, Sendable, Hashable, Codable, CaseIterable {
    /// The host name did not resolve: nothing was sent.
    case dnsFailure
    /// The host refused the connection: nothing was sent.
    case connectionRefused
    /// The connection broke; ambiguous when bytes of the request may have been written
    /// (``NormalizedError/reachedServer`` not `.no`).
    case connectionReset
    /// The TLS handshake failed: nothing was sent.
    case tlsFailure
    /// No network at all (airplane mode, no route): fails fast, nothing sent.
    case offline
    /// Any other failure below HTTP, or an error nothing more is known of (``DefaultErrorNormalizer``).
    case other
}

/// Which part of an attempt timed out.
public enum TimeoutPhase: UInt8, Sendable, Hashable, Codable {
    /// Establishing the connection (TCP/TLS): nothing was sent, always safe to retry.
    case connect
    /// Waiting for the response after the request was sent: the server may have applied it.
    case response
}

/// Whether a request reached the server.
public enum Reach: UInt8, Sendable, Hashable, Codable {
    /// It surely did not: never sent (connect failure, local failure). Always safe to retry.
    case no
    /// It did: the server answered.
    case yes
    /// It may have: a write's outcome is ambiguous after a response timeout or a reset.
    case unknown
}

/// Local failures that happen before anything is sent.
public enum LocalResourceFailure: UInt8, Sendable, Hashable, Codable, CaseIterable {
    /// Lock contention: retrying soon usually helps.
    case databaseLocked
    /// Needs the user or the system to free space.
    case diskFull
    /// The encryption key is unavailable (device locked): wait for the system.
    case keyUnavailable
}
