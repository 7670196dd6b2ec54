import RetryPolicy
import RetryStormScenario
import RetryStormVocabulary
import Testing

/// `retrystorm policy import` of Envoy settings, checked against Envoy's documented defaults and
/// semantics: `route_components.proto` (RetryPolicy, RetryBackOff, RateLimitedRetryBackOff, the
/// route timeout), `circuit_breaker.proto` (thresholds, RetryBudget) and the router filter's docs
/// (`x-envoy-retry-on` conditions).
struct EnvoyImportTests {
    typealias S = PolicyFormatSupport

    static func bare(_ text: String) throws -> ImportedPolicy {
        try S.importing(text, file: "envoy.yaml")
    }

    @Test("retry_on 5xx with every other field at Envoy's default is the envoy preset, value for value")
    func defaults() throws {
        let imported = try Self.bare("retry_policy: {retry_on: 5xx}\n")
        // num_retries default 1 (retries: 2 attempts); base_interval 25ms, max_interval 10 × base;
        // route timeout 15s; max_retries 3; max_requests 1024.
        #expect(imported.value(of: "policy.max_attempts") == "2")
        #expect(imported.value(of: "policy.backoff.base") == "25ms")
        #expect(imported.value(of: "policy.backoff.max") == "250ms")
        #expect(imported.value(of: "policy.max_elapsed") == "15s")
        #expect(imported.value(of: "policy.budget.min_concurrency") == "3")
        #expect(imported.value(of: "policy.concurrency.max_in_flight") == "1024")
        #expect(try S.policy(imported) == RetryPolicy.envoy)
    }

