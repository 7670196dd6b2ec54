import RetryPolicy
import Testing

/// Classification: the offline-first chapter's taxonomy (the default table) and the libraries'
/// tables the presets use, each test naming its library (the sources are listed with the presets,
/// `RetryPolicy+Presets.swift`).
struct ClassifierTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let error: NormalizedError
        let kind: FailureKind
        let retryable: Bool
        var authRefresh = false
        var userAction = false
        var ambiguous = false
        var testDescription: String { name }
    }

    /// The chapter's "Failure taxonomy" and its mapping table ("Step-by-step: build an error classifier").
    static let chapter: [Case] = [
        Case(name: "DNS failure: transient network", error: .transport(.dnsFailure), kind: .transientNetwork, retryable: true),
        Case(
            name: "reset after bytes were written: ambiguous", error: .transport(.connectionReset, reached: .unknown),
            kind: .transientNetwork, retryable: true, ambiguous: true),
        Case(name: "connect timeout: nothing sent", error: .timedOut(.connect), kind: .timeout, retryable: true),
        Case(name: "response timeout: ambiguous", error: .timedOut(.response), kind: .timeout, retryable: true, ambiguous: true),
        Case(name: "500", error: .http(500), kind: .serverError, retryable: true),
        Case(name: "502", error: .http(502), kind: .serverError, retryable: true),
        Case(name: "503", error: .http(503), kind: .serverError, retryable: true),
        Case(name: "504", error: .http(504), kind: .serverError, retryable: true),
        Case(name: "429", error: .http(429, retryAfter: 5 * second), kind: .throttled, retryable: true),
        Case(name: "401: refresh then retry", error: .http(401), kind: .authExpired, retryable: true, authRefresh: true),
        Case(name: "403: refresh then retry", error: .http(403), kind: .authExpired, retryable: true, authRefresh: true),
        Case(name: "400: permanent", error: .http(400), kind: .permanent, retryable: false, userAction: true),
        Case(name: "404: permanent", error: .http(404), kind: .permanent, retryable: false, userAction: true),
        Case(name: "422: permanent", error: .http(422), kind: .permanent, retryable: false, userAction: true),
        Case(name: "409: not retryable by default", error: .http(409), kind: .conflict, retryable: false, userAction: true),
        Case(name: "database locked: retry", error: .local(.databaseLocked), kind: .localResource, retryable: true),
        Case(name: "disk full: needs the user", error: .local(.diskFull), kind: .localResource, retryable: false, userAction: true),
        Case(
            name: "key unavailable: needs the system", error: .local(.keyUnavailable), kind: .localResource, retryable: false,
            userAction: true),
        Case(name: "SRE overloaded; don't retry", error: .http(503, code: .overloadedDoNotRetry), kind: .overloaded, retryable: false),
        Case(name: "a load-shedding 503 is never ambiguous", error: .http(503, unprocessed: true), kind: .serverError, retryable: true)
    ]

    @Test("the offline-first chapter's taxonomy", arguments: chapter)
    func taxonomy(_ c: Case) {
        let got = Classifier.offlineFirst.classify(c.error)
        #expect(got.kind == c.kind)
        #expect(got.retryable == c.retryable)
        #expect(got.requiresAuthRefresh == c.authRefresh)
        #expect(got.userActionRequired == c.userAction)
        #expect(got.ambiguous == c.ambiguous)
    }

    @Test("409 is configurable (Envoy retriable-4xx; the chapter's \"special-case 409\")")
    func conflict() {
        var c = Classifier.offlineFirst
        c.retryConflict = true
        #expect(c.classify(.http(409)).retryable)
        #expect(!c.classify(.http(409)).userActionRequired)
    }

    @Test("Retry-After travels with the class: seconds and HTTP-date both become the server's hint")
    func hint() {
        let now = HTTPDate.daysFromCivil(year: 2026, month: 11, day: 21) * 86_400 * second
        let date = RetryAfterHeader.retryAfter("Sat, 21 Nov 2026 00:00:30 GMT", now: now)
        #expect(Classifier.offlineFirst.classify(.http(429, retryAfter: date)).serverHint == 30 * second)
        #expect(Classifier.offlineFirst.classify(.http(503, retryAfter: RetryAfterHeader.retryAfter("120", now: now))).minDelay == 120 * second)
    }

    @Test("AWS standard: a bare 429 is not retried; with a throttling code it is (§1.1, §14.3)")
    func awsPlain429() {
        #expect(!Classifier.aws.classify(.http(429)).retryable)
        let coded = Classifier.aws.classify(.http(429, code: ServerErrorCode(code: "ThrottlingException")))
        #expect(coded.retryable && coded.isThrottling)
        #expect(Classifier.aws.classify(.http(400, code: ServerErrorCode(code: "RequestTimeout"))).retryable)
        #expect(!Classifier.aws.classify(.http(401)).requiresAuthRefresh)
        #expect(Driver(.awsStandard).runOnce(.http(401)) == .stop(.needsSignIn))
    }

    @Test("gRPC [UNAVAILABLE]: 429, 502, 503, 504 and transport failures retried; 500 and timeouts (DEADLINE_EXCEEDED) not (§2)")
    func grpc() {
        let c = Classifier.grpcUnavailable
        for s in [429, 502, 503, 504] { #expect(c.classify(.http(s)).retryable, "\(s)") }
        #expect(c.classify(.transport(.connectionRefused)).retryable)
        #expect(!c.classify(.http(500)).retryable)
        #expect(!c.classify(.timedOut(.response)).retryable)
    }

    @Test("Finagle requeues: only failures that surely did not take effect (§3.2)")
    func finagle() {
        let c = Classifier.finagleRequeues
        #expect(c.classify(.transport(.connectionRefused)).retryable)
        #expect(c.classify(.timedOut(.connect)).retryable)
        #expect(c.classify(.http(503, unprocessed: true)).retryable)
        #expect(!c.classify(.http(503)).retryable)
        #expect(!c.classify(.timedOut(.response)).retryable)
    }

    @Test("Envoy retry_on 5xx: every 5xx, not 429 or 409 (§4.1)")
    func envoy() {
        let c = Classifier.envoy5xx
        for s in [500, 501, 503, 599] { #expect(c.classify(.http(s)).retryable, "\(s)") }
        #expect(!c.classify(.http(429)).retryable)
        #expect(!c.classify(.http(409)).retryable)
    }

    @Test("urllib3: 413, 429, 503 retried only with Retry-After; other statuses not at all (§9.2)")
    func urllib3() {
        let c = Classifier.urllib3
        for s in [413, 429, 503] {
            #expect(c.classify(.http(s, retryAfter: second)).retryable, "\(s)")
            #expect(!c.classify(.http(s)).retryable, "\(s)")
        }
        #expect(!c.classify(.http(500, retryAfter: second)).retryable)
        #expect(c.classify(.timedOut(.response)).retryable)
    }

    @Test("RudderStack: 400, 401, 404, 413 fatal; every other HTTP error retried (§10)")
    func rudderstack() {
        let c = Classifier.rudderstack
        for s in [400, 401, 404, 413] { #expect(!c.classify(.http(s)).retryable, "\(s)") }
        for s in [408, 409, 429, 500, 501, 503] { #expect(c.classify(.http(s)).retryable, "\(s)") }
    }

    @Test("retry everything: even 404 and a full disk (the naive baseline; resilience4j, Polly, cenkalti)")
    func everything() {
        for e in [NormalizedError.http(404), .http(401), .local(.diskFull), .timedOut(.response)] {
            #expect(Classifier.everything.classify(e).retryable)
        }
    }
}
