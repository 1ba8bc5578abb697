"""Paths, thresholds, the table row printer and the shared fixtures of the torture suite."""
import json
import os
import re
import shutil
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TMP = os.environ.get("TORTURE_TMP", "/tmp/formd-torture")
HOST = "127.0.0.1"

# ---------------------------------------------------------------- thresholds (explicit)
BASELINE_RATE = 50            # req/s of the baseline client while an attack runs
BASELINE_P99_MS = 100.0       # baseline p99 must stay under this, with zero errors
HEADER_TIMEOUT_S = 5          # timeouts.header_seconds for the slow-client runs
BODY_TIMEOUT_S = 5            # timeouts.body_seconds for the slow-client runs
IDLE_TIMEOUT_S = 10           # timeouts.idle_seconds for the slow-client runs
HEAD_GRACE_S = 1.0            # no connection without a complete head lives past header timeout + this
SLOWLORIS_CONNS = 1000
SLOW_BODY_CONNS = 1000
SLOW_READ_CONNS = 500
SLOW_TEST_SECONDS = 30        # each slowhttptest run
IDLE_CONNS = 10000            # idle connection flood
IDLE_NEW_CLIENT_MS = 100.0    # a new client under the idle flood is served within this (max of 20)
IDLE_RSS_PER_CONN_KIB = 8.0   # RSS growth per idle connection must stay under this
IDLE_MAX_THREADS = 16         # thread count of the server with 10k idle connections
MAXCONN_LIMIT = 200           # limits.max_connections for the 503 check
FD_LIMIT = 256                # ulimit -n of the server for the fd-exhaustion check
FD_CLIENTS = 400              # connections opened against it
FD_CPU_MAX = 0.10             # server CPU (fraction of one core) while out of descriptors
FD_RECOVER_S = 2.0            # a fresh request must be served within this after clients close
BOMB_RSS_GROWTH_MIB = 64      # peak RSS growth allowed while a gzip bomb is rejected
BODY_LIMIT = 1048576          # limits.max_body_bytes (the default)
BODY_AT_LIMIT_MS = 50.0       # a submission at the body limit validates within this (max of 10)
REDOS_RATE = 100              # crafted submissions per second
REDOS_SECONDS = 30
REDOS_OTHER_RATE = 50         # other endpoints, concurrently
FUZZ_RUNS = 10_000_000        # executions per libFuzzer target in the full run
RELOAD_SECONDS = 20           # definition edited every second for this long, under load
RELOAD_RATE = 50
SIGTERM_RATE = 400            # steady load when SIGTERM arrives
SIGTERM_CONNS = 32
SIGTERM_ROUNDS_SHORT = 3
SIGTERM_BURST = 300           # connections with a request written just before SIGTERM
SIGTERM_ROUNDS_FULL = 10
SOAK_SECONDS_FULL = 1800      # the figure; --soak-seconds overrides
SOAK_SECONDS_SHORT = 60
SOAK_WARMUP_S = 60            # RSS baseline is taken after this (short: 15 s)
SOAK_RATE = 100
SOAK_RSS_GROWTH = 0.05        # RSS growth after warm-up must stay under 5 %


ROWS = []


def log(*a):
    print("  ..", *a, file=sys.stderr, flush=True)


def host_pressure():
    """CPU pressure of the host (share of the last 60 s in which runnable tasks waited for a CPU):
    other people's work on a shared machine shows up here, and in the latencies."""
    try:
        with open("/proc/pressure/cpu") as f:
            return float(re.search(r"some avg10=[\d.]+ avg60=([\d.]+)", f.read()).group(1))
    except (OSError, AttributeError):
        return None


def row(scenario, load, result, figure, ok):
    p = host_pressure()
    if p is not None:
        load += f" [host CPU pressure {p:.0f}%]"
    r = (scenario, load, result, figure, "pass" if ok else "FAIL")
    ROWS.append(r)
    print("| " + " | ".join(r) + " |", flush=True)
    return ok


# ---------------------------------------------------------------- fixtures
def forms_dir(name, extra=None):
    """A fresh forms folder: the repo's Forms plus `extra` {file: text}."""
    d = os.path.join(TMP, "forms-" + name)
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, "Forms"), d)
    for fn, text in (extra or {}).items():
        with open(os.path.join(d, fn), "w") as f:
            f.write(text)
    return d


SIGNUP_OK = json.dumps({"email": "ola@example.com", "username": "ola_n", "password": "hunter22x",
                        "password_confirmation": "hunter22x"}).encode()


def wait_for(pred, timeout, step=0.2):
    end = time.time() + timeout
    while time.time() < end:
        if pred():
            return True
        time.sleep(step)
    return pred()
