"""The channel layer: channels_redis' Redis layer, with its redis-py
connections set up to survive Redis restarts.

channels_redis keeps a pool of redis-py asyncio connections per event loop
and builds them from the host's URL alone. Under redis-py 8.1 two defaults
of such connections hurt:

- Closed connections are handed out again. A pool checks an idle
  connection before lending it and replaces one the server has closed,
  except when "maintenance notifications" are enabled, and redis-py 8.1
  enables them by default ("auto") on RESP3 connections over TCP
  (redis-py #4252, fixed by #4260 after 8.1.0). So after Redis restarts,
  the first command on each pooled connection fails with "Connection closed
  by server": the first WebSocket handshake each daphne process serves
  answers HTTP 500 (its `group_add` raises). Maintenance notifications are
  push messages of managed Redis services (Redis Cloud / Enterprise) about
  planned failovers; a plain Redis or Valkey sends none, so they are turned
  off here and the pool's check works again: a connection closed by the
  server is replaced before use, and nobody sees the restart.
- A 5 s socket timeout, as long as the layer's BZPOPMIN block time (5 s):
  an idle consumer's receive loop could time out on a healthy connection
  just before the server's empty answer arrived, and the consumer died with
  TimeoutError (channels_redis issue #422). It is set a few seconds longer.

Commands are deliberately not retried: a consumer whose receive loop was
waiting when Redis went down ends (its socket closes with 1011 and the page
reconnects, which adds it to its groups again), instead of living on after
a restart that lost its group memberships, deaf to its table.

Settings (config/settings.py): "BACKEND": "config.channel_layer.RedisChannelLayer";
the CONFIG is channels_redis' own. A host given as a dict may set
`socket_timeout` or `maint_notifications_config` itself; those win.
"""

from channels_redis.core import RedisChannelLayer as BaseRedisChannelLayer
from channels_redis.utils import create_pool

try:  # redis-py >= 7: connections may follow a managed Redis' maintenance notifications
    from redis.maint_notifications import MaintNotificationsConfig
except ImportError:  # older redis-py: no such notifications, nothing to turn off
    MaintNotificationsConfig = None

# Seconds a connection may wait for an answer beyond the BZPOPMIN block time.
SOCKET_TIMEOUT_MARGIN = 5


def connection_options(host: dict, block_seconds: float) -> dict:
    """channels_redis' host kwargs, with our defaults added."""
    options = {"socket_timeout": block_seconds + SOCKET_TIMEOUT_MARGIN}
    if MaintNotificationsConfig is not None:
        options["maint_notifications_config"] = MaintNotificationsConfig(enabled=False)
    return {**options, **host}


class RedisChannelLayer(BaseRedisChannelLayer):
    def create_pool(self, index):
        return create_pool(connection_options(self.hosts[index], self.brpop_timeout))
