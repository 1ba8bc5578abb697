import Foundation

/// The one way tests wait for something asynchronous: polls `check` until it returns a value or
/// the deadline passes. The bound is the deadline, not a guessed sleep; the pause between tries
/// is a condition wait.
public func eventually<T>(within seconds: TimeInterval = 5, every interval: TimeInterval = 0.02, _ check: () throws -> T?)
    rethrows -> T?
{
    let deadline = Date() + seconds
    let pause = NSCondition()
    while true {
        if let v = try check() { return v }
        if Date() >= deadline { return nil }
        pause.lock()
        _ = pause.wait(until: min(deadline, Date() + interval))
        pause.unlock()
    }
}
