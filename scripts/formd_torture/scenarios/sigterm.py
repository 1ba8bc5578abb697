"""SIGTERM under load and with requests written but not yet read: nothing sent before it is lost."""
import random
import signal
import time

from ..client import HTTPError_, build_request, connect, read_response
from ..common import (SIGNUP_OK, SIGTERM_BURST, SIGTERM_CONNS, SIGTERM_RATE, SIGTERM_ROUNDS_FULL,
                      SIGTERM_ROUNDS_SHORT, forms_dir, row)
from ..load import Load, expect
from ..server import Server


def scenario_sigterm(args):
    forms = forms_dir("sigterm")
    rounds = SIGTERM_ROUNDS_SHORT if args.short else SIGTERM_ROUNDS_FULL
    before_n, after_n, lost_all, rcs, exit_ms, samples = 0, 0, 0, [], [], []
    for r in range(rounds):
        srv = Server(args.bin, forms, {}, name="sigterm")
        try:
            def make():
                return random.choice([("POST", "/forms/signup/validate", SIGNUP_OK, None, expect({200, 422})),
                                      ("POST", "/forms/employment/evaluate", b'{"values":{}}', None, expect({200}))])
            load = Load(srv.port, SIGTERM_RATE, make, conns=SIGTERM_CONNS).start()
            time.sleep(2 + random.random())
            t_sig = time.time()
            srv.p.send_signal(signal.SIGTERM)
            rcs.append(srv.p.wait(40))
            exit_ms.append((time.time() - t_sig) * 1000)
            time.sleep(0.3)
            load.stop()
            before = [x for x in load.records if x[0] < t_sig]
            lost = [x for x in before if x[1] is None or not x[2]]
            before_n += len(before)
            after_n += len([x for x in load.records if x[0] >= t_sig])
            lost_all += len(lost)
            if lost:
                samples += load.err_samples[:2]
        finally:
            srv.kill()
            srv.logf.close()
    ok = all(rc == 0 for rc in rcs) and lost_all == 0 and before_n > 0
    # burst: every connection has a request in the server's socket buffer when the signal lands
    b_lost, b_total, b_rcs = 0, 0, []
    for r in range(rounds):
        srv = Server(args.bin, forms, {}, name="sigterm-burst")
        try:
            socks = [connect(srv.port) for _ in range(SIGTERM_BURST)]
            time.sleep(0.3)
            req = build_request("POST", "/forms/signup/validate", SIGNUP_OK)
            for s in socks:
                s.sendall(req)
            srv.p.send_signal(signal.SIGTERM)
            for s in socks:
                try:
                    st = read_response(s)[0]
                    b_lost += st not in (200, 422)
                except (OSError, HTTPError_):
                    b_lost += 1
                s.close()
            b_total += len(socks)
            b_rcs.append(srv.p.wait(40))
        finally:
            srv.kill()
            srv.logf.close()
    row("SIGTERM with requests unread", f"{rounds} rounds x {SIGTERM_BURST} conns, each request written just "
        "before the signal", f"exit codes {sorted(set(b_rcs))}; {b_total - b_lost}/{b_total} answered",
        f"lost {b_lost}", b_lost == 0 and all(rc == 0 for rc in b_rcs))
    row("SIGTERM under load", f"{rounds} rounds x {SIGTERM_RATE} req/s over {SIGTERM_CONNS} keep-alive conns",
        f"exit codes {sorted(set(rcs))}, exit after max {max(exit_ms):.0f}ms; completed before signal "
        f"{before_n}, lost {lost_all}; sent after {after_n} (refused/closed, expected)",
        "every request sent before SIGTERM got a complete response" if not lost_all else f"lost: {samples[:3]}", ok)
