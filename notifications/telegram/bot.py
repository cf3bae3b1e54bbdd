"""The bot: an aiogram Router whose handlers answer with `replies`, run in
Django's thread through asgiref's sync_to_async (thread_sensitive), and the
Bot pointed at TELEGRAM_API_URL.

Why aiogram (3.x): asynchronous from the ground up with one small Router /
Dispatcher model that serves both long polling and a webhook from the same
handlers (`Dispatcher.start_polling`, `Dispatcher.feed_webhook_update`), its
Bot API methods and types are generated from the API's specification
(pydantic models, like the site's API), errors come as typed exceptions
(TelegramForbiddenError, TelegramRetryAfter with retry_after...), and the
server is one argument (`TelegramAPIServer.from_base`), which the tests'
local stand-in needs. python-telegram-bot would do too; its Application
wants to own the process's event loop and its job queue, more than we use.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Callable

from aiogram import Bot, Dispatcher, F, Router
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.exceptions import (TelegramAPIError, TelegramBadRequest, TelegramForbiddenError, TelegramNotFound,
                                TelegramRetryAfter)
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, Message
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.db import close_old_connections

from notifications.channels import DestinationGone, Notice, TemporaryFailure
from notifications.telegram import links, replies
from notifications.telegram.replies import Reply

log = logging.getLogger(__name__)

REQUEST_SECONDS = 20


def new_bot() -> Bot:
    """A Bot on its own aiohttp session (close it: `async with new_bot() as bot`, or `await bot.session.close()`)."""
    session = AiohttpSession(api=TelegramAPIServer.from_base(settings.TELEGRAM_API_URL), timeout=REQUEST_SECONDS)
    return Bot(settings.TELEGRAM_BOT_TOKEN, session=session)


def keyboard(buttons: list[tuple[str, str]]) -> InlineKeyboardMarkup | None:
    """One URL button per row."""
    if not buttons:
        return None
    return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text=words, url=url)] for words, url in buttons])


async def _answer(message: Message, compute: Callable[..., Reply], *args) -> None:
    language = message.from_user.language_code if message.from_user else None
    reply = await sync_to_async(compute, thread_sensitive=True)(message.chat.id, *args, language)
    await message.answer(reply.text, reply_markup=keyboard(reply.buttons))


async def on_start(message: Message, command: CommandObject) -> None:
    await _answer(message, replies.start, (command.args or "").strip())


async def on_games(message: Message) -> None:
    await _answer(message, replies.games)


async def on_mute(message: Message, command: CommandObject) -> None:
    await _answer(message, replies.mute, command.args or "")


async def on_stop(message: Message) -> None:
    await _answer(message, replies.stop)


async def on_help(message: Message) -> None:
    await _answer(message, replies.help_text)


def build_router() -> Router:
    """The bot's commands, in private chats only (groups are ignored). A new Router each time:
    aiogram attaches a router to one dispatcher."""
    router = Router(name="kitchen-table")
    router.message.filter(F.chat.type == "private")
    router.message.register(on_start, CommandStart())
    router.message.register(on_games, Command("games"))
    router.message.register(on_mute, Command("mute"))
    router.message.register(on_stop, Command("stop"))
    router.message.register(on_help, Command("help"))
    router.message.register(on_help)  # anything else: the list of commands
    return router


async def _fresh_connections(handler, event, data):
    """For the long-running bot process: drop a broken or timed-out database connection before and
    after each update, as Django does around a request (the web process's requests do it already)."""
    await sync_to_async(close_old_connections, thread_sensitive=True)()
    try:
        return await handler(event, data)
    finally:
        await sync_to_async(close_old_connections, thread_sensitive=True)()


def new_dispatcher(*, own_process: bool = False) -> Dispatcher:
    """The bot's Dispatcher; `own_process`: the bot process's (it manages its database connection)."""
    dispatcher = Dispatcher()
    if own_process:
        dispatcher.update.outer_middleware(_fresh_connections)
    dispatcher.include_router(build_router())
    return dispatcher


# --- the bot's name (the profile's deep link) ------------------------------------------------

USERNAME_CACHE_KEY = "telegram:bot-username"


async def _ask_username() -> str:
    async with new_bot() as telegram:
        return (await telegram.get_me()).username or ""


def username() -> str:
    """TELEGRAM_BOT_USERNAME, else the bot's name from getMe, asked once and cached for a day.
    Raises aiogram's TelegramAPIError when the Bot API cannot say."""
    if settings.TELEGRAM_BOT_USERNAME:
        return settings.TELEGRAM_BOT_USERNAME
    name = cache.get(USERNAME_CACHE_KEY)
    if not name:
        name = async_to_sync(_ask_username)()
        cache.set(USERNAME_CACHE_KEY, name, 24 * 3600)
    return name


def deep_link(token: str) -> str:
    return f"https://t.me/{username()}?start={token}"


# --- a notice as a message (the "telegram" channel's send) ----------------------------------

# 400s that mean the chat itself is gone, not that this one message was wrong.
GONE_CHAT = ("chat not found", "user not found", "peer_id_invalid", "user is deactivated", "bot was kicked")


def message_text(notice: Notice) -> str:
    """The message's HTML: the title in bold, then the body (escaped: names are players' own words)."""
    title, body = html.escape(notice.title), html.escape(notice.body)
    return f"<b>{title}</b>\n{body}" if body else f"<b>{title}</b>"


def send_notice(chat_id: int, notice: Notice) -> None:
    """The notice to the player's chat. The chat is gone (403: the bot was
    blocked, kicked, or the user deactivated; 400 "chat not found"): his link
    is dropped, then DestinationGone. Flood control (429, retry_after),
    Telegram's 5xx, a network error or timeout, any other refusal:
    TemporaryFailure, which the dispatcher retries with back-off."""
    try:
        async_to_sync(_send_message)(chat_id, notice)
    except TelegramForbiddenError as error:
        links.forget_chat(notice.user_id)
        raise DestinationGone(str(error)) from error
    except (TelegramBadRequest, TelegramNotFound) as error:
        if any(words in str(error).lower() for words in GONE_CHAT):
            links.forget_chat(notice.user_id)
            raise DestinationGone(str(error)) from error
        log.error("Telegram refused notice %s to user %s: %s", notice.key, notice.user_id, error)
        raise TemporaryFailure(str(error)) from error
    except TelegramRetryAfter as error:
        raise TemporaryFailure(str(error), retry_after=error.retry_after) from error
    except (TelegramAPIError, OSError, TimeoutError) as error:  # 5xx, network, timeouts (aiohttp's too)
        raise TemporaryFailure(str(error)) from error


async def _send_message(chat_id: int, notice: Notice) -> None:
    buttons = [(notice.button, notice.url)] if notice.button and notice.url else []
    async with new_bot() as telegram:
        await telegram.send_message(chat_id, message_text(notice), parse_mode=ParseMode.HTML,
                                    reply_markup=keyboard(buttons))
