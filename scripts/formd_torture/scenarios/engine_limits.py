"""Engine limits (round two): exponential text, out-of-range numbers, instance floods."""
import json
import time

from ..client import request
from ..common import BASELINE_RATE, forms_dir, row
from ..load import Load, baseline_make, pct
from ..server import Server, rss_kib


EXPO_LINKS = 34                 # the attacker's form: t{i} = "t{i-1} t{i-1}", 2^34 bytes unbounded
EXPO_MS = 200.0                 # each such request answered within this
NUMBER_LITERALS = ["1e200", "-1e200", "1e400", "-1e-200", "1e165", "9.99e164"]
FLOOD_INSTANCES = 4000          # instances sent to sections capped at 50 and (no max) at the engine's 1000
FLOOD_MS = 250.0                # each flood request answered within this
FLOOD_SECONDS = 8


def expo_form():
    fields = [{"id": "t0", "type": "text", "value": "x"}]
    fields += [{"id": f"t{i}", "type": "text", "formula": f"t{i-1} t{i-1}"} for i in range(1, EXPO_LINKS + 1)]
    return json.dumps({"groups": [{"sections": [{"id": "s", "fields": fields}]}]})


def flood_form(max_instances):
    section = {"id": "rows", "type": "dynamic", "action_title": "Add", "fields": None}
    if max_instances:
        section["max_instances"] = max_instances
    return json.dumps({"groups": [{"sections": [
        {"id": "top", "fields": [{"id": "total", "type": "float", "formula": "sum(rows[*].amount)"}]}, section]}],
        "templates": {"sections": [{"id": "rows", "fields": [
            {"id": "rows[:index].amount", "type": "float"},
            {"id": "rows[:index].share", "type": "float", "formula": "$rows[:index].amount / sum(rows[*].amount)"},
            {"id": "rows[:index].p", "type": "text", "targets": [{"id": "rows[:index].q", "type": "field", "action": "hide"}]},
            {"id": "rows[:index].q", "type": "text", "targets": [{"id": "rows[:index].p", "type": "field", "action": "hide"}]},
        ]}]}})


def scenario_engine_limits(args):
    """Exponential text, out-of-range numbers and instance floods, beside the baseline load."""
    forms = forms_dir("engine-limits", {"expo.json": expo_form(), "flood50.json": flood_form(50),
                                         "flood.json": flood_form(None)})
    with Server(args.bin, forms, {}, name="engine-limits") as srv:
        rss0 = rss_kib(srv.pid)
        load = Load(srv.port, BASELINE_RATE, baseline_make, conns=4).start()
        # exponential text
        times, statuses, codes = [], set(), set()
        for _ in range(20):
            t0 = time.perf_counter()
            st, _, b, _ = request(srv.port, "POST", "/forms/expo/validate", b"{}", {"Content-Type": "application/json"})
            times.append((time.perf_counter() - t0) * 1000)
            statuses.add(st)
            if st == 422:
                codes |= {e["code"] for e in json.loads(b)["errors"]}
        expo_ok = statuses == {422} and codes == {"text_too_long"} and max(times) < EXPO_MS
        row("exponential text", f"{EXPO_LINKS} chained text formulas (2^{EXPO_LINKS} bytes unbounded) x20 + "
            f"{BASELINE_RATE} req/s baseline", f"statuses {sorted(statuses)}, codes {sorted(codes)}; max {max(times):.1f}ms",
            f"RSS {rss0/1024:.0f}->{rss_kib(srv.pid)/1024:.0f} MiB; bound limits.max_text_bytes", expo_ok and srv.alive())
        # out-of-range numbers
        verdicts = {}
        for lit in NUMBER_LITERALS:
            body = ('{"employment_type": "permanent", "bonus": %s}' % lit).encode()
            st, _, b, _ = request(srv.port, "POST", "/forms/employment/validate", body, {"Content-Type": "application/json"})
            errs = json.loads(b).get("errors", []) if st in (200, 422) else []
            verdicts[lit] = [e["code"] for e in errs if e.get("field") == "bonus"]
        want = {lit: ["type"] for lit in NUMBER_LITERALS[:5]}
        want["9.99e164"] = ["max_value"]
        row("out-of-range numbers", f"{len(NUMBER_LITERALS)} literals for employment.bonus (float, 0..200000)",
            ", ".join(f"{k}: {v}" for k, v in verdicts.items()), "no silent pass: type or max_value", verdicts == want)
        # instance floods
        values = {}
        for i in range(FLOOD_INSTANCES):
            values.update({f"rows[{i}].amount": i + 1, f"rows[{i}].p": "a", f"rows[{i}].q": "b"})
        flood = json.dumps(values).encode()
        ftimes, fst, end = [], set(), time.time() + FLOOD_SECONDS
        while time.time() < end:
            for form in ("flood50", "flood"):
                t0 = time.perf_counter()
                st, _, b, _ = request(srv.port, "POST", f"/forms/{form}/validate", flood, {"Content-Type": "application/json"})
                ftimes.append((time.perf_counter() - t0) * 1000)
                fst.add(st)
        load.stop()
        ok = fst == {422} and max(ftimes) < FLOOD_MS and load.ok() and srv.alive()
        row("instance flood", f"{FLOOD_INSTANCES} instances ({len(flood) >> 10} KiB) of aggregate shares and "
            f"mutually hiding fields, max_instances 50 / engine cap 1000, back to back for {FLOOD_SECONDS}s + "
            f"{BASELINE_RATE} req/s baseline", f"n={len(ftimes)} p50={pct(ftimes, 50):.1f}ms max={max(ftimes):.1f}ms "
            f"statuses {sorted(fst)}; baseline {load.summary()}", f"limit {FLOOD_MS:.0f}ms per request", ok)
