"""formd torture suite: hostile input, slow clients and faults, with published figures.

    scripts/torture [--short] [--only NAME[,NAME...]] [--list] [--no-build]
                    [--fuzz-runs N] [--soak-seconds S] [--bin PATH]

Runs each scenario against a release build (`swift build -c release --scratch-path
.build-torture`) on 127.0.0.1 only. Every scenario is bounded in time and stops by itself; each
prints one table row:  scenario | load | result | figure | pass/fail. Exit status 1 when any row
fails. `--short` runs the subset that takes under ten minutes (CI). Thresholds are named
constants in scripts/formd_torture/common.py and at the top of each scenario module (one per
attack class, scenarios/). Tools: python3 (standard library), slowhttptest (apt) for the slow clients.
Work files go to $TORTURE_TMP (default /tmp/formd-torture).
"""
import argparse
import os
import subprocess
import sys
import time

from .common import FUZZ_RUNS, ROOT, ROWS, TMP, row
from .scenarios.bodies import scenario_bodies
from .scenarios.engine_limits import scenario_engine_limits
from .scenarios.floods import scenario_floods
from .scenarios.fuzz import scenario_fuzz
from .scenarios.gzip_probes import scenario_gzip_probes
from .scenarios.quadratic import scenario_quadratic_definitions
from .scenarios.redos import scenario_redos
from .scenarios.reload import scenario_huge_definition, scenario_reload, scenario_reload_content
from .scenarios.round3 import scenario_round3
from .scenarios.sanitizers import scenario_sanitizers
from .scenarios.sigterm import scenario_sigterm
from .scenarios.slow import scenario_slow
from .scenarios.soak import scenario_soak
from .scenarios.unread import scenario_unread

SCENARIOS = [  # name, function, in --short
    ("slow", scenario_slow, True),
    ("floods", scenario_floods, True),
    ("bodies", scenario_bodies, True),
    ("redos", scenario_redos, True),
    ("sigterm", scenario_sigterm, True),
    ("reload", scenario_reload, True),
    ("reload-content", scenario_reload_content, True),
    ("huge-file", scenario_huge_definition, True),
    ("engine-limits", scenario_engine_limits, True),
    ("unread", scenario_unread, True),
    ("gzip-probes", scenario_gzip_probes, True),
    ("quadratic", scenario_quadratic_definitions, True),
    ("round3", scenario_round3, True),
    ("soak", scenario_soak, True),
    ("fuzz", scenario_fuzz, True),
    ("sanitizers", scenario_sanitizers, False),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--short", action="store_true", help="only the scenarios CI runs (< 10 minutes)")
    ap.add_argument("--only", help="comma-separated scenario names")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--bin", help="formd binary (default: the release build in .build-torture)")
    ap.add_argument("--fuzz-runs", type=int, default=FUZZ_RUNS)
    ap.add_argument("--fuzz-max-seconds", type=int, default=3600, help="safety cap per fuzz target")
    ap.add_argument("--fuzz-targets", help="comma-separated: http-parser,submission,expression,definition,format")
    ap.add_argument("--soak-seconds", type=int)
    args = ap.parse_args()
    if args.list:
        for n, _, s in SCENARIOS:
            print(n, "(short)" if s else "(full only)")
        return 0
    os.makedirs(TMP, exist_ok=True)
    if not args.bin:
        scratch = os.path.join(ROOT, ".build-torture")
        if not args.no_build:
            print("building release (swift build -c release --scratch-path .build-torture) ...", file=sys.stderr)
            subprocess.run(["swift", "build", "-c", "release", "--scratch-path", scratch, "--product", "formd"],
                           cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        args.bin = os.path.join(scratch, "release", "formd")
    # Servers run in their own work folders: a relative --bin must not depend on that.
    args.bin = os.path.abspath(args.bin)
    only = set(args.only.split(",")) if args.only else None
    print("| scenario | load | result | figure | pass/fail |")
    print("|---|---|---|---|---|", flush=True)
    t_all = time.time()
    for name, fn, in_short in SCENARIOS:
        if only is not None and name not in only:
            continue
        if only is None and args.short and not in_short:
            continue
        t0 = time.time()
        try:
            fn(args)
        except Exception as e:  # a scenario that cannot run is a failed row, not a crash
            import traceback
            traceback.print_exc()
            row(name, "-", f"scenario error: {type(e).__name__}: {e}", "-", False)
        print(f"  .. {name}: {time.time()-t0:.0f}s", file=sys.stderr, flush=True)
    failed = [r for r in ROWS if r[4] != "pass"]
    print(f"\n{len(ROWS)} rows, {len(failed)} failed, {time.time()-t_all:.0f}s", flush=True)
    return 1 if failed else 0