    @Test("full jitter over 25 ms × 2^(n−1), capped at 250 ms: [0,25), [0,50), [0,100), [0,200), [0,250) ms (Envoy's backoff_strategy.cc)")
    func backoff() throws {
        let p = try S.policy(try Self.bare("retry_policy: {retry_on: 5xx, num_retries: 6}\n"))
        let ms: Int64 = 1_000_000
        // r = 0.5: the middle of each range.
        #expect(S.delays(p, failure: .http(503), r: 0.5) == [12_500_000, 25 * ms, 50 * ms, 100 * ms, 125 * ms, 125 * ms])
        let custom = try Self.bare("retry_policy: {retry_on: 5xx, retry_back_off: {base_interval: 0.0005s}}\n")
        #expect(custom.value(of: "policy.backoff.base") == "1ms")
        #expect(custom.notes.contains { $0.contains("below 1ms, which Envoy rounds up to 1ms") })
        #expect(
            S.refusal("retry_policy: {retry_back_off: {base_interval: 1s, max_interval: 0.5s}}\n", file: "e.yaml")?.contains(
                "must be at least base_interval") == true)
        #expect(S.refusal("retry_policy: {retry_back_off: {max_interval: 1s}}\n", file: "e.yaml")?.contains("needs base_interval") == true)
    }

    @Test("retry_budget defaults 20% and 3: max(20% of active + pending, 3) retries at once — 100 → 20, 10 → 3")
    func retryBudget() throws {
        let imported = try Self.bare("circuit_breakers: {thresholds: [{retry_budget: {}}]}\n")
        let p = try S.policy(imported)
        #expect(p.budget == .envoy(.retryBudget))
        guard case .envoy(let e) = p.budget else { return }
        #expect(e.allowedConcurrentRetries(active: 100) == 20)
        #expect(e.allowedConcurrentRetries(active: 10) == 3)
        let own = try S.policy(
            try Self.bare("circuit_breakers: {thresholds: [{priority: HIGH, max_retries: 9}, {max_retries: 7, max_requests: 50}]}\n"))
        // The DEFAULT priority's thresholds (a route's default priority).
        #expect(own.budget == .envoy(EnvoyRetryBudget(percent: 0, minConcurrency: 7)))
        #expect(own.concurrency == ConcurrencyLimit(maxInFlight: 50, whenFull: .reject))
    }

    @Test(
        "retry_on conditions retry what the router filter's docs say",
        arguments: [
            (
                "5xx", [NormalizedError.http(500), .http(503), .http(599), .timedOut(.response), .transport(.connectionReset)],
                [NormalizedError.http(429), .http(409)]
            ),
            ("gateway-error", [.http(502), .http(503), .http(504), .timedOut(.response), .transport(.offline)], [.http(500)]),
            ("reset", [.timedOut(.response), .transport(.connectionReset)], [.http(503)]),
            ("connect-failure", [.transport(.connectionRefused)], [.timedOut(.response), .http(503)]),
            ("retriable-4xx", [.http(409)], [.http(400), .http(503)]),
            ("retriable-status-codes", [.http(429), .http(418)], [.http(503)]),
            // x-envoy-retry-grpc-on: the grpc-status in the response headers, never a reset.
            ("unavailable,resource-exhausted", [.http(503), .http(429)], [.http(500), .transport(.offline)])
        ])
    func conditions(_ retryOn: String, _ retried: [NormalizedError], _ notRetried: [NormalizedError]) throws {
        let p = try S.policy(try Self.bare("retry_policy: {retry_on: \"\(retryOn)\", retriable_status_codes: [429, 418]}\n"))
        for f in retried { #expect(S.retries(p, f), "\(f)") }
        for f in notRetried { #expect(!S.retries(p, f), "\(f)") }
    }

    /// The router filter's docs (`x-envoy-retry-grpc-on`): "retry if the gRPC status code in the
    /// response headers is" cancelled (1), deadline-exceeded (4), internal (13),
    /// resource-exhausted (8), unavailable (14). A per-try timeout is a local reset
    /// (`Filter::onPerTryTimeoutCommon`), retried only by `5xx`, `gateway-error` and `reset`
    /// (`RetryStateImpl::wouldRetryFromReset`); a failed connection only by those and `connect-failure`.
    @Test(
        "gRPC conditions retry the statuses their codes stand for, never a per-try timeout or a transport failure",
        arguments: [
            ("unavailable,deadline-exceeded,cancelled", [NormalizedError.http(502), .http(503), .http(504), .http(499)]),
            ("internal", [.http(500)]),
            ("resource-exhausted", [.http(429)])
        ])
    func grpcConditions(_ retryOn: String, _ retried: [NormalizedError]) throws {
        let imported = try Self.bare("retry_policy: {retry_on: \"\(retryOn)\"}\n")
        #expect(imported.value(of: "policy.classify.retry_timeouts") == "false")
        #expect(imported.value(of: "policy.classify.retry_transport") == "false")
        let p = try S.policy(imported)
        for f in retried { #expect(S.retries(p, f), "\(f)") }
        for f in [NormalizedError.timedOut(.response), .transport(.offline), .transport(.connectionReset), .transport(.connectionRefused)] {
            #expect(!S.retries(p, f), "\(f)")
        }
        // With a condition that retries resets, the per-try timeout is retried again.
        let withReset = try S.policy(try Self.bare("retry_policy: {retry_on: \"\(retryOn),reset\"}\n"))
        #expect(S.retries(withReset, .timedOut(.response)) && S.retries(withReset, .transport(.offline)))
    }

    @Test("internal retries the simulated 500, which stands for UNKNOWN and DATA_LOSS too: a note says so")
    func internalNote() throws {
        let imported = try Self.bare("retry_policy: {retry_on: internal}\n")
        #expect(imported.value(of: "policy.classify.retryable_statuses") == "500")
        #expect(
            imported.notes.contains(
                "retry_policy.retry_on: internal: the simulated 500 stands for INTERNAL, UNKNOWN and DATA_LOSS alike (google/rpc/code.proto maps them all to HTTP 500): it is retried, though Envoy retries only grpc-status 13"
            ))
    }

    @Test("Retry-After through rate_limited_retry_back_off: exactly the header, discarded above max_interval (default 300s), a note on the jitter")
    func rateLimited() throws {
        let imported = try Self.bare(
            "retry_policy:\n  retry_on: retriable-status-codes\n  retriable_status_codes: [429]\n  rate_limited_retry_back_off:\n    reset_headers: [{name: Retry-After}, {name: X-RateLimit-Reset, format: UNIX_TIMESTAMP}]\n"
        )
        let p = try S.policy(imported)
        #expect(p.serverHints == ServerHintPolicy(mode: .replace, ceiling: 300_000_000_000, discardAboveCeiling: true))
        #expect(imported.notes.contains { $0.contains("U[i, 1.5·i)") || $0.contains("[i, 1.5·i)") })
        #expect(imported.notes.contains { $0.contains("X-RateLimit-Reset (UNIX_TIMESTAMP): the simulated server sends no such header") })
        // 429 with Retry-After 2 s: the next attempt exactly 2 s later.
        #expect(S.delays(p, failure: .http(429, retryAfter: 2_000_000_000), r: 0.5) == [2_000_000_000])
    }

    @Test("routes and clusters found in Envoy's own configuration, by name")
    func configuration() throws {
        let config = """
            static_resources:
              listeners:
              - filter_chains:
                - filters:
                  - typed_config:
                      route_config:
                        virtual_hosts:
                        - name: shop
                          retry_policy: {retry_on: gateway-error, num_retries: 4}
                          routes:
                          - name: checkout
                            route: {cluster: cart, timeout: 3s, retry_policy: {retry_on: 5xx, per_try_timeout: 0.5s}}
                          - name: browse
                            route: {cluster: catalog}
              clusters:
              - name: cart
                connect_timeout: 1s
                circuit_breakers: {thresholds: [{max_retries: 5}]}
              - name: catalog
            """
        let checkout = try S.importing(config, PolicyImportRequest(route: "checkout"), file: "envoy.yaml")
        #expect(checkout.value(of: "policy.max_attempts") == "2")
        #expect(checkout.value(of: "clients.timeout") == "500ms")
        #expect(checkout.value(of: "policy.max_elapsed") == "3s")
        #expect(checkout.value(of: "policy.budget.min_concurrency") == "5")
        // The route has no retry_policy of its own: its virtual host's applies.
        let browse = try S.importing(config, PolicyImportRequest(route: "browse"), file: "envoy.yaml")
        #expect(browse.value(of: "policy.max_attempts") == "5")
        #expect(browse.value(of: "policy.classify.retryable_statuses") == "502-504")
        #expect(browse.value(of: "policy.budget.min_concurrency") == "3")
        let orphan = try S.importing("routes: [{name: r, route: {cluster: elsewhere}}]\n", file: "envoy.yaml")
        #expect(
            orphan.notes.contains(
                "the route's cluster 'elsewhere' is not in the file: Envoy's default thresholds apply (max_retries 3, max_requests 1024)"))
        #expect(S.refusal(config, file: "envoy.yaml")?.contains("has 2 routes: name one with --route") == true)
        #expect(S.refusal(config, PolicyImportRequest(route: "chekout"), file: "envoy.yaml")?.contains("did you mean 'checkout'?") == true)
    }

    @Test("what Envoy does that the simulator does not is refused with its path, or noted when listed to ignore")
    func refusals() throws {
        let predicate = "retry_policy: {retry_on: 5xx, retry_host_predicate: [{name: envoy.retry_host_predicates.previous_hosts}]}\n"
        #expect(
            S.refusal(predicate, file: "e.yaml")?.hasPrefix("e.yaml:1:53: field 'retry_policy.retry_host_predicate': host selection is not modelled")
                == true)
        #expect(
            try S.importing(predicate, PolicyImportRequest(ignore: ["retry_host_predicate"]), file: "e.yaml").notes.contains {
                $0.contains("ignored as asked")
            })
        let pools = "circuit_breakers: {thresholds: [{max_connections: 10}]}\n"
        #expect(S.refusal(pools, file: "e.yaml")?.contains("connections and connection pools are not modelled") == true)
        #expect(S.refusal("retry_policy: {retry_on: \"5xx,bogus\"}\n", file: "e.yaml")?.contains("'bogus' is not a retry condition") == true)
        #expect(S.refusal("retry_policy: {num_retries: -1}\n", file: "e.yaml")?.contains("must not be negative") == true)
        #expect(S.refusal("retry_policy: {num_retries: many}\n", file: "e.yaml")?.contains("expected a whole number (got the text 'many')") == true)
        #expect(S.refusal("retry_policy: {per_try_timeout: -2s}\n", file: "e.yaml")?.contains("must not be negative") == true)
        #expect(
            S.refusal("retry_policy: {per_try_timeout: 2}\n", file: "e.yaml")
                == "e.yaml:1:33: field 'retry_policy.per_try_timeout': expected a duration as text in seconds with an s, such as \"0.1s\" (got the number 2)"
        )
        #expect(S.refusal("retry_policy: {numretries: 2}\n", file: "e.yaml")?.contains("did you mean 'num_retries'?") == true)
        #expect(
            S.refusal("routes: [{name: r, route: {hedge_policy: {hedge_on_per_try_timeout: true}}}]\n", file: "e.yaml")
                == "e.yaml:1:42: field 'routes[0].route.hedge_policy': Envoy's hedging is not modelled: it keeps an attempt that reached its per-try timeout running while the retry policy sends the next (hedge_on_per_try_timeout), where the simulator hedges after a delay, without backoff (policy.hedge.*, on a call graph's calls)"
        )
        #expect(
            S.refusal("retry_policy: {}\n", PolicyImportRequest(service: "shop.Cart"), file: "e.yaml")
                == "e.yaml: is Envoy settings, which has no service to pick (--service, policy.import.service)")
        #expect(S.refusal("retry_policy: [1]\n", file: "e.yaml") == "e.yaml:1:15: field 'retry_policy': expected a mapping of fields (got a list)")
        #expect(S.refusal("retry_policy: {retry_on: 5xx\n", file: "e.yaml")?.hasPrefix("e.yaml:2:") == true)
    }

    @Test(
        "import, export, import gives the same keys and the same policy, and the export loses nothing",
        arguments: [
            "retry_policy: {retry_on: 5xx}\n",
            """
            retry_policy:
              retry_on: gateway-error,retriable-4xx,retriable-status-codes
              retriable_status_codes: [429, 418]
              num_retries: 4
              per_try_timeout: 0.75s
              retry_back_off: {base_interval: 0.1s, max_interval: 3s}
              rate_limited_retry_back_off: {reset_headers: [{name: retry-after}], max_interval: 60s}
            timeout: 0s
            circuit_breakers:
              thresholds:
                - retry_budget: {budget_percent: {value: 12.5}, min_retry_concurrency: 2}
                  max_requests: 64
            """,
            "retry_policy: {retry_on: connect-failure, num_retries: 0}\ncircuit_breakers: {thresholds: [{max_retries: 0}]}\n"
        ])
    func roundTrip(_ text: String) throws {
        try S.checkRoundTrip(text, PolicyImportRequest(), file: "envoy.yaml")
    }
}
