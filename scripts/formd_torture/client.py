"""A raw HTTP/1.1 client: exact bytes on the wire, one response read at a time."""
import socket
import time

from .common import HOST


class HTTPError_(Exception):
    pass


def build_request(method, path, body=b"", headers=None, close=False):
    h = {"Host": "localhost"}
    if body or method in ("POST", "PUT"):
        h["Content-Length"] = str(len(body))
        h.setdefault("Content-Type", "application/json")
    if headers:
        h.update(headers)
    if close:
        h["Connection"] = "close"
    head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in h.items()) + "\r\n"
    return head.encode("latin-1") + body


def read_response(sock, buf=b"", head_only=False):
    """Reads one response; returns (status, headers, body, rest)."""
    while b"\r\n\r\n" not in buf:
        chunk = sock.recv(65536)
        if not chunk:
            raise HTTPError_("connection closed before a complete head")
        buf += chunk
    head, _, rest = buf.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for l in lines[1:]:
        k, _, v = l.partition(":")
        headers[k.strip().lower()] = v.strip()
    n = 0 if head_only else int(headers.get("content-length", "0"))
    while len(rest) < n:
        chunk = sock.recv(65536)
        if not chunk:
            raise HTTPError_("connection closed inside a body")
        rest += chunk
    return status, headers, rest[:n], rest[n:]


def connect(port, timeout=5.0):
    s = socket.create_connection((HOST, port), timeout=timeout)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def request(port, method, path, body=b"", headers=None, timeout=10.0):
    """One request on a fresh connection: (status, headers, body, seconds)."""
    t0 = time.perf_counter()
    s = connect(port, timeout)
    try:
        s.sendall(build_request(method, path, body, headers, close=True))
        st, h, b, _ = read_response(s, head_only=(method == "HEAD"))
        return st, h, b, time.perf_counter() - t0
    finally:
        s.close()


class KeepAlive:
    """A persistent connection (used e.g. for /metrics while the server is at its limit)."""

    def __init__(self, port):
        self.port = port
        self.s = connect(port)
        self.rest = b""

    def call(self, method, path, body=b"", headers=None):
        self.s.sendall(build_request(method, path, body, headers))
        st, h, b, self.rest = read_response(self.s, self.rest)
        return st, h, b

    def close(self):
        self.s.close()


def metrics(ka):
    st, _, b = ka.call("GET", "/metrics")
    out = {}
    for line in b.decode().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, _, val = line.rpartition(" ")
        try:
            out[name] = float(val)
        except ValueError:
            pass
    return out


def open_conns(ka):
    return int(metrics(ka).get("formd_open_connections", -1))
