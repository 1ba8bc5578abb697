"""Definitions that were quadratic to compile: very many targets or options."""
import json
import os
import shutil
import subprocess
import time

from ..common import TMP, row


QUADRATIC_TARGETS = 100_000     # targets on one field (the compiler's dedup was quadratic: 25 s)
QUADRATIC_OPTIONS = 40_000      # options of one select (quadratic: 4 s)
QUADRATIC_CHECK_S = 5.0         # `formd check` of each within this


def scenario_quadratic_definitions(args):
    """Definitions with very many targets or options load in linear time."""
    d = os.path.join(TMP, "quadratic")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    targets = [{"id": f"f{i % 1000}", "type": "field", "action": "hide" if i % 2 else "show",
                "condition": f"$src == {i}"} for i in range(QUADRATIC_TARGETS)]
    fields = [{"id": "src", "type": "count", "targets": targets}] + [{"id": f"f{i}", "type": "text"} for i in range(1000)]
    with open(os.path.join(d, "targets.json"), "w") as f:
        json.dump([{"sections": [{"id": "s", "fields": fields}]}], f)
    options = [{"id": i, "title": f"option {i}"} for i in range(QUADRATIC_OPTIONS)]
    with open(os.path.join(d, "options.json"), "w") as f:
        json.dump([{"sections": [{"id": "s", "fields": [{"id": "sel", "type": "select", "values": options}]}]}], f)
    results, ok = [], True
    for name in ("targets", "options"):
        path = os.path.join(d, name + ".json")
        t0 = time.time()
        chk = subprocess.run([args.bin, "check", path], capture_output=True, text=True, timeout=120, cwd=TMP)
        took = time.time() - t0
        ok &= chk.returncode == 0 and took < QUADRATIC_CHECK_S
        results.append(f"{name}: exit {chk.returncode} in {took:.2f}s ({os.path.getsize(path) >> 10} KiB)")
    row("quadratic definitions", f"formd check: {QUADRATIC_TARGETS} targets on one field; {QUADRATIC_OPTIONS} options",
        "; ".join(results), f"limit {QUADRATIC_CHECK_S:.0f}s each; size bounded by forms.max_file_bytes", ok)
