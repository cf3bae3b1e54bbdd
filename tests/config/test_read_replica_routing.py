"""Which database a read goes to, with read replicas configured (config/db_router.py,
accounts/primary_reads.py; README "Read replicas").

The router's choices, taken inside requests made to pass through the
middleware as daphne would pass them: a page's view reads a replica; the
primary serves everything that must read its own writes. The replicas
themselves are not needed for the choice (tests/integration/test_read_replicas.py
runs a real primary and replica)."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.http import HttpResponse
from django.test import RequestFactory

from accounts import primary_reads
from accounts.models import User
from api.models import ApiToken
from config.db_router import ReplicaRouter
from gameplay.models import Game

REPLICAS = ["replica1", "replica2"]


@pytest.fixture
def replicas(settings):
    settings.DATABASE_REPLICAS = REPLICAS
    settings.READ_OWN_WRITES_SECONDS = 30
    primary_reads.cache.clear()
    yield
    primary_reads.cache.clear()


class Viewer:
    def __init__(self, pk: int | None):
        self.pk = pk
        self.is_authenticated = pk is not None


def serve(method: str = "get", user=None, view=None, path: str = "/sheets/1/", **headers) -> list[str]:
    """The databases the view's reads of a game went to, the request served by the middleware."""
    chosen = []

    def view_func(request):
        chosen.append(ReplicaRouter().db_for_read(Game))
        return HttpResponse("ok")

    view_func = view(view_func) if view else view_func
    request = getattr(RequestFactory(), method)(path, headers=headers)
    request.user = user or AnonymousUser()

    def get_response(request):
        middleware.process_view(request, view_func, (), {})
        return view_func(request)

    middleware = primary_reads.ReplicaReadsMiddleware(get_response)
    middleware(request)
    return chosen


def test_a_pages_view_reads_a_replica(replicas):
    assert serve()[0] in REPLICAS
    assert serve(user=Viewer(7))[0] in REPLICAS


def test_outside_a_page_every_read_goes_to_the_primary(replicas):
    # A consumer, a Celery task, a command: no request at all.
    assert ReplicaRouter().db_for_read(Game) == "default"


def test_a_form_sent_reads_and_writes_the_primary(replicas):
    assert serve("post", user=Viewer(7)) == ["default"]
    assert ReplicaRouter().db_for_write(Game) == "default"


def test_after_a_viewers_own_change_the_viewers_pages_read_the_primary(replicas):
    serve("post", user=Viewer(7))

    assert serve(user=Viewer(7)) == ["default"]
    assert serve(user=Viewer(8))[0] in REPLICAS  # someone else's pages are not affected


def test_a_change_over_a_socket_sends_the_players_pages_to_the_primary(replicas):
    primary_reads.mark_changed(7)

    assert serve(user=Viewer(7)) == ["default"]


def test_the_primary_is_read_only_for_as_long_as_the_setting_says(replicas, settings):
    settings.READ_OWN_WRITES_SECONDS = 0
    serve("post", user=Viewer(7))
    primary_reads.mark_changed(7)

    assert serve(user=Viewer(7))[0] in REPLICAS


def test_an_api_clients_change_sends_its_tokens_reads_to_the_primary(replicas):
    serve("post", path="/api/v1/games/1/move", Authorization="Bearer kt_secret")

    assert serve(path="/api/v1/games/1", Authorization="Bearer kt_secret") == ["default"]
    assert serve(path="/api/v1/games/1", Authorization="Bearer kt_other")[0] in REPLICAS


def test_the_live_game_page_reads_the_primary(replicas):
    assert serve(view=primary_reads.reads_primary) == ["default"]


def test_sessions_and_api_tokens_are_read_from_the_primary_even_in_a_page(replicas):
    router = ReplicaRouter()
    chosen = []
    request = RequestFactory().get("/")
    request.user = AnonymousUser()

    def view(request):
        from django.contrib.sessions.models import Session

        chosen.extend([router.db_for_read(Session), router.db_for_read(ApiToken), router.db_for_read(User)])
        return HttpResponse()

    middleware = primary_reads.ReplicaReadsMiddleware(
        lambda request: middleware.process_view(request, view, (), {}) or view(request))
    middleware(request)

    assert chosen[:2] == ["default", "default"] and chosen[2] in REPLICAS


@pytest.mark.django_db
def test_a_read_inside_a_transaction_goes_to_the_primary(replicas):
    chosen = []

    def view(request):
        with transaction.atomic():
            chosen.append(ReplicaRouter().db_for_read(Game))
        return HttpResponse()

    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    middleware = primary_reads.ReplicaReadsMiddleware(
        lambda request: middleware.process_view(request, view, (), {}) or view(request))
    middleware(request)

    assert chosen == ["default"]


def test_migrations_run_on_the_primary_only():
    router = ReplicaRouter()

    assert router.allow_migrate("default", "gameplay") is True
    assert router.allow_migrate("replica1", "gameplay") is False


def test_without_replicas_a_change_marks_nobody(settings):
    settings.DATABASE_REPLICAS = []
    primary_reads.cache.clear()
    primary_reads.mark_changed(7)

    assert not primary_reads.changed_recently(["user:7"])


class BrokenCache:
    def clear(self):
        pass

    def get_many(self, keys):
        raise ConnectionError("Redis is away")

    def set_many(self, values, timeout=None):
        raise ConnectionError("Redis is away")


def test_with_the_cache_away_a_change_still_succeeds_and_its_viewers_pages_read_the_primary(replicas, monkeypatch):
    monkeypatch.setattr(primary_reads, "cache", BrokenCache())

    primary_reads.mark_changed(7)  # no error: the move is made, only its mark is lost

    assert serve(user=Viewer(7)) == ["default"]
    assert serve("post", user=Viewer(7)) == ["default"]


def test_a_page_that_writes_reads_the_primary_from_then_on_and_marks_its_viewer(replicas):
    router = ReplicaRouter()
    chosen = []
    request = RequestFactory().get("/invite/abc/")
    request.user = Viewer(7)

    def view(request):
        chosen.append(router.db_for_read(Game))
        chosen.append(router.db_for_write(Game))
        chosen.append(router.db_for_read(Game))
        return HttpResponse()

    middleware = primary_reads.ReplicaReadsMiddleware(
        lambda request: middleware.process_view(request, view, (), {}) or view(request))
    middleware(request)

    assert chosen[0] in REPLICAS and chosen[1:] == ["default", "default"]
    assert serve(user=Viewer(7)) == ["default"]
