import Testing
@testable import FormdService

@Suite struct FormdServiceSmokeTests {
    @Test func moduleLoads() { #expect(Bool(true)) }
}
