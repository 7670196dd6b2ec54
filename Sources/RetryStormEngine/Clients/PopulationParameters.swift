/// A population's client range and the client settings that may differ between populations.
struct PopulationParameters {
    /// Its clients are `firstClient ..< firstClient + clients`.
    let firstClient: Int
    let clients: Int
    /// Nanoseconds (`Int64.max`: no timeout).
    let timeout: Int64
    let connectTimeout: Int64
    let backgroundFraction: Double

    init(firstClient: Int, clients c: Scenario.Clients) {
        self.firstClient = firstClient
        clients = c.count
        timeout = c.timeout ?? .max
        connectTimeout = c.connectTimeout
        backgroundFraction = c.backgroundFraction
    }
}
