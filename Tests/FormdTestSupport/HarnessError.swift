/// A test harness failure (connect, send, a response that cannot be read), with what happened.
public struct HarnessError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
