"""The live standings' WebSocket consumer (protocol: `leagues.live`): thin,
it checks who may follow, joins its language's group and forwards.

Its two reads run on the process' database threads (`gameplay.database_threads`),
as every socket's do: a division's slow standings hold up no other socket. No
order to keep (key None): a socket handles one message at a time, and the
pushed standings come from the channel layer, not from these reads."""

import time

from django.utils import translation
from django.utils.translation import gettext_lazy as _

from gameplay import database_threads, inbound
from gameplay.i18n import socket_language
from leagues import live

CLOSE_FORBIDDEN = 4403


class StandingsConsumer(inbound.GatedConsumer):
    last_sync = float("-inf")

    async def open(self) -> None:
        self.division_id = self.scope["url_route"]["kwargs"]["division_id"]
        self.language = live.language_of(socket_language(self.scope))
        if not await database_threads.run(None, live.may_follow, self.division_id, self.scope["user"]):
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.group = live.group_name(self.division_id, self.language)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def receive_json(self, content, **kwargs):
        if content.get("type") != "sync":
            await self.send_error("bad_request", _("Unknown message type."))
            return
        now = time.monotonic()
        if now - self.last_sync < live.SYNC_SECONDS:
            return  # the standings cost a read of every game: one resync at a time is enough
        self.last_sync = now
        message = await database_threads.run(None, live.current, self.division_id, self.language)
        if message is not None:
            await self.send_json(message)

    async def send_error(self, code: str, message) -> None:
        with translation.override(self.language):
            message = str(message)
        await self.send_json({"type": "error", "code": code, "message": message})

    async def standings_update(self, event):
        await self.send_json({"type": "standings", "html": event["html"], "stamp": event["stamp"]})
