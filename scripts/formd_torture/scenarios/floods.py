"""Connection floods: 10k idle connections, past max_connections, fd exhaustion."""
import json
import os
import resource
import socket
import statistics
import time

from ..client import HTTPError_, KeepAlive, build_request, open_conns, read_response, request
from ..common import (FD_CLIENTS, FD_CPU_MAX, FD_LIMIT, FD_RECOVER_S, HOST, IDLE_CONNS, IDLE_MAX_THREADS,
                      IDLE_NEW_CLIENT_MS, IDLE_RSS_PER_CONN_KIB, MAXCONN_LIMIT, SIGNUP_OK, forms_dir, row, wait_for)
from ..server import Server, cpu_seconds, rss_kib, threads


def open_idle(port, n, out):
    for _ in range(n):
        try:
            s = socket.socket()
            s.setblocking(True)
            s.settimeout(5)
            s.connect((HOST, port))
            out.append(s)
        except OSError:
            break


def scenario_floods(args):
    forms = forms_dir("floods")
    # --- 10k idle connections
    need = IDLE_CONNS + 200
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, need), hard))
    env = {"FORMD_LIMITS_MAX_CONNECTIONS": IDLE_CONNS + 100, "FORMD_TIMEOUTS_HEADER_SECONDS": 120,
           "FORMD_TIMEOUTS_IDLE_SECONDS": 120}
    with Server(args.bin, forms, env, nofile=IDLE_CONNS + 1000, name="idle") as srv:
        ka = KeepAlive(srv.port)
        for _ in range(50):  # warm up
            ka.call("POST", "/forms/signup/validate", SIGNUP_OK)
        rss0, thr0 = rss_kib(srv.pid), threads(srv.pid)
        socks = []
        t0 = time.time()
        open_idle(srv.port, IDLE_CONNS, socks)
        reached = wait_for(lambda: open_conns(ka) >= IDLE_CONNS + 1, 30)
        t_open = time.time() - t0
        time.sleep(1)
        rss1, thr1 = rss_kib(srv.pid), threads(srv.pid)
        cpu0 = cpu_seconds(srv.pid)
        lat = []
        for _ in range(20):
            st, _, _, dt = request(srv.port, "POST", "/forms/signup/validate", SIGNUP_OK)
            lat.append(dt * 1000 if st in (200, 422) else 1e9)
        time.sleep(2)
        cpu_idle = (cpu_seconds(srv.pid) - cpu0)
        oc = open_conns(ka)
        for s in socks:
            s.close()
        closed_ok = wait_for(lambda: open_conns(ka) <= 2, 30)
        per_conn = (rss1 - rss0) / max(1, len(socks))
        ok = (reached and len(socks) == IDLE_CONNS and max(lat) < IDLE_NEW_CLIENT_MS
              and per_conn < IDLE_RSS_PER_CONN_KIB and thr1 <= IDLE_MAX_THREADS and closed_ok)
        row("idle connection flood", f"{len(socks)} idle conns (opened in {t_open:.1f}s)",
            f"open={oc}; new client max {max(lat):.1f}ms p50 {statistics.median(lat):.1f}ms; all closed: {closed_ok}",
            f"RSS {rss0/1024:.1f}->{rss1/1024:.1f} MiB ({per_conn:.2f} KiB/conn); threads {thr0}->{thr1}; "
            f"CPU {cpu_idle:.2f}s over ~2.5s", ok)
        ka.close()

    # --- past max_connections: 503
    with Server(args.bin, forms, {"FORMD_LIMITS_MAX_CONNECTIONS": MAXCONN_LIMIT,
                                  "FORMD_TIMEOUTS_HEADER_SECONDS": 60}, name="maxconn") as srv:
        ka = KeepAlive(srv.port)
        socks = []
        open_idle(srv.port, MAXCONN_LIMIT - 1, socks)
        wait_for(lambda: open_conns(ka) >= MAXCONN_LIMIT, 10)
        statuses = {}
        slug_ok = True
        for _ in range(50):
            try:
                st, h, b, _ = request(srv.port, "GET", "/healthz")
                if st == 503:
                    slug_ok &= json.loads(b).get("type", "").endswith("/overloaded")
            except (OSError, HTTPError_) as e:
                st = type(e).__name__
            statuses[st] = statuses.get(st, 0) + 1
        for s in socks[:10]:
            s.close()
        time.sleep(0.5)
        st_after = request(srv.port, "GET", "/healthz")[0]
        for s in socks[10:]:
            s.close()
        ok = statuses == {503: 50} and slug_ok and st_after == 200
        row("past max_connections", f"{MAXCONN_LIMIT} held + 50 new (limit {MAXCONN_LIMIT})",
            f"new conns: {statuses}; problem type overloaded: {slug_ok}; after closing 10: {st_after}",
            "503 for every connection past the limit", ok)
        ka.close()

    # --- fd exhaustion
    with Server(args.bin, forms, {"FORMD_TIMEOUTS_HEADER_SECONDS": 60}, nofile=FD_LIMIT, name="fd") as srv:
        socks = []
        open_idle(srv.port, FD_CLIENTS, socks)
        time.sleep(1.0)
        c0, t0 = cpu_seconds(srv.pid), time.time()
        time.sleep(5)
        cpu = (cpu_seconds(srv.pid) - c0) / (time.time() - t0)
        nfd = len(os.listdir(f"/proc/{srv.pid}/fd"))
        # the newest connections sit in the backlog; one of them asks for something
        last = socks[-1]
        last.sendall(build_request("GET", "/healthz"))
        for s in socks[:-1]:
            s.close()
        t1 = time.time()
        last.settimeout(FD_RECOVER_S + 5)
        try:
            st_backlog = read_response(last)[0]
        except (OSError, HTTPError_) as e:
            st_backlog = type(e).__name__
        t_backlog = time.time() - t1
        last.close()
        t2 = time.time()
        st_new = None
        while time.time() - t2 < FD_RECOVER_S:
            try:
                st_new = request(srv.port, "GET", "/healthz", timeout=1)[0]
                if st_new == 200:
                    break
            except (OSError, HTTPError_):
                time.sleep(0.05)
        t_new = time.time() - t2
        ok = srv.alive() and cpu < FD_CPU_MAX and st_backlog == 200 and st_new == 200 and t_backlog < FD_RECOVER_S
        row("fd exhaustion (ulimit -n 256)", f"{FD_CLIENTS} conns against {FD_LIMIT} fds",
            f"alive {srv.alive()}; server fds {nfd}; backlogged request -> {st_backlog} in {t_backlog*1000:.0f}ms "
            f"after closing; fresh -> {st_new} in {t_new*1000:.0f}ms",
            f"CPU while exhausted {cpu*100:.1f}% of a core (limit {FD_CPU_MAX*100:.0f}%)", ok)
