"""The formd process under test (`Server`) and what /proc says about it."""
import os
import re
import resource
import select
import signal
import subprocess
import threading
import time

from .common import HOST, TMP


def proc_status(pid):
    out = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                k, _, v = line.partition(":")
                out[k] = v.strip()
    except OSError:
        pass
    return out


def rss_kib(pid):
    v = proc_status(pid).get("VmRSS", "0 kB")
    return int(v.split()[0])


def hwm_kib(pid):
    v = proc_status(pid).get("VmHWM", "0 kB")
    return int(v.split()[0])


def threads(pid):
    return int(proc_status(pid).get("Threads", "0"))


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    tck = os.sysconf("SC_CLK_TCK")
    return (int(parts[11]) + int(parts[12])) / tck


class Server:
    """One formd process on 127.0.0.1:<free port>, configured through FORMD_* variables."""

    def __init__(self, binary, forms, env=None, nofile=None, name="formd"):
        self.binary, self.forms = binary, forms
        e = dict(os.environ)
        e.update({"FORMD_LOG_LEVEL": "warning"})
        e.update({k: str(v) for k, v in (env or {}).items()})
        self.logpath = os.path.join(TMP, f"{name}.log")
        self.logf = open(self.logpath, "w")

        def pre():
            os.setsid()
            if nofile:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

        # cwd = TMP so that no config/formd.json is picked up: env + flags only
        self.p = subprocess.Popen([binary, "serve", "--forms", forms, "--port", "0", "--host", HOST],
                                  stdout=subprocess.PIPE, stderr=self.logf, env=e, cwd=TMP,
                                  preexec_fn=pre)
        line = b""
        deadline = time.time() + 30
        while time.time() < deadline:
            r, _, _ = select.select([self.p.stdout], [], [], 0.5)
            if r:
                line = self.p.stdout.readline()
                break
            if self.p.poll() is not None:
                break
        m = re.search(rb"listening on http://[^:]+:(\d+)", line)
        if not m:
            self.kill()
            raise RuntimeError(f"formd did not start: {line!r}; see {self.logpath}")
        self.port = int(m.group(1))
        self.pid = self.p.pid
        threading.Thread(target=self.p.stdout.read, daemon=True).start()

    def alive(self):
        return self.p.poll() is None

    def term(self, timeout=40):
        if self.alive():
            self.p.send_signal(signal.SIGTERM)
        try:
            return self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return None

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.term()
        self.logf.close()
