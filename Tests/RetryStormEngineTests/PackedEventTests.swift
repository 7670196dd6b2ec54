import RetryStormEngine
import TestSupport
import Testing

/// Values packed into an event's aux byte come back exactly, and a corrupt one is a bug that stops
/// the process rather than a guess.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct PackedEventTests {
    /// Every packer stores a ResponseCode's raw value (0…7, the 7 the contention model's three bits
    /// hold at most, and 8…12, the call graph's failure statuses); anything else is a corrupted event,
    /// which used to be read as a 500. Checked in every build: it costs what the fallback did.
    @Test("a packed response code decodes exactly, and a corrupt one stops the process")
    func packedResponseCodes() async {
        #expect(
            (0...12).map { ResponseCode(packed: UInt8($0)) } == [
                .ok, .shed, .rateLimited, .unauthorized, .badRequest, .serverError, .conflict, .unavailable,
                .dependencyRateLimited, .dependencyError, .badGateway, .dependencyUnavailable, .gatewayTimeout
            ])
        #expect((8...12).map { ResponseCode(packed: UInt8($0)).status } == [429, 500, 502, 503, 504])
        #expect([429, 500, 502, 503, 504].map { ResponseCode(failureStatus: $0).status } == [429, 500, 502, 503, 504])
        await #expect(processExitsWith: .failure) {
            _ = ResponseCode(packed: 13)
        }
    }
}
