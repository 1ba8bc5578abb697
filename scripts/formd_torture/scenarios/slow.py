"""Slow clients: slowloris, slow POST and slow read (slowhttptest) beside the baseline load."""
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import threading
import time

from ..client import KeepAlive, open_conns
from ..common import (BASELINE_RATE, BODY_TIMEOUT_S, HEAD_GRACE_S, HEADER_TIMEOUT_S, HOST, IDLE_TIMEOUT_S,
                      SLOW_BODY_CONNS, SLOW_READ_CONNS, SLOW_TEST_SECONDS, SLOWLORIS_CONNS, TMP, forms_dir, log, row)
from ..load import Load, baseline_make
from ..server import Server, rss_kib


def recv_or_eof(s):
    """What the server sent on a readable socket; b"" once it closed or reset the connection."""
    try:
        return s.recv(4096)
    except (ConnectionResetError, BlockingIOError):
        return b""


def head_probe(port, delay_first, results, idx, trickle_every=1.0, limit=30.0):
    """A connection that never completes its head: waits `delay_first` s, then trickles one header
    byte per `trickle_every` s. Records how long the server kept it open (from connect)."""
    try:
        t0 = time.monotonic()
        s = socket.create_connection((HOST, port), timeout=limit)
        t0 = time.monotonic()
        s.setblocking(False)
        payload = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-a: " + b"a" * 200
        sent = 0
        nxt = t0 + delay_first
        got = b""
        while time.monotonic() - t0 < limit:
            r, _, _ = select.select([s], [], [], max(0.0, min(0.05, nxt - time.monotonic())))
            if r:
                chunk = recv_or_eof(s)
                if not chunk:
                    break
                got += chunk
                continue
            if time.monotonic() >= nxt and sent < len(payload):
                try:
                    s.send(payload[sent:sent + (len(payload) if sent == 0 and delay_first == 0 else 1)])
                except OSError:
                    break
                sent += 1 if not (sent == 0 and delay_first == 0) else 40
                nxt += trickle_every
        results[idx] = (time.monotonic() - t0, got[:12])
        s.close()
    except OSError as e:
        results[idx] = (None, str(e).encode())


def body_probe(port, results, idx, limit=30.0):
    """Complete head, then a body trickled one byte a second."""
    try:
        s = socket.create_connection((HOST, port), timeout=limit)
        t0 = time.monotonic()
        s.sendall(b"POST /forms/signup/validate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 10000\r\n\r\n{")
        s.setblocking(False)
        nxt = t0 + 1
        while time.monotonic() - t0 < limit:
            r, _, _ = select.select([s], [], [], 0.05)
            if r:
                if not recv_or_eof(s):
                    break
                continue
            if time.monotonic() >= nxt:
                try:
                    s.send(b" ")
                except OSError:
                    break
                nxt += 1
        results[idx] = (time.monotonic() - t0, b"")
        s.close()
    except OSError as e:
        results[idx] = (None, str(e).encode())


def run_probes(target, n):
    res = [None] * n
    ts = [threading.Thread(target=target, args=(res, i), daemon=True) for i in range(n)]
    for t in ts:
        t.start()
    return ts, res


