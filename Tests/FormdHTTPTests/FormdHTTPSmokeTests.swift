import Testing
@testable import FormdHTTP

@Suite struct FormdHTTPSmokeTests {
    @Test func moduleLoads() { #expect(Bool(true)) }
}
