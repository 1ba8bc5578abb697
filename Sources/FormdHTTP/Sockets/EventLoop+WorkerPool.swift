import Dispatch

/// A request on its way to the worker pool: what the worker needs to answer it and the loop
/// needs to send the answer. A class: the job goes through a batch, the worker's closure and the
/// answers handed back, and each copy of a struct retained every string and array of the request.
final class PoolJob: @unchecked Sendable {
    let connection: Connection
    /// Taken by the worker (`HTTPRequest.take`), not copied.
    var request: HTTPRequest
    let context: ResponseContext

    init(connection: Connection, request: HTTPRequest, context: ResponseContext) {
        self.connection = connection
        self.request = request
        self.context = context
    }
}

/// Hand-off to the worker pool, in batches. The epoll loop collects the pool requests of one
/// `epoll_wait` round per worker and submits each worker's share as one task, which answers them
/// in turn and hands the answers back a few at a time: a worker thread is woken once per round
/// instead of once per request (each wake is a futex call and, on another core, an interrupt).
/// The Dispatch event queue has no rounds; it submits at once.
extension EventLoop {
    /// Answers at most this many requests before handing the answers back to the loop, so the
    /// first answers of a large round are not held back by the last.
    static let completionChunk = 16

    func submit(_ job: PoolJob) {
        let w = server.workerIndex(for: job.connection.fd)
        if kind == .dispatch {
            runOnWorker(w, [job])
            return
        }
        jobBatches[w].append(job)
        hasJobs = true
    }

    /// Submits the round's batches (epoll loop, once per round).
    func flushJobs() {
        hasJobs = false
        for w in jobBatches.indices where !jobBatches[w].isEmpty {
            let batch = jobBatches[w]
            jobBatches[w].removeAll(keepingCapacity: true)
            runOnWorker(w, batch)
        }
    }

    private func runOnWorker(_ w: Int, _ batch: [PoolJob]) {
        let handler = self.handler, server = self.server
        server.workerQueue(w).async { [self] in
            var done: [(PoolJob, HTTPResponse)] = []
            done.reserveCapacity(min(batch.count, Self.completionChunk))
            for job in batch {
                var response = handler.handle(job.request.take())
                server.compressOnWorker(&response, acceptEncoding: job.context.acceptEncoding, worker: w)
                done.append((job, response))
                if done.count == Self.completionChunk {
                    handBack(done)
                    done.removeAll(keepingCapacity: true)
                }
            }
            if !done.isEmpty { handBack(done) }
        }
    }

    private func handBack(_ answers: [(PoolJob, HTTPResponse)]) {
        execute { for (job, response) in answers { job.connection.complete(response, job.context) } }
    }
}
