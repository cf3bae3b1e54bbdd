"""A moderator warns a player (with a reason for the audit and the words the
player reads): the warning stands at the top of every page until the player
says it is read, goes out as a "moderator's decision" notice by email, is
one audit row, and changes nothing else. The fair-play queue offers it for
either player of a pair."""

import pytest
from django.core import mail
from django.urls import reverse

from gameplay.services.base import GameError
from moderation.models import AuditEntry, PairReview
from moderation.services import people as services
from notifications.models import Delivery

from tests.moderation.conftest import run_on_commit  # noqa: F401 (fixture)

from .conftest import client_for

pytestmark = pytest.mark.django_db

WORDS = "Please stop resigning your games against the same friend."


def test_a_warned_player_reads_it_on_every_page_until_saying_it_is_read(players, moderator):
    services.warn(players[1].pk, moderator, "boosting alert #12", WORDS)
    client = client_for(players[1])
    for page in (reverse("lobby"), reverse("my_games"), reverse("profile")):
        assert WORDS in client.get(page).text

    response = client.post(reverse("acknowledge_warning"), {"next": reverse("my_games")})

    assert response.status_code == 302 and response["Location"] == reverse("my_games")
    assert WORDS not in client.get(reverse("lobby")).text
    players[1].refresh_from_db()
    assert players[1].moderator_warning == "" and players[1].warned_at is not None


def test_other_players_never_see_someone_elses_warning(players, moderator):
    services.warn(players[1].pk, moderator, "boosting alert #12", WORDS)
    assert WORDS not in client_for(players[0]).get(reverse("lobby")).text
    assert WORDS not in client_for(players[0]).get(reverse("player", args=[players[1].username])).text


def test_the_warning_is_one_audit_row_with_its_reason_and_words(players, moderator):
    services.warn(players[1].pk, moderator, "boosting alert #12", WORDS)
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.moderator, entry.target_user, entry.reason) == (
        AuditEntry.Action.WARN, moderator, players[1], "boosting alert #12")
    assert entry.after == {"moderator_warning": WORDS}


def test_the_warning_goes_out_as_a_moderators_decision_by_email(players, moderator, run_on_commit):
    players[1].email = "second@example.com"
    players[1].save(update_fields=["email"])
    with run_on_commit():
        services.warn(players[1].pk, moderator, "boosting alert #12", WORDS)
    delivery = Delivery.objects.get(user=players[1])
    assert delivery.kind == "moderation" and delivery.notice["body"] == WORDS
    assert any(WORDS in message.body and message.to == ["second@example.com"] for message in mail.outbox)


@pytest.mark.parametrize("reason, words, error", [
    ("", WORDS, "Give a reason"),
    ("alert", "   ", "Write the warning"),
    ("alert", "x" * 2001, "too long"),
    ("alert", "nul\x00byte", "cannot be stored"),
])
def test_a_warning_without_a_reason_or_words_is_refused_and_nothing_changes(players, moderator, reason, words, error):
    with pytest.raises(GameError, match=error):
        services.warn(players[1].pk, moderator, reason, words)
    players[1].refresh_from_db()
    assert players[1].moderator_warning == "" and not AuditEntry.objects.exists()


def test_only_moderators_warn_and_not_themselves(players, moderator, plain_user):
    with pytest.raises(GameError):
        services.warn(players[1].pk, plain_user, "alert", WORDS)
    with pytest.raises(GameError):
        services.warn(moderator.pk, moderator, "alert", WORDS)
    assert not AuditEntry.objects.exists()


def test_acknowledging_goes_back_only_to_this_sites_pages(players, moderator):
    services.warn(players[1].pk, moderator, "alert", WORDS)
    response = client_for(players[1]).post(reverse("acknowledge_warning"), {"next": "https://evil.example/"})
    assert response["Location"] == "/"
    assert client_for(players[1]).get(reverse("acknowledge_warning")).status_code == 405


def test_a_moderator_warns_in_the_admin_and_the_fair_play_queue_links_it(players, moderator):
    review = PairReview.objects.create(first=players[0], second=players[1], engine="durak",
                                       status=PairReview.Status.OPEN, reasons=["boosting:first"], games=[])
    client = client_for(moderator)
    page = client.get(reverse("admin:moderation_pairreview_change", args=[review.pk])).text
    warn_url = reverse("admin:moderation_player_warn", args=[players[1].pk])
    assert warn_url in page

    assert client.post(warn_url, {"reason": "alert", "text": ""}).status_code == 200  # the words are required
    assert not AuditEntry.objects.exists()
    response = client.post(warn_url, {"reason": "boosting alert", "text": WORDS}, follow=True)

    assert "The warning is sent." in response.text
    players[1].refresh_from_db()
    assert players[1].moderator_warning == WORDS
