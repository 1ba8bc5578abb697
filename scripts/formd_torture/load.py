"""The open-loop load generator (`Load`) and the baseline request mix."""
import random
import threading
import time

from .client import HTTPError_, build_request, connect, read_response
from .common import BASELINE_P99_MS, SIGNUP_OK


def pct(values, p):
    if not values:
        return float("nan")
    v = sorted(values)
    k = min(len(v) - 1, max(0, int(round(p / 100.0 * len(v) + 0.5)) - 1))
    return v[k]


class Load:
    """Open-loop load: `rate` req/s spread over `conns` keep-alive connections, each request on a
    fixed schedule; latency counts from the scheduled send time (no coordinated omission).
    `make()` returns (method, path, body, headers, check) where check(status, body) -> error or None."""

    def __init__(self, port, rate, make, conns=4, duration=None):
        self.port, self.rate, self.make, self.conns = port, rate, make, conns
        self.duration = duration
        self.lat, self.errors, self.err_samples = [], 0, []
        self.sent = 0
        self.stop_ev = threading.Event()
        self.lock = threading.Lock()
        self.records = []  # (sent_wall, done_wall or None, ok)
        self.threads = []

    def start(self):
        self.t0 = time.perf_counter()
        for i in range(self.conns):
            t = threading.Thread(target=self._run, args=(i,), daemon=True)
            t.start()
            self.threads.append(t)
        return self

    def _err(self, what):
        with self.lock:
            self.errors += 1
            if len(self.err_samples) < 5:
                self.err_samples.append(what)

    def _run(self, i):
        interval = self.conns / self.rate
        nxt = self.t0 + i * interval / self.conns
        s, rest = None, b""
        while not self.stop_ev.is_set():
            if self.duration and nxt - self.t0 >= self.duration:
                break
            now = time.perf_counter()
            if nxt > now:
                if self.stop_ev.wait(nxt - now):
                    break
            method, path, body, headers, check = self.make()
            sent_at = time.time()
            try:
                if s is None:
                    s, rest = connect(self.port), b""
                s.sendall(build_request(method, path, body, headers))
                sent_at = time.time()  # the whole request is in the kernel's hands
                st, h, b, rest = read_response(s, rest, head_only=(method == "HEAD"))
                done = time.perf_counter()
                err = check(st, b) if check else (None if st < 500 else f"status {st}")
                with self.lock:
                    self.lat.append((done - nxt) * 1000.0)
                    self.sent += 1
                    self.records.append((sent_at, time.time(), err is None))
                if err:
                    self._err(err)
                if h.get("connection", "").lower() == "close":
                    s.close()
                    s = None
            except (OSError, HTTPError_) as e:
                with self.lock:
                    self.sent += 1
                    self.records.append((sent_at, None, False))
                self._err(f"{type(e).__name__}: {e}")
                if s:
                    s.close()
                s = None
                if self.stop_ev.wait(0.05):
                    break
            nxt += interval
        if s:
            s.close()

    def stop(self):
        self.stop_ev.set()
        for t in self.threads:
            t.join(15)

    def wait(self):
        for t in self.threads:
            t.join()

    def summary(self):
        return (f"n={self.sent} p50={pct(self.lat, 50):.1f}ms p99={pct(self.lat, 99):.1f}ms "
                f"max={max(self.lat or [0]):.1f}ms errors={self.errors}")

    def ok(self, p99=BASELINE_P99_MS):
        return self.errors == 0 and self.sent > 0 and pct(self.lat, 99) < p99


def expect(status_ok):
    def check(st, body):
        return None if st in status_ok else f"status {st}: {body[:120]!r}"
    return check


def baseline_make():
    """The baseline mix: validate, evaluate, GET /forms/{id}, /healthz."""
    choices = [
        ("POST", "/forms/signup/validate", SIGNUP_OK, None, expect({200, 422})),
        ("POST", "/forms/signup/evaluate", b'{"values":{"email":"a@b.no"},"changed":["email"]}', None, expect({200})),
        ("GET", "/forms/employment", b"", None, expect({200})),
        ("GET", "/healthz", b"", None, expect({200})),
    ]
    return random.choice(choices)
