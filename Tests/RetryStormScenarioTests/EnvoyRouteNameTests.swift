import RetryStormScenario
import Testing

/// `--route NAME` picks one route of Envoy's configuration. Envoy does not require route names to
/// be unique (a route's `name` is for logs and statistics), so a name two routes share cannot
/// pick one: it is refused, naming both routes' lines, where it once took the first silently.
struct EnvoyRouteNameTests {
    typealias S = PolicyFormatSupport

    /// Routes `checkout` (lines 4 and 8, the second retrying 5 times) and `cart` (line 6).
    static let config = """
        virtual_hosts:
          - name: shop
            routes:
              - name: checkout
                route: {cluster: a, retry_policy: {retry_on: 5xx, num_retries: 2}}
              - name: cart
                route: {cluster: a, retry_policy: {retry_on: 5xx, num_retries: 3}}
              - name: checkout
                route: {cluster: a, retry_policy: {retry_on: 5xx, num_retries: 5}}

        """

    @Test("a name two routes share is refused at the first, naming the lines of both")
    func shared() {
        #expect(
            S.refusal(Self.config, PolicyImportRequest(route: "checkout"), file: "envoy.yaml")
                == "envoy.yaml:4:15: field 'virtual_hosts[0].routes[0].name': 2 routes are named 'checkout', at lines 4 and 8: --route cannot tell them apart; give each route its own name"
        )
    }

    @Test("three routes of one name are all listed")
    func three() {
        let text = Self.config.replacingOccurrences(of: "name: cart", with: "name: checkout")
        #expect(
            S.refusal(text, PolicyImportRequest(route: "checkout"), file: "envoy.yaml")
                == "envoy.yaml:4:15: field 'virtual_hosts[0].routes[0].name': 3 routes are named 'checkout', at lines 4, 6 and 8: --route cannot tell them apart; give each route its own name"
        )
    }

    @Test("a unique name still picks its route when another name is shared: cart's num_retries 3 is 4 attempts")
    func unique() throws {
        let cart = try S.importing(Self.config, PolicyImportRequest(route: "cart"), file: "envoy.yaml")
        #expect(cart.value(of: "policy.max_attempts") == "4")
    }
}
