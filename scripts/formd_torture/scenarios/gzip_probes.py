"""Large gzip answers beside health probes."""
import json
import os
import threading
import time

from ..client import KeepAlive
from ..common import forms_dir, row
from ..load import Load, expect
from ..server import Server
from .engine_limits import flood_form


GZIP_CLIENTS = 4                # clients fetching large compressible answers back to back
GZIP_SECONDS = 10
GZIP_PROBE_RATE = 50            # /healthz probes per second meanwhile
GZIP_PROBE_P99_MS = 20.0        # probe p99 must stay under this


def scenario_gzip_probes(args):
    """Large gzip-compressed answers (evaluate on a worker, definitions on the loop) beside health probes."""
    forms = forms_dir("gzip", {"flood.json": flood_form(None)})
    values = {}
    for i in range(1000):
        values.update({f"rows[{i}].amount": i + 1, f"rows[{i}].p": os.urandom(400).hex()})
    big = json.dumps({"values": values, "changed": []}).encode()
    with Server(args.bin, forms, {}, name="gzip") as srv:
        stop = threading.Event()
        sizes, counts = [], [0]

        def fetch(i):
            ka = KeepAlive(srv.port)
            while not stop.is_set():
                if i % 2 == 0:
                    st, h, b = ka.call("POST", "/forms/flood/evaluate", big,
                                       {"Content-Type": "application/json", "Accept-Encoding": "gzip"})
                else:
                    st, h, b = ka.call("GET", "/openapi.json", b"", {"Accept-Encoding": "gzip"})
                if h.get("content-encoding") == "gzip":
                    sizes.append(len(b))
                counts[0] += 1
            ka.close()
        threads = [threading.Thread(target=fetch, args=(i,), daemon=True) for i in range(GZIP_CLIENTS)]
        for t in threads:
            t.start()
        time.sleep(1)
        probes = Load(srv.port, GZIP_PROBE_RATE, lambda: ("GET", "/healthz", b"", None, expect({200})), conns=2).start()
        time.sleep(GZIP_SECONDS)
        probes.stop()
        stop.set()
        for t in threads:
            t.join(15)
        ok = probes.ok(GZIP_PROBE_P99_MS) and counts[0] > 0 and len(sizes) > 0 and srv.alive()
        row("gzip under probes", f"{GZIP_CLIENTS} clients fetching gzip answers back to back (evaluate {len(big) >> 10} KiB "
            f"in, /openapi.json) + {GZIP_PROBE_RATE} req/s /healthz, {GZIP_SECONDS}s",
            f"probes {probes.summary()}; {counts[0]} large answers, gzip {min(sizes or [0]) >> 10}-{max(sizes or [0]) >> 10} KiB",
            f"probe p99 limit {GZIP_PROBE_P99_MS:.0f}ms", ok)
