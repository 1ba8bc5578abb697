import FormdHTTP

extension ServiceConfiguration {
    /// Every setting, in documentation order: the one place a key is declared (name, accepted
    /// values, where it goes, meaning). Its default is the initial value of the property it writes.
    /// A test checks that the README's table and `config/formd.json` are what `formd config
    /// --reference` and `formd config --defaults` print from this list.
    package static let settings: [Setting] = [
        .text("server.host", \.http.host,
            "listen address; the container image sets `0.0.0.0`"),
        .integer("server.port", \.http.port, 0...65535,
            "listen port; `0` takes a free one"),
        .automatic("server.io_threads", \.ioThreads, 1...256,
            "I/O loops (epoll threads or Dispatch queues, `server.event_queue`) that own the connections and answer the cheap endpoints (health, readiness, metrics, definitions); `auto`: one per four cores, at least two where there are two cores (epoll), one per core (Dispatch, whose loops are queues, not threads)"),
        .automatic("server.workers", \.workers, 0...1024,
            "threads that run validate and evaluate; `auto`: one per core, none on one core; `0` runs them on the I/O threads. Both `auto`s count the cores the process may run on: on Linux its CPU affinity (`taskset`, a container's cpuset) and cgroup v2 CPU limit (`--cpus 1.5` counts as 2)"),
        .choice(
            "server.event_queue", \.eventQueue, ["auto": nil, "epoll": .epoll, "dispatch": .dispatch],
            "how the I/O loops wait for sockets: `epoll` (a thread per loop in `epoll_wait`; Linux only), `dispatch` (a serial Dispatch queue per loop with read/write sources per socket; portable), or `auto` (epoll on Linux, Dispatch elsewhere). Both run the same connection code; figures for both in docs/BENCHMARKS.md",
            refuse: { kind in
                #if os(Linux)
                nil
                #else
                kind == .epoll ? "epoll exists on Linux only; use \"auto\" or \"dispatch\"" : nil
                #endif
            }),
        .seconds("server.drain_delay_seconds", \.drainDelay, zero: true,
            "on SIGTERM, `/readyz` answers 503 at once but formd keeps accepting and answering, keep-alive connections included, for this long, so that load balancers and Kubernetes endpoints take the replica out before it stops listening; then it drains (`timeouts.shutdown_seconds`) and closes idle connections. A second SIGTERM, or SIGINT, skips the wait. Set it above the balancer's health-check interval times its fall count (the container image and config/kubernetes use `5`); `0`: drain at once"),
        .optionalText("server.tls.cert", \.tlsCert,
            "PEM certificate chain; with `server.tls.key` it turns HTTPS on (TLS 1.2 and 1.3, Mozilla intermediate ciphers, ALPN `http/1.1`). The two must be set together; SIGHUP reloads both without dropping connections"),
        .optionalText("server.tls.key", \.tlsKey,
            "PEM private key"),
        .text("forms.directory", \.formsDirectory,
            "folder of `*.json` definitions (not its sub-folders)"),
        .flag("forms.reload", \.formsReload,
            "notice changed, added and removed files and serve them without a restart (`forms.watch`): a changed file is checked and swapped in atomically; a broken one is logged and the last good version keeps serving. Off: the files found at start-up are served as they were when first read (start-up reads none, see \"Many forms\"), and files added later are not served"),
        .choice(
            "forms.watch", \.formsWatch, ["auto": .auto, "inotify": .inotify, "poll": .poll],
            "how changes are noticed: `inotify` (Linux; a change serves within milliseconds and an idle folder costs nothing, with a full `stat` pass every 30 s as a safety net), `poll` (a `stat` of every file each second and a read of each every minute; for network file systems, whose remote changes inotify does not see), or `auto` (inotify where it can be set up, else poll)"),
        .flag("forms.strict", \.formsStrict,
            "refuse definitions that have warnings (unknown keys, kinds that resemble built-in ones, hide loops, ...) as if they had errors; warnings are logged at `warning` on every load and reload either way"),
        .integer("forms.max_file_bytes", \.maxFileBytes, 1024...1 << 30,
            "definition files larger than this (8 MiB; the bundled forms are under 10 KB) are refused without being read, at start and on reload; 1024 to 1073741824"),
        .integer("forms.max_compiled_bytes", \.maxCompiledBytes, 1 << 20...1 << 40,
            "memory for compiled forms (estimated at 8 bytes per definition byte, docs/BENCHMARKS.md): forms are compiled when first used, and past this the least recently used are dropped and compiled again when next needed (about 0.3 ms for an 8 KB form); what every form keeps besides is its listing entry and its definition gzipped"),
        .integer("limits.max_body_bytes", \.http.maxBodyBytes, 1...1 << 30,
            "larger request bodies get 413 (also after gzip inflation)"),
        .integer("limits.max_header_bytes", \.http.maxHeaderBytes, 256...1 << 20,
            "request line plus headers; larger get 431 (414 for a long target)"),
        .integer("limits.max_connections", \.http.maxConnections, 1...1_000_000,
            "past it, new connections get 503 and are closed"),
        .integer("limits.max_queued_response_bytes", \.http.maxQueuedResponseBytes, 4096...1 << 30,
            "back-pressure: while this many bytes of answers wait for a client that does not read, formd parses (and so reads) no further pipelined request of that connection; it goes on as the client reads (a single larger answer is still sent whole)"),
        .integer("limits.max_total_queued_response_bytes", \.http.maxTotalQueuedResponseBytes, 4096...1 << 40,
            "the same across all connections: past it, every connection that already has an answer waiting stops until its client reads; each connection can always get one answer"),
        .integer("limits.max_instances", \.maxInstances, 1...1_000_000,
            "instances evaluated per repeating section that has no `max_instances` of its own (a section's `max_instances` is its cap): instances past the cap are not evaluated, their keys are listed in `dropped` as `over_limit`, and the section gets the `max_instances` error"),
        .integer("limits.max_changed", \.maxChanged, 1...1_000_000,
            "ids an evaluate request's `changed` may list (repeats included); a longer list is refused with 400 `bad-request` before any work (each id runs its targets once however often it is named)"),
        .integer("limits.max_batch_lines", \.maxBatchLines, 1...1 << 40,
            "lines a batch validation (`POST /forms/{id}/validate/batch`) may have. A batch is streamed, never bounded by `limits.max_body_bytes`: past this, the answer ends with one `batch-too-large` problem line naming the first line not validated, and the rest of the body is not read"),
        .integer("limits.max_batch_line_bytes", \.maxBatchLineBytes, 64...1 << 30,
            "the longest line of a batch; a longer one is answered with a `line-too-long` problem and the other lines are unaffected"),
        .integer("limits.max_batch_bytes", \.maxBatchBytes, 1...1 << 50,
            "the size a batch's body may have (after gzip inflation); past it, as past `limits.max_batch_lines`. A batch's memory does not grow with its size (about 1.5 MiB per batch in flight, docs/BENCHMARKS.md)"),
        .integer("limits.max_text_bytes", \.maxTextBytes, 64...1 << 30,
            "the longest text a text formula may produce (UTF-8 bytes); past it the field has no value and the error `text_too_long`, so templates that repeat each other cannot grow without bound"),
        .seconds("timeouts.header_seconds", \.http.headerTimeout,
            "to receive a complete request head; then 408"),
        .seconds("timeouts.body_seconds", \.http.bodyTimeout,
            "to receive a complete body"),
        .seconds("timeouts.idle_seconds", \.http.idleTimeout,
            "keep-alive idle time"),
        .seconds("timeouts.shutdown_seconds", \.http.shutdownTimeout,
            "drain time on SIGTERM, after `server.drain_delay_seconds`: requests in flight finish, then the rest is closed"),
        .seconds("timeouts.batch_seconds", \.batchSeconds,
            "the time a batch validation may take, from its head to its last line (the client's upload included); then the answer ends with one `batch-timeout` problem line naming the first line not validated, and the rest of the body is not read"),
        .choice(
            "log.level", \.logLevel,
            ["trace": "trace", "debug": "debug", "info": "info", "notice": "notice", "warning": "warning", "error": "error", "critical": "critical"],
            "`trace`, `debug`, `info`, `notice`, `warning`, `error`, `critical`"),
        .choice("log.format", \.logFormat, ["text": .text, "json": .json], "`json`: one JSON object per line"),
        .optionalText("validators.postal_codes", \.postalCodes,
            "JSON file for the `postal_code` check: `{\"0450\": \"Oslo\", ...}` or `[{\"City\": \"Oslo\", \"Code\": \"0450\"}, ...]`"),
        .remoteValidators("validators.remote", \.remoteValidators,
            "remote validators that definitions name with `\"validations\": {\"remote\": \"<name>\"}`, by name: `{\"username\": {\"url\": \"https://users.internal/check\", \"timeout_ms\": 300, \"on_error\": \"fail_closed\", \"cache_ttl_s\": 0, \"max_concurrency\": 16, \"headers\": {\"Authorization\": \"env:USERS_TOKEN\"}, \"send_fields\": [], \"ca_file\": null, \"breaker\": {\"failures\": 5, \"open_ms\": 5000}}}` (only `url` is required; the variable holds the same JSON). URLs come only from here; a definition naming a validator not declared here is not served. Contract, policies and metrics: docs/reference/API.md §11"),
        .list(
            "cors.allowed_origins", \.corsAllowedOrigins, expected: "a list of origins or \"*\"",
            check: { o in o == "*" || CORSPolicy.isOrigin(o) ? nil : "\"\(o)\" is not an origin (scheme://host[:port], no path)" },
            "origins whose web pages may call formd from a browser: a JSON list of `scheme://host[:port]` (the variable: comma-separated), or `*` for any. Allowed origins get preflight `OPTIONS` answers (204, `Access-Control-Allow-Methods`, `-Allow-Headers` `Content-Type, If-Match, If-None-Match, Accept-Language, X-Request-Id`, `-Max-Age` 600) and `Access-Control-Allow-Origin` and `-Expose-Headers: ETag, X-Request-Id, Content-Language, Retry-After, Formd-Forms-Digest, Formd-Batch-Counts` on every answer, with `Vary: Origin`; other origins get no CORS header. Empty (the default): nothing changes"),
        .optionalURL("html.success_url", \.htmlSuccessURL,
            "where a browser goes after a valid HTML form post that asks for HTML (`Accept` with `text/html`, not `application/json`), as a 303 with `?form=<id>` added; unset: such posts get the JSON answer. A path (`/thanks`) or an `http(s)://` URL"),
        .optionalURL("html.error_url", \.htmlErrorURL,
            "the same for an invalid post, with `&fields=<ids>` of the fields in error added (the form page then shows what to fix); unset: the JSON answer (422)"),
        .flag("ui.enabled", \.uiEnabled,
            "serve the form page at `/` (pick a form, use it live, see requests and answers). `false` in production if you do not want it: `/` then answers 404. The embeddable client (`/client/formd.js`, `/client/formd.css`) is served either way"),
    ]
}
