"""What a WebSocket frame's flood guard (`gameplay.inbound.FrameRateLimit`)
costs a daphne process, by the number of connections it holds.

    python -m bench.flood_guard                      # 1, 100, 1,000 and 4,000 connections
    python -m bench.flood_guard --connections 1,1000 --seconds 2

Every connection has its own guard, as each socket of a process does; each
has had 20 frames in the last minute. Then one asyncio loop checks a frame
of one connection after another, one every 5 ms (a process taking 200
frames a second), for a few seconds. The figure is the process' CPU time
per frame, less that of the same loop without the guard, measured in the
same run: what the guard adds to a frame, and how it grows with the
connections the process holds (the ratio to the loop alone). Nothing is
asserted; see bench/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

FRAME_EVERY = 0.005  # seconds: 200 frames a second
FRAMES_BEFORE = 20  # each connection's frames in the last minute when the window starts


def configure() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


async def cpu_per_frame(connections: int, seconds: float) -> float:
    """CPU seconds per frame of the loop, with `connections` guards (0: no guard)."""
    from gameplay import inbound

    guards = [inbound.FrameRateLimit() for _ in range(connections)]
    for guard in guards:
        for _ in range(FRAMES_BEFORE):
            await guard.check()
    await asyncio.sleep(0.05)
    frames = 0
    started, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - started < seconds:
        if guards:
            await guards[frames % len(guards)].check()
        frames += 1
        await asyncio.sleep(FRAME_EVERY)
    return (time.process_time() - cpu) / frames


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.flood_guard", description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", default="1,100,1000,4000",
                        help="connection counts, comma-separated (default 1,100,1000,4000)")
    parser.add_argument("--seconds", type=float, default=3.0, help="measured seconds per count (default 3)")
    args = parser.parse_args(argv)
    args.connections = [int(n) for n in args.connections.split(",")]
    if any(n < 1 for n in args.connections) or args.seconds <= 0:
        parser.error("connection counts and --seconds must be positive")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    configure()

    async def run() -> list[tuple[int, float, float]]:
        rows = []
        for connections in args.connections:
            # The loop alone just before each count, so a change of the machine's speed falls on both.
            alone = await cpu_per_frame(0, args.seconds)
            guarded = await cpu_per_frame(connections, args.seconds)
            rows.append((connections, alone, guarded))
        return rows

    rows = asyncio.run(run())
    print("The WebSocket flood guard's CPU per frame (bench/flood_guard.py)")
    print(f"one frame every {FRAME_EVERY * 1000:.0f} ms for {args.seconds:g} s per count; "
          f"each connection had {FRAMES_BEFORE} frames before")
    print()
    print(f"{'connections':>12}{'loop alone ms':>15}{'with guard ms':>15}{'guard ms':>10}{'ratio':>8}")
    for connections, alone, guarded in rows:
        print(f"{connections:>12}{alone * 1000:>15.3f}{guarded * 1000:>15.3f}"
              f"{(guarded - alone) * 1000:>10.3f}{guarded / alone:>7.2f}x")
    print()
    print("ratio: CPU per frame with the guard / the same loop without it, measured just before;")
    print("differences under about 0.05 ms are the machine's noise")
    return 0


if __name__ == "__main__":
    sys.exit(main())
