import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ServeCommand {
    /// Waits until Dispatch has registered its signal sources for `signals` with the kernel.
    ///
    /// `DispatchSourceSignal.resume()` returns before the source is armed: on Linux the manager
    /// thread later installs its own `sigaction` handler and a signalfd. Until then the signal is
    /// still `SIG_IGN`, so a SIGTERM sent as soon as the listening line shows would be discarded.
    /// The handler replacing `SIG_IGN` is the sign that delivery is in Dispatch's hands (a signal
    /// caught by it before the signalfd exists is re-raised to the manager thread). Returns false
    /// if that did not happen within `timeout` seconds.
    static func awaitSignalRegistration(_ signals: [Int32], timeout: TimeInterval = 5) -> Bool {
        let deadline = Date() + timeout
        var pending = signals
        while true {
            pending.removeAll { !isIgnored($0) }
            if pending.isEmpty { return true }
            if Date() >= deadline { return false }
            usleep(200)
        }
    }

    private static func isIgnored(_ sig: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(sig, nil, &current) == 0 else { return false }
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
