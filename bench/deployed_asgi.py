"""The ASGI application `bench.deployed_roundtrip` serves with daphne: the
site's own (`config.asgi.application`), plus the floor's socket
`/bench/floor/<game>/`, so that product and floor share the very processes,
Redis, database and worker.

The floor does the least a move must do on that stack: one `Move` row
inserted in a transaction (on the process' database thread, as the
consumers' `database_sync_to_async` runs it) and one fan-out to the group its
table's four sockets joined, by the layer's cheapest path, the product's own
(`group_send_many`: one Redis script, the process' own sockets served in
memory), with no hop to the database thread before each message (as
`gameplay.inbound.GatedConsumer`). No
authentication, no engine, no views, no follow-up task."""

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.routing import URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from django.db import transaction
from django.urls import path

from config.asgi import application as site_application  # sets up Django first
from gameplay.models import Move


def write_floor_row(game_id: int, seq: int, position: int, action: dict, move_id: str) -> None:
    with transaction.atomic():
        Move.objects.create(game_id=game_id, seq=seq, position=position, action=action,
                            by=Move.By.PLAYER, client_move_id=move_id)


class FloorConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self):
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        self.group = f"bench-floor-{self.game_id}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def dispatch(self, message):
        """No `aclose_old_connections()` hop before each message (GatedConsumer's choice)."""
        handler = getattr(self, message["type"].replace(".", "_"), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def receive_json(self, content, **kwargs):
        version = content["version"] + 1
        await database_sync_to_async(write_floor_row)(
            self.game_id, version, content["seat"], content["action"], content["move_id"])
        message = {"type": "floor.update",
                   "payload": {"type": "state", "version": version, "move_id": content["move_id"]}}
        await self.channel_layer.group_send_many([(self.group, message)])

    async def floor_update(self, event):
        await self.send_json(event["payload"])


floor = AllowedHostsOriginValidator(URLRouter([path("bench/floor/<int:game_id>/", FloorConsumer.as_asgi())]))


async def application(scope, receive, send):
    if scope["type"] == "websocket" and scope["path"].startswith("/bench/floor/"):
        return await floor(scope, receive, send)
    return await site_application(scope, receive, send)

