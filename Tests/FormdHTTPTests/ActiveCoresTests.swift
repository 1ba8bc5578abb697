import Foundation
import Testing
@testable import FormdHTTP

/// The cores the server sizes its threads for (`HTTPServerConfiguration.activeCores`).
struct ActiveCoresTests {
    /// cgroup v2's `cpu.max`: a quota over a period in microseconds, rounded up to whole cores.
    @Test func cgroupLimitIsTheQuotaOverThePeriodRoundedUp() {
        #expect(Sys.cgroupCPULimit("100000 100000\n") == 1)
        #expect(Sys.cgroupCPULimit("150000 100000\n") == 2, "docker --cpus 1.5")
        #expect(Sys.cgroupCPULimit("50000 100000") == 1, "half a core is still a thread")
        #expect(Sys.cgroupCPULimit("400000 100000\n") == 4)
        #expect(Sys.cgroupCPULimit("max 100000\n") == nil, "no limit")
        for text in ["", "\n", "100000", "0 100000", "100000 0", "-5 100000", "1 2 3", "x y"] {
            #expect(Sys.cgroupCPULimit(text) == nil, "\(text.debugDescription)")
        }
    }

    @Test func neverMoreThanTheMachineNorFewerThanOne() {
        let cores = HTTPServerConfiguration.activeCores
        #expect(cores >= 1 && cores <= ProcessInfo.processInfo.activeProcessorCount)
        #if os(Linux)
        #expect(cores <= Sys.affinityCores, "within this process's affinity mask")
        #endif
    }
}
