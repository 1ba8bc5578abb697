"""Definition files changing under load: edits (good and broken), content-only rewrites, a huge file."""
import json
import os
import re
import statistics
import subprocess
import time

from ..client import KeepAlive, metrics, request
from ..common import BASELINE_RATE, RELOAD_RATE, RELOAD_SECONDS, TMP, forms_dir, row, wait_for
from ..load import Load, baseline_make
from ..server import Server, hwm_kib


RELOAD_BASE = {"title": "Reload", "groups": [{"id": "g", "title": "g", "sections": [{"id": "s", "fields": [
    {"id": "name", "title": "Name", "type": "text", "validations": {"required": True}},
    {"id": "code", "title": "Code", "type": "text"}]}]}]}


def reload_versions():
    a = json.loads(json.dumps(RELOAD_BASE))
    b = json.loads(json.dumps(RELOAD_BASE))
    b["groups"][0]["sections"][0]["fields"][1]["validations"] = {"required": True}  # B: code required too
    a_txt = json.dumps(a, indent=1)
    b_txt = json.dumps(b, indent=2)
    broken = [a_txt[: len(a_txt) // 2],  # truncated JSON
              json.dumps(dict(a, groups=[{"id": "g", "title": "g", "sections": [{"id": "s", "fields": [
                  {"id": "name", "title": "Name", "type": "text", "validations": {"format": "(unclosed"}}]}]}]),
                  indent=1),  # regex that does not compile
              b_txt.replace('"required": true', '"required": "yes"', 1)]
    return a_txt, b_txt, broken


def scenario_reload(args):
    a_txt, b_txt, broken = reload_versions()
    forms = forms_dir("reload", {"reload.json": a_txt})
    path = os.path.join(forms, "reload.json")
    with Server(args.bin, forms, {"FORMD_FORMS_RELOAD": "true"}, name="reload") as srv:
        etag = {}
        st, h, _, _ = request(srv.port, "GET", "/forms/reload")
        etag["A"] = h.get("etag")
        with open(path, "w") as f:
            f.write(b_txt)
        wait_for(lambda: request(srv.port, "GET", "/forms/reload")[1].get("etag") != etag["A"], 10)
        etag["B"] = request(srv.port, "GET", "/forms/reload")[1].get("etag")
        if not etag["A"] or not etag["B"] or etag["A"] == etag["B"]:
            return row("reload under load", "-", f"could not learn both ETags: {etag}", "-", False)
        seen = {"A": 0, "B": 0}
        mism = []

        def check(st, body):
            # {"name": "x"}: A (code optional) -> 200 valid; B (code required) -> 422 with a code error
            try:
                d = json.loads(body)
            except ValueError:
                return f"status {st}: not JSON"
            v = d.get("version")
            which = [k for k, e in etag.items() if e == v]
            if len(which) != 1:
                return f"status {st}: unknown version {v}"
            codes = [e.get("code") for e in d.get("errors", []) if e.get("field") == "code"]
            expect_b = which[0] == "B"
            if (st == 422 and codes == ["required"]) != expect_b or (st == 200) == expect_b:
                mism.append((which[0], st))
                return f"status {st} does not match version {which[0]}"
            seen[which[0]] += 1
            return None

        def make():
            return ("POST", "/forms/reload/validate", b'{"name":"x"}', None, check)
        ka = KeepAlive(srv.port)
        fails0 = metrics(ka).get("formd_reload_failures_total", 0)
        load = Load(srv.port, RELOAD_RATE, make, conns=4, duration=RELOAD_SECONDS).start()
        seq = []
        for i in range(RELOAD_SECONDS):
            text = [a_txt, broken[i // 2 % 3], b_txt, broken[(i // 2 + 1) % 3]][i % 4]
            with open(path, "w") as f:  # in place, like an editor without atomic save
                f.write(text)
            seq.append("good" if text in (a_txt, b_txt) else "broken")
            time.sleep(1)
        load.wait()
        fails = metrics(ka).get("formd_reload_failures_total", 0) - fails0
        ka.close()
        ok = load.errors == 0 and load.sent > 0 and seen["A"] > 0 and seen["B"] > 0 and srv.alive()
        row("definition reload under load", f"{RELOAD_RATE} req/s x {RELOAD_SECONDS}s, file rewritten every 1s "
            f"({seq.count('good')} good, {seq.count('broken')} broken)",
            f"{load.summary()}; answered by A {seen['A']}, B {seen['B']}",
            f"reload failures counted {fails:.0f}; every response matched exactly one good ETag" if not load.errors
            else f"errors: {load.err_samples[:3]}", ok)


CONTENT_RELOAD_ROUNDS = 5       # same-size, same-mtime, same-inode rewrites (cp -p)
CONTENT_RELOAD_S = 2.0          # each must be served within this
CONTENT_RELOAD_RATE = 50


def scenario_reload_content(args):
    """An edit that keeps size, mtime and inode (cp -p of an edited copy) is still served."""
    def text(title):
        return json.dumps([{"id": "g", "title": title, "sections": [{"id": "s", "fields": [
            {"id": "name", "title": "Name", "type": "text"}]}]}])
    versions = [text("content version A"), text("content version B")]
    forms = forms_dir("reload-content", {"rc.json": versions[0]})
    path = os.path.join(forms, "rc.json")

    def title():
        st, _, b, _ = request(srv.port, "GET", "/forms")
        return {f["id"]: f["title"] for f in json.loads(b)["forms"]}.get("rc") if st == 200 else None

    with Server(args.bin, forms, {"FORMD_FORMS_RELOAD": "true"}, name="reload-content") as srv:
        load = Load(srv.port, CONTENT_RELOAD_RATE, baseline_make, conns=4).start()
        took, kept = [], True
        for i in range(1, CONTENT_RELOAD_ROUNDS + 1):
            want = versions[i % 2]
            before = os.stat(path)
            with open(path, "r+") as f:  # in place: same inode
                f.write(want)
            os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
            after = os.stat(path)
            kept &= (after.st_ino, after.st_size, after.st_mtime_ns) == (before.st_ino, before.st_size,
                                                                          before.st_mtime_ns)
            t0 = time.time()
            wait_for(lambda: title() == json.loads(want)[0]["title"], 10, step=0.05)
            took.append(time.time() - t0 if title() == json.loads(want)[0]["title"] else float("inf"))
            time.sleep(0.3)
        load.stop()
        ok = kept and load.ok() and max(took) < CONTENT_RELOAD_S and srv.alive()
        row("content-only reload (cp -p)", f"{CONTENT_RELOAD_RATE} req/s baseline, {CONTENT_RELOAD_ROUNDS} rewrites "
            "keeping size, mtime (ns) and inode", f"baseline {load.summary()}; metadata kept: {kept}",
            f"new version served after max {max(took):.2f}s (p50 {statistics.median(took):.2f}s; "
            f"limit {CONTENT_RELOAD_S:.0f}s)", ok)


HUGE_FILE_BYTES = 2 << 30       # sparse definition file dropped into the forms folder
HUGE_RSS_GROWTH_MIB = 64        # peak RSS growth allowed while it is refused
HUGE_REFUSED_S = 5.0            # the refusal is logged within this
HUGE_CHECK_S = 1.0              # `formd check` on it fails within this


def scenario_huge_definition(args):
    """A sparse 2 GiB `*.json` in the forms folder: refused unread, the other forms keep serving."""
    forms = forms_dir("huge")
    huge = os.path.join(forms, "huge.json")
    with Server(args.bin, forms, {"FORMD_FORMS_RELOAD": "true"}, name="huge") as srv:
        load = Load(srv.port, BASELINE_RATE, baseline_make, conns=4).start()
        time.sleep(1)
        hwm0 = hwm_kib(srv.pid)
        with open(huge, "wb") as f:
            f.truncate(HUGE_FILE_BYTES)
        t0 = time.time()

        def refusal():
            with open(srv.logpath) as f:
                return next((l.strip() for l in f if "huge.json:1:1: error" in l), None)
        wait_for(lambda: refusal() is not None, 15, step=0.05)
        line, refused_s = refusal(), time.time() - t0
        time.sleep(2)  # two more polls: refused once per change, not on every poll
        with open(srv.logpath) as f:
            refusals = sum("huge.json:1:1: error" in l for l in f)
        growth = (hwm_kib(srv.pid) - hwm0) / 1024
        st_huge = request(srv.port, "GET", "/forms/huge")[0]
        load.stop()
        alive = srv.alive()
    t1 = time.time()
    chk = subprocess.run([args.bin, "check", huge], capture_output=True, text=True, timeout=60, cwd=TMP)
    check_s = time.time() - t1
    os.remove(huge)
    check_ok = chk.returncode == 1 and f"huge.json:1:1: error: the file is {HUGE_FILE_BYTES} bytes" in chk.stdout
    ok = (line is not None and refusals == 1 and refused_s < HUGE_REFUSED_S and growth < HUGE_RSS_GROWTH_MIB and st_huge == 404
          and load.ok() and alive and check_ok and check_s < HUGE_CHECK_S)
    row("huge definition file", f"sparse {HUGE_FILE_BYTES >> 30} GiB huge.json dropped in while serving "
        f"{BASELINE_RATE} req/s baseline", f"baseline {load.summary()}; refused after {refused_s:.2f}s, "
        f"{refusals} log line(s), GET /forms/huge -> {st_huge}; check exit {chk.returncode} in {check_s*1000:.0f}ms",
        f"peak RSS growth {growth:.1f} MiB (limit {HUGE_RSS_GROWTH_MIB}); log: "
        f"{(re.search(r'huge[.]json:1:1: error: [^[]*', line or '') or ['none'])[0].strip()}", ok)
