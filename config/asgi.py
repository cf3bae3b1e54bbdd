"""HTTP goes to Django; WebSocket goes to the game, badge and league
standings consumers, behind session auth (its lookup on the process'
database threads, gameplay/socket_auth.py) and an Origin check against
ALLOWED_HOSTS, or, for API clients, behind their bearer token (api/ws.py).

What the process has built by the end of this module (Django, the apps,
their modules: about 160,000 objects) lives as long as the process, and is
moved out of the garbage collector's sight (`gc.freeze`): a full collection
walked them all, 80-130 ms in which the process served none of its sockets.

What comes after cannot be frozen: each open socket keeps a few hundred
objects (its pending receive, tasks, futures, contexts) that are renewed with
every message it gets, so they live long enough to reach the oldest
generation and die there. With Python's default thresholds a full collection
came once a quarter of the oldest generation was new, after ten collections
of the middle one: every 7 s at 75 moves a second on 600 sockets, each taking
100-150 ms of the process' only GIL. About 2% of moves waited behind one,
which made the p99 of a move's round trip ten times one game's while daphne
used under half a core (bench/README.md, issue 45). A full collection now
waits for a hundred collections of the middle generation: ten times rarer,
as long, so a move meets one ten times less often; the cyclic garbage it
frees (a few thousand objects a collection) waits ten times as long.
"""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from api.ws import TokenOrSession  # noqa: E402
from gameplay.routing import websocket_urlpatterns  # noqa: E402
from gameplay.socket_auth import session_auth_stack  # noqa: E402
from leagues.routing import websocket_urlpatterns as league_websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": TokenOrSession(
            URLRouter(websocket_urlpatterns + league_websocket_urlpatterns),
            AllowedHostsOriginValidator(
                session_auth_stack(URLRouter(websocket_urlpatterns + league_websocket_urlpatterns))
            ),
        ),
    }
)

gc.freeze()
FULL_COLLECTION_AFTER = 100  # collections of the middle generation (Python's default: 10)
gc.set_threshold(*gc.get_threshold()[:2], FULL_COLLECTION_AFTER)
