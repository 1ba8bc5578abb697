"""Clients that pipeline requests and never read their answers."""
import socket
import time

from ..client import build_request, connect, read_response
from ..common import BASELINE_RATE, forms_dir, row
from ..load import Load, baseline_make
from ..server import Server, rss_kib


UNREAD_CONNS = 20               # connections that pipeline requests and never read
UNREAD_PIPELINE = 64 << 10      # bytes of pipelined GET /forms/expenses each
UNREAD_RSS_GROWTH_MIB = 64      # RSS growth allowed while they hold their answers


def scenario_unread(args):
    """Clients that pipeline requests and never read: answers are bounded per connection and in total."""
    forms = forms_dir("unread")
    one = build_request("GET", "/forms/expenses")
    burst = one * (UNREAD_PIPELINE // len(one))
    with Server(args.bin, forms, {}, name="unread") as srv:
        rss0 = rss_kib(srv.pid)
        load = Load(srv.port, BASELINE_RATE, baseline_make, conns=4).start()
        socks = []
        for _ in range(UNREAD_CONNS):
            c = connect(srv.port)
            c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            c.setblocking(False)
            sent = 0
            deadline = time.time() + 5
            while sent < len(burst) and time.time() < deadline:
                try:
                    sent += c.send(burst[sent:])
                except BlockingIOError:
                    time.sleep(0.01)
            socks.append(c)
        time.sleep(3)
        peak = rss_kib(srv.pid)
        load.stop()
        # A reader now gets every answer, in order.
        c = socks[0]
        c.setblocking(True)
        c.settimeout(10)
        got, rest = 0, b""
        try:
            while got < 50:
                st, _, _, rest = read_response(c, rest)
                got += st == 200
        except Exception:
            pass
        for c in socks:
            c.close()
        growth = (peak - rss0) / 1024
        ok = growth < UNREAD_RSS_GROWTH_MIB and load.ok() and got == 50 and srv.alive()
        row("unread answers", f"{UNREAD_CONNS} conns x {UNREAD_PIPELINE >> 10} KiB pipelined GET /forms/expenses, "
            f"never read + {BASELINE_RATE} req/s baseline", f"baseline {load.summary()}; a reader then got {got}/50 in order",
            f"RSS {rss0/1024:.0f}->{peak/1024:.0f} MiB (+{growth:.1f}, limit {UNREAD_RSS_GROWTH_MIB})", ok)
