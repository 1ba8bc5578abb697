"""The whole test suite under ASan and TSan (full run only)."""
import os
import re
import subprocess
import time

from ..common import ROOT, TMP, row


def scenario_sanitizers(args):
    for san in ("address", "thread"):
        scratch = os.path.join(ROOT, f".build-torture-{san}")
        logp = os.path.join(TMP, f"swift-test-{san}.log")
        t0 = time.time()
        env = dict(os.environ)
        if san == "address":
            # Leak checking off as in Fuzz/run-core.sh (Swift keeps enum payload pointers in spare
            # bits, so LSan sees live objects as leaked); scripts/asan.supp explains the one suppression.
            env.setdefault("ASAN_OPTIONS", "detect_leaks=0:suppressions=" + os.path.join(ROOT, "scripts", "asan.supp"))
        with open(logp, "w") as lf:
            p = subprocess.run(["nice", "-n", "10", "swift", "test", f"--sanitize={san}", "--scratch-path", scratch],
                               cwd=ROOT, stdout=lf, stderr=subprocess.STDOUT, env=env)
        text = open(logp, errors="replace").read()
        reports = len(re.findall(r"ERROR: (AddressSanitizer|ThreadSanitizer)|WARNING: ThreadSanitizer", text))
        m = re.findall(r"Executed (\d+) tests?, with (\d+) failures?", text)
        summary = f"XCTest {m[-1][0]} tests, {m[-1][1]} failures; " if m and m[-1][0] != "0" else ""
        m2 = re.findall(r"Test run with (\d+) tests? in (\d+) suites? (passed|failed)(?: after [\d.]+ seconds)?"
                        r"(?: with (\d+) issues?)?", text)
        if m2:
            summary += f"swift-testing {m2[-1][0]} tests {m2[-1][2]}" + (f" ({m2[-1][3]} issues)" if m2[-1][3] else "")
        failed_tests = sorted(set(re.findall(r"✘ Test (\w+)\(", text)))
        if failed_tests:
            summary += f"; failed: {', '.join(failed_tests)}"
        row(f"swift test --sanitize={san}", "whole test suite", f"exit {p.returncode}; {summary}",
            f"{reports} sanitizer reports; {time.time()-t0:.0f}s (log {logp})", p.returncode == 0 and reports == 0)
