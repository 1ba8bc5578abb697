"""Soak: the baseline mix for a long time; RSS must not grow after warm-up."""
import time

from ..common import SOAK_RATE, SOAK_RSS_GROWTH, SOAK_SECONDS_FULL, SOAK_SECONDS_SHORT, SOAK_WARMUP_S, forms_dir, row
from ..load import Load, baseline_make
from ..server import Server, rss_kib


def scenario_soak(args):
    secs = args.soak_seconds or (SOAK_SECONDS_SHORT if args.short else SOAK_SECONDS_FULL)
    warm = min(SOAK_WARMUP_S, max(10, secs // 4))
    forms = forms_dir("soak")
    with Server(args.bin, forms, {}, name="soak") as srv:
        load = Load(srv.port, SOAK_RATE, baseline_make, conns=8, duration=secs).start()
        time.sleep(warm)
        rss_w = rss_kib(srv.pid)
        samples = [rss_w]
        t_end = time.time() + secs - warm
        while time.time() < t_end:
            time.sleep(min(5, max(0.1, t_end - time.time())))
            samples.append(rss_kib(srv.pid))
        load.wait()
        rss_end = rss_kib(srv.pid)
        growth = (rss_end - rss_w) / rss_w
        peak = (max(samples) - rss_w) / rss_w
        ok = load.ok() and growth < SOAK_RSS_GROWTH
        row("soak", f"{SOAK_RATE} req/s x {secs}s (warm-up {warm}s)", load.summary(),
            f"RSS after warm-up {rss_w/1024:.1f} MiB -> end {rss_end/1024:.1f} MiB ({growth*100:+.2f}%, "
            f"peak {peak*100:+.2f}%; limit {SOAK_RSS_GROWTH*100:.0f}%)", ok)
