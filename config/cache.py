"""Django's Redis cache with one client per process.

Django's `caches` holds a cache object per thread and per asyncio context.
Under daphne every socket and every HTTP request is a context of its own, so
each made a new `RedisCache`, with a new connection pool and a new
connection to Redis: a connection per open game page (12 KiB of memory each,
`bench.live_scale`'s idle sockets) and one per request that reads a rate
limit. This backend lets every cache object of a process with the same
servers and options share one client (redis-py's pools are thread-safe and
start afresh in a forked child).
"""

from functools import cached_property
from threading import Lock

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

_clients: dict[tuple, RedisCacheClient] = {}
_lock = Lock()


class SharedRedisCache(RedisCache):
    @cached_property
    def _cache(self) -> RedisCacheClient:
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _lock:
            if key not in _clients:
                _clients[key] = self._class(self._servers, **self._options)
            return _clients[key]
