import Foundation
import Testing

/// `server.event_queue` (README): auto, epoll or dispatch; the server says which it runs.
@Suite("server.event_queue", .timeLimit(.minutes(2)))
struct EventQueueConfigTests {
    @Test(arguments: ["epoll", "dispatch"]) func theServerRunsTheQueueItWasGiven(_ queue: String) throws {
        let served = try ServedForms(environment: ["FORMD_SERVER_EVENT_QUEUE": queue, "FORMD_LOG_LEVEL": "info"])
        let r = try served.server.request("POST", "/forms/contact/validate", json: #"{"first_name": "Ola"}"#)
        #expect(r.status == 200)
        let log = served.server.child.stderr.wait(until: Date() + 5) { $0.contains("serving") ? $0 : nil } ?? ""
        #expect(log.contains("event_queue=\(queue)"), "\(log)")
    }

    @Test func autoIsEpollOnLinuxAndBadValuesStopStartUp() throws {
        let served = try ServedForms(environment: ["FORMD_SERVER_EVENT_QUEUE": "auto", "FORMD_LOG_LEVEL": "info"])
        let log = served.server.child.stderr.wait(until: Date() + 5) { $0.contains("serving") ? $0 : nil } ?? ""
        #if os(Linux)
        #expect(log.contains("event_queue=epoll"), "\(log)")
        #else
        #expect(log.contains("event_queue=dispatch"), "\(log)")
        #endif
        let folder = try TempFolder()
        _ = try folder.subfolder("Forms")
        let bad = try FormdProcess.run(["serve", "--port", "0", "--set", "server.event_queue=kqueue"], directory: folder.url)
        #expect(bad.status == 2 && bad.stderr.contains("server.event_queue") && bad.stderr.contains("dispatch"), "\(bad.stderr)")
    }

    #if os(Linux)
    /// `auto` threads count the cores the process may run on: started on one CPU (`taskset`, as
    /// in a one-CPU cpuset), the server runs one loop with the handlers on it, not a loop and a
    /// worker per core of the machine.
    @Test func autoThreadsFollowTheCPUAffinity() throws {
        let taskset = "/usr/bin/taskset"
        try #require(FileManager.default.isExecutableFile(atPath: taskset), "util-linux's taskset")
        let served = try ServedForms(
            environment: ["FORMD_SERVER_EVENT_QUEUE": "epoll", "FORMD_LOG_LEVEL": "info"], launcher: [taskset, "-c", "0"])
        let r = try served.server.request("POST", "/forms/contact/validate", json: #"{"first_name": "Ola"}"#)
        #expect(r.status == 200)
        let log = served.server.child.stderr.wait(until: Date() + 5) { $0.contains("serving") ? $0 : nil } ?? ""
        #expect(log.contains("io_threads=1 workers=0"), "\(log)")
    }
    #endif
}