def slowhttptest(args, seconds):
    exe = shutil.which("slowhttptest")
    if not exe:
        raise RuntimeError("slowhttptest not installed (apt-get install slowhttptest)")
    out = os.path.join(TMP, "slowhttptest.out")
    with open(out, "w") as f:
        p = subprocess.Popen([exe] + args, stdout=f, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        p.wait(seconds + 30)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
    text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", open(out, errors="replace").read())
    # final status block: "... connected: N ... closed: N ... service available: YES/NO"
    conn = re.findall(r"connected:\s*(\d+)", text)
    avail = re.findall(r"service available:\s*(\w+)", text)
    return text, (int(max(conn, key=int)) if conn else 0), (avail[-1] if avail else "?")


def watch_open(srv, ka, sh, deadline=None, each=None):
    """While the slowhttptest thread `sh` runs (and until `deadline`), polls the server's open
    connections every 0.5 s (calling `each` too); returns (peak, the /metrics connection)."""
    peak = 0
    while sh.is_alive() and (deadline is None or time.time() < deadline):
        try:
            peak = max(peak, open_conns(ka))
        except Exception:
            ka = KeepAlive(srv.port)
        if each:
            each()
        time.sleep(0.5)
    return peak, ka


def scenario_slow(args):
    forms = forms_dir("slow")
    env = {"FORMD_TIMEOUTS_HEADER_SECONDS": HEADER_TIMEOUT_S, "FORMD_TIMEOUTS_BODY_SECONDS": BODY_TIMEOUT_S,
           "FORMD_TIMEOUTS_IDLE_SECONDS": IDLE_TIMEOUT_S}
    limit_s = HEADER_TIMEOUT_S + HEAD_GRACE_S
    with Server(args.bin, forms, env, name="slow") as srv:
        url = f"http://{HOST}:{srv.port}"
        ka = KeepAlive(srv.port)
        # --- slowloris
        load = Load(srv.port, BASELINE_RATE, baseline_make, conns=4).start()
        rss0 = rss_kib(srv.pid)
        sh = threading.Thread(target=lambda: setattr(sh, "r", slowhttptest(
            ["-H", "-c", str(SLOWLORIS_CONNS), "-r", "200", "-i", "3", "-x", "20", "-t", "GET",
             "-u", url + "/healthz", "-p", "3", "-l", str(SLOW_TEST_SECONDS)], SLOW_TEST_SECONDS)), daemon=True)
        sh.start()
        time.sleep(3)
        # own probes alongside: 20 that trickle at once, 20 that wait 3 s before the first byte
        ts1, r1 = run_probes(lambda res, i: head_probe(srv.port, 0, res, i), 20)
        ts2, r2 = run_probes(lambda res, i: head_probe(srv.port, 3, res, i), 20)
        t_end = time.time() + SLOW_TEST_SECONDS
        peak, ka = watch_open(srv, ka, sh, deadline=t_end + 30)
        sh.join()
        for t in ts1 + ts2:
            t.join()
        load.stop()
        rss1 = rss_kib(srv.pid)
        lives = [r[0] for r in r1 + r2 if r and r[0] is not None]
        late_first = [r[0] for r in r2 if r and r[0] is not None]
        _, conn, avail = sh.r
        probe_ok = len(lives) == 40 and max(lives) <= limit_s
        ok = load.ok() and probe_ok
        row("slowloris (slowhttptest -H)", f"{SLOWLORIS_CONNS} conns + {BASELINE_RATE} req/s baseline",
            f"baseline {load.summary()}; slowhttptest peak connected {conn}, server open peak {peak}",
            f"incomplete head lives max {max(lives or [0]):.2f}s from connect (limit {limit_s:.0f}s; trickling "
            f"at once: max {max([r[0] for r in r1 if r and r[0]] or [0]):.2f}s, first byte after 3s: max "
            f"{max(late_first or [0]):.2f}s); RSS {rss0//1024}->{rss1//1024} MiB",
            ok)
        if load.err_samples:
            log("baseline errors:", load.err_samples)

        # --- slow POST
        load = Load(srv.port, BASELINE_RATE, baseline_make, conns=4).start()
        sh = threading.Thread(target=lambda: setattr(sh, "r", slowhttptest(
            ["-B", "-c", str(SLOW_BODY_CONNS), "-r", "200", "-i", "2", "-x", "10", "-s", "8192", "-t", "POST",
             "-u", url + "/forms/signup/validate", "-p", "3", "-l", str(SLOW_TEST_SECONDS)], SLOW_TEST_SECONDS)),
            daemon=True)
        sh.start()
        time.sleep(3)
        ts, rb = run_probes(lambda res, i: body_probe(srv.port, res, i), 20)
        peak, ka = watch_open(srv, ka, sh)
        sh.join()
        for t in ts:
            t.join()
        load.stop()
        lives = [r[0] for r in rb if r and r[0] is not None]
        blimit = BODY_TIMEOUT_S + HEAD_GRACE_S
        ok = load.ok() and len(lives) == 20 and max(lives) <= blimit
        _, conn, avail = sh.r
        row("slow POST (slowhttptest -B)", f"{SLOW_BODY_CONNS} conns + {BASELINE_RATE} req/s baseline",
            f"baseline {load.summary()}; slowhttptest peak connected {conn}, server open peak {peak}",
            f"trickled body lives max {max(lives or [0]):.2f}s (limit {blimit:.0f}s)", ok)
        if load.err_samples:
            log("baseline errors:", load.err_samples)

        # --- slow read
        load = Load(srv.port, BASELINE_RATE, baseline_make, conns=4).start()
        rss0 = rss_kib(srv.pid)
        sh = threading.Thread(target=lambda: setattr(sh, "r", slowhttptest(
            ["-X", "-c", str(SLOW_READ_CONNS), "-r", "200", "-w", "512", "-y", "1024", "-n", "5", "-z", "32",
             "-k", "3", "-u", url + "/openapi.json", "-p", "3", "-l", str(SLOW_TEST_SECONDS)], SLOW_TEST_SECONDS)),
            daemon=True)
        sh.start()
        rss_seen = [rss0]
        peak, ka = watch_open(srv, ka, sh, each=lambda: rss_seen.append(rss_kib(srv.pid)))
        rss_peak = max(rss_seen)
        sh.join()
        load.stop()
        open_end = open_conns(ka)
        _, conn, avail = sh.r
        ok = load.ok() and srv.alive() and open_end <= 2
        row("slow read (slowhttptest -X)", f"{SLOW_READ_CONNS} conns + {BASELINE_RATE} req/s baseline",
            f"baseline {load.summary()}; slowhttptest peak connected {conn}, server open peak {peak}",
            f"RSS {rss0//1024}->{rss_peak//1024} MiB peak; server open at end {open_end} "
            f"(idle timeout {IDLE_TIMEOUT_S}s)", ok)
        if load.err_samples:
            log("baseline errors:", load.err_samples)
        ka.close()
