"""ReDoS: crafted values against backtracking patterns, flooded beside the other endpoints.

Every pattern here is of the linear dialect (docs/REGEX.md): the engine's own Thompson-NFA matcher
decides them in time linear in the value, with no budget and no time-out, so a crafted value is
cheap and gets the true answer. `words` and `dot_star` do match their values (`(\w+\s?)*$`
matches the empty string at the end; `(.*a){12}` finds its twelve `a`s): those submissions are
valid (200), where ICU's budget used to time them out into a `format` error (422)."""
import json
import statistics
import time

from ..client import KeepAlive, request
from ..common import REDOS_OTHER_RATE, REDOS_RATE, REDOS_SECONDS, forms_dir, log, row
from ..load import Load, baseline_make, expect
from ..server import Server, cpu_seconds


# the values that match their pattern (valid submissions); every other one fails `format`
REDOS_MATCHING = {"words", "dot_star"}

REDOS_PATTERNS = {
    "nested_plus": ("(a+)+$", "a" * 4000 + "!"),
    "alternation": ("(a|aa)+$", "a" * 4000 + "!"),
    "words": ("(\\w+\\s?)*$", "word " * 800 + "!"),
    "optional_alt": ("^(a|a?)+$", "a" * 4000 + "!"),
    "digits": ("^(\\d+)*$", "1" * 4000 + "x"),
    "star_twice": ("(x+x+)+y", "x" * 4000),
    "dot_star": ("(.*a){12}", "a" * 1023 + " !"),
    "email": ("^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$",
              "a" * 3000 + "!"),
}


def redos_form():
    fields = [{"id": k, "title": k, "type": "text", "validations": {"format": p}}
              for k, (p, _) in REDOS_PATTERNS.items()]
    return json.dumps({"title": "ReDoS", "groups": [{"id": "g", "title": "g", "sections": [
        {"id": "s", "fields": fields}]}]}, indent=1)


def redos_run(srv, label, bodies, rate, seconds, other_rate):
    """`rate` crafted submissions/s (cycling through `bodies`) plus `other_rate` req/s of the baseline mix."""
    it = iter(range(1 << 62))

    def make_redos():
        return ("POST", "/forms/redos/validate", bodies[next(it) % len(bodies)], None, expect({200, 422}))
    cpu0 = cpu_seconds(srv.pid)
    attack = Load(srv.port, rate, make_redos, conns=8, duration=seconds).start()
    other = Load(srv.port, other_rate, baseline_make, conns=4, duration=seconds).start()
    attack.wait()
    other.wait()
    cpu = cpu_seconds(srv.pid) - cpu0
    return attack, other, cpu / seconds


def scenario_redos(args):
    forms = forms_dir("redos", {"redos.json": redos_form()})
    with Server(args.bin, forms, {}, name="redos") as srv:
        st, _, b, _ = request(srv.port, "GET", "/forms/redos")
        if st != 200:
            return row("ReDoS flood", "-", f"test form not served: {st} {b[:200]!r}", "-", False)
        # cost of one hostile value per pattern, and of all of them in one submission
        one = {k: json.dumps({k: v}).encode() for k, (_, v) in REDOS_PATTERNS.items()}
        per = {}
        ka = KeepAlive(srv.port)
        for k, body in one.items():
            ts = []
            for _ in range(5):
                t0 = time.perf_counter()
                st, _, rb = ka.call("POST", "/forms/redos/validate", body)
                ts.append((time.perf_counter() - t0) * 1000)
                if k in REDOS_MATCHING:
                    assert st == 200, (k, st, rb[:200])
                else:
                    assert st == 422 and json.loads(rb)["errors"][0]["code"] == "format", (k, st, rb[:200])
            per[k] = statistics.median(ts)
        every = json.dumps({k: v for k, (_, v) in REDOS_PATTERNS.items()}).encode()
        ts = []
        for _ in range(5):
            t0 = time.perf_counter()
            st, _, rb = ka.call("POST", "/forms/redos/validate", every)
            ts.append((time.perf_counter() - t0) * 1000)
        ka.close()
        all_ms = statistics.median(ts)
        costs = ", ".join(f"{k} {v:.1f}" for k, v in per.items())
        # the flood: each crafted submission carries one hostile value, cycling through the patterns
        attack, other, cores = redos_run(srv, "one", list(one.values()), REDOS_RATE, REDOS_SECONDS, REDOS_OTHER_RATE)
        ok = other.ok() and attack.errors == 0 and srv.alive()
        row("ReDoS flood", f"{REDOS_RATE} req/s x {REDOS_SECONDS}s, one hostile value/request cycling "
            f"{len(REDOS_PATTERNS)} patterns + {REDOS_OTHER_RATE} req/s other endpoints",
            f"other endpoints {other.summary()}; crafted {attack.summary()}",
            f"server CPU {cores:.2f} cores; ms per hostile value (p50): {costs}", ok)
        if other.err_samples or attack.err_samples:
            log("errors:", other.err_samples, attack.err_samples)
        if args.short:
            return
        # every pattern hostile in one submission: the cost adds up (no per-request budget)
        attack, other, cores = redos_run(srv, "all", [every], REDOS_RATE, REDOS_SECONDS, REDOS_OTHER_RATE)
        ok = other.ok() and attack.errors == 0 and srv.alive()
        row("ReDoS flood, all patterns hostile", f"{REDOS_RATE} req/s x {REDOS_SECONDS}s, {len(REDOS_PATTERNS)} "
            f"hostile values/request + {REDOS_OTHER_RATE} req/s other endpoints",
            f"other endpoints {other.summary()}; crafted {attack.summary()}",
            f"one such request {all_ms:.1f}ms p50; server CPU {cores:.2f} cores", ok)
