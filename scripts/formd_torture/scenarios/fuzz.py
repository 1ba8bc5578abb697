"""libFuzzer targets: corpus replay (--short) or long runs (full)."""
import os
import re
import subprocess
import time

from ..common import ROOT, TMP, log, row


def scenario_fuzz(args):
    env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "detect_leaks=0"))
    targets = [("http-parser", ["Fuzz/run-http-parser.sh"]),
               ("submission", ["Fuzz/run-core.sh", "submission"]),
               ("expression", ["Fuzz/run-core.sh", "expression"]),
               ("definition", ["Fuzz/run-core.sh", "definition"]),
               ("format", ["Fuzz/run-core.sh", "format"])]
    if args.fuzz_targets:
        targets = [t for t in targets if t[0] in args.fuzz_targets.split(",")]
    art = os.path.join(TMP, "fuzz-artifacts") + "/"
    os.makedirs(art, exist_ok=True)
    for name, cmd in targets:
        # --replay builds the binary when needed and replays the committed corpus
        t0 = time.time()
        p = subprocess.run(["nice", "-n", "10"] + cmd + ["--replay"], cwd=ROOT, env=env,
                           capture_output=True, text=True)
        text = p.stdout + p.stderr
        m = re.findall(r"#(\d+)\s+DONE", text) or re.findall(r"#(\d+)\s+\w+", text)
        replayed = m[-1] if m else "?"
        if args.short:
            row(f"fuzz replay {name}", "committed corpus", f"exit {p.returncode}; {replayed} inputs replayed",
                f"{time.time()-t0:.0f}s incl. build", p.returncode == 0)
            if p.returncode != 0:
                log(text[-2000:])
            continue
        if p.returncode != 0:
            row(f"fuzz {name}", "replay", f"replay failed exit {p.returncode}", "-", False)
            log(text[-2000:])
            continue
        fuzz_dir = os.path.join(ROOT, "Fuzz")
        if name == "http-parser":
            bin_ = os.path.join(fuzz_dir, ".build-fuzz/http-parser-fuzzer")
            fargs = ["-max_len=4096", "-timeout=5", "-dict=" + os.path.join(fuzz_dir, "http.dict"),
                     os.path.join(fuzz_dir, ".build-fuzz/corpus"), os.path.join(fuzz_dir, "corpus/http-parser")]
        else:
            bin_ = os.path.join(fuzz_dir, ".build-fuzz/formdcore-fuzzer")
            env["FORMD_FUZZ_TARGET"] = name
            os.makedirs(os.path.join(fuzz_dir, f".build-fuzz/corpus-{name}"), exist_ok=True)
            # expressions: 1 KiB (see Fuzz/run-core.sh)
            fargs = ["-max_len=" + ("1024" if name == "expression" else "8192"), "-timeout=10", "-rss_limit_mb=2048",
                     os.path.join(fuzz_dir, f".build-fuzz/corpus-{name}"), os.path.join(fuzz_dir, f"corpus/{name}")]
        t0 = time.time()
        known = set(os.listdir(art))
        logp = os.path.join(TMP, f"fuzz-{name}.log")
        with open(logp, "w") as lf:
            p = subprocess.run(["nice", "-n", "10", bin_, f"-runs={args.fuzz_runs}",
                                f"-max_total_time={args.fuzz_max_seconds}", "-print_final_stats=1",
                                "-artifact_prefix=" + art] + fargs, cwd=TMP, env=env, stdout=lf, stderr=subprocess.STDOUT)
        text = open(logp, errors="replace").read()
        done = re.findall(r"#(\d+)\s+DONE.*?exec/s:\s*(\d+)", text)
        execs = int(done[-1][0]) if done else 0
        rate = int(done[-1][1]) if done else 0
        elapsed = time.time() - t0
        m = re.search(r"stat::number_of_executed_units:\s*(\d+)", text)
        if m:
            execs = int(m.group(1))
        if execs and elapsed > 0:
            rate = int(execs / elapsed)
        findings = [f for f in set(os.listdir(art)) - known
                    if f.split("-")[0] in ("crash", "leak", "timeout", "oom", "slow")]
        ok = p.returncode == 0 and not findings
        row(f"fuzz {name}", f"-runs={args.fuzz_runs} (cap {args.fuzz_max_seconds}s)",
            f"exit {p.returncode}; findings {len(findings)}" + (f" {findings}" if findings else ""),
            f"{execs:,} executions, {rate:,} exec/s, {elapsed:.0f}s", ok and execs >= args.fuzz_runs)
