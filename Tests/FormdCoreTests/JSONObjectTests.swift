import Testing
@testable import FormdCore

@Suite struct JSONValueTests {
    @Test func objectLookupIsFirstMember() {
        var o = JSONObject()
        o.append("a", .bool(true))
        o.append("a", .null)
        #expect(o["a"] == .bool(true))
        #expect(o["b"] == nil)
    }
}
