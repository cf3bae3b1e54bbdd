"""HTTP goes to Django; WebSocket goes to the game, badge and league
standings consumers, behind session auth (its lookup on the process'
database threads, gameplay/socket_auth.py) and an Origin check against
ALLOWED_HOSTS, or, for API clients, behind their bearer token (api/ws.py).

What the process has built by the end of this module (Django, the apps,
their modules: about 160,000 objects) lives as long as the process, and is
moved out of the garbage collector's sight (`gc.freeze`): a full collection
walked them all, 80-130 ms in which the process served none of its sockets.
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
