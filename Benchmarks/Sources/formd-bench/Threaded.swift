// `--threads N`: N threads run one prepared scenario at once, each timing its own ops. The
// workload (its form, plan and specs) is shared, as it is by the server's worker threads, so
// every write the engine makes to shared memory (a reference count on the plan, a spec, the key
// hints) moves that memory between cores. `--unshared` gives each thread a workload of its own:
// the same work with nothing shared. The difference is what sharing costs; callgrind cannot
// see it.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One thread's loop, and what it measured (read after the thread is joined).
private final class ThreadJob: @unchecked Sendable {
    let body: () -> Int
    let seconds: Double
    private(set) var ops = 0
    private(set) var nanos = 0.0
    private(set) var sink = 0
    init(body: @escaping () -> Int, seconds: Double) {
        self.body = body
        self.seconds = seconds
    }

    func run() {
        let clock = ContinuousClock()
        let start = clock.now
        var sink = 0
        var ops = 0
        while clock.now - start < .milliseconds(Int64(seconds * 1000)) {
            for _ in 0..<64 { sink &+= body() }
            ops += 64
        }
        let d = clock.now - start
        self.ops = ops
        self.nanos = Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9
        self.sink = sink
    }
}

/// Starts `job.run()` on a thread of its own (not an actor's: the closure must not inherit the
/// main actor's isolation, which the runtime checks).
private func spawn(_ job: ThreadJob) -> pthread_t {
    let box = Unmanaged.passRetained(job).toOpaque()
    #if canImport(Glibc)
    var id = pthread_t()
    #else
    var id: pthread_t?
    #endif
    let rc = pthread_create(&id, nil, { raw in
        Unmanaged<ThreadJob>.fromOpaque(raw!).takeRetainedValue().run()
        return nil
    }, box)
    precondition(rc == 0, "pthread_create failed")
    #if canImport(Glibc)
    return id
    #else
    return id!
    #endif
}

@MainActor func runThreaded(_ names: [String], threads: Int, runs: Int, seconds: Double, shared: Bool) {
    print("formd-bench: release=\(!_isDebugAssertConfiguration()), \(threads) threads, \(shared ? "one shared workload" : "a workload each"), runs=\(runs), ~\(seconds) s each")
    for name in names {
        let s = scenario(name)
        // Shared: one form for all threads; else each its own (the control: the same work with
        // nothing written to shared memory).
        let first = s.prepare()
        let bodies = (0..<threads).map { $0 == 0 || shared ? first : s.prepare() }
        var sink = 0
        for body in bodies { for _ in 0..<1000 { sink &+= body() } }  // warm-up
        var perOp: [Double] = []
        for _ in 0..<runs {
            let jobs = bodies.map { ThreadJob(body: $0, seconds: seconds) }
            let ids = jobs.map(spawn)
            for id in ids { pthread_join(id, nil) }
            // Per thread: its time per op; the run's figure is their mean.
            let mean = jobs.map { $0.nanos / Double($0.ops) }.reduce(0, +) / Double(threads)
            perOp.append(mean)
            for job in jobs { sink &+= job.sink }
        }
        let sorted = perOp.sorted()
        let best = sorted[0]
        let median = sorted[sorted.count / 2]
        print("\(s.name) x\(threads) threads\(shared ? "" : " unshared"): best \(format(.nanoseconds(Int64(best)))) / op per thread, median \(format(.nanoseconds(Int64(median)))) / op per thread (\(Int(Double(threads) * 1e9 / median)) op/s together)   [\(s.what)] (sink \(sink & 1))")
    }
}
