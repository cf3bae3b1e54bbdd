"""Issue 40, part 1: sign-up confirms the address by a link; until then the
account plays only casual games and is mailed nothing but the confirmation
and the password reset; the address changes only once the new one is
confirmed; login by name or address; existing accounts count as verified."""

import importlib
import re
from datetime import timedelta

import pytest
import time_machine
from allauth.account.models import EmailAddress
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from correspondence import services as correspondence
from gameplay import services as games
from gameplay.models import Game
from leagues import services as leagues

SIGNUP = {
    "username": "newcomer", "display_name": "Newcomer", "email": "newcomer@example.com",
    "password1": "green tea and lemon", "password2": "green tea and lemon",
}


def sign_up(client, **changes):
    response = client.post(reverse("signup"), {**SIGNUP, **changes})
    assert response.status_code == 302
    return get_user_model().objects.get(username=(changes.get("username") or SIGNUP["username"]))


def link_in(message) -> str:
    return re.search(r"https?://\S+/accounts/confirm-email/[^/\s]+/", message.body).group(0)


def confirm(client, link: str):
    path = link.split("://", 1)[1].split("/", 1)[1]
    return client.post("/" + path)


@pytest.fixture
def veteran(django_user_model):
    """An account that may play with anyone (made by the staff: its address counts as confirmed)."""
    return django_user_model.objects.create_user("veteran", "veteran@example.com", "pw-veteran-1")


def test_signup_mails_a_confirmation_link_to_the_sites_address(client, db, settings):
    settings.SITE_URL = "https://games.example.org"
    user = sign_up(client)

    assert not user.address_confirmed
    assert [m.to for m in mail.outbox] == [["newcomer@example.com"]]
    assert link_in(mail.outbox[0]).startswith("https://games.example.org/accounts/confirm-email/")
    assert EmailAddress.objects.get(user=user).verified is False


def test_following_the_link_confirms_the_address_and_lifts_the_limits(client, db):
    user = sign_up(client)
    link = link_in(mail.outbox[0])

    page = client.get(link.split("://", 1)[1].split("/", 1)[1].join(["/", ""]))
    assert page.status_code == 200 and "newcomer@example.com" in page.text
    response = confirm(client, link)

    assert response.status_code == 302
    user.refresh_from_db()
    assert user.address_confirmed and EmailAddress.objects.get(user=user).verified
    assert games.create_game(user, "durak", rated=True).rated


def test_a_reused_or_expired_link_is_refused_with_a_clear_message(client, db):
    sign_up(client)
    link = link_in(mail.outbox[0])
    confirm(client, link)

    again = client.get("/" + link.split("://", 1)[1].split("/", 1)[1])
    assert "This email confirmation link expired or is invalid" in again.text

    other = sign_up(client.__class__(), username="late", email="late@example.com")
    late_link = link_in(mail.outbox[-1])
    with time_machine.travel(timezone.now() + timedelta(days=4)):
        stale = client.get("/" + late_link.split("://", 1)[1].split("/", 1)[1])
        assert "This email confirmation link expired or is invalid" in stale.text
        confirm(client, late_link)
    other.refresh_from_db()
    assert not other.address_confirmed


def test_until_confirmed_an_account_plays_only_casual_games(client, db, veteran):
    newcomer = sign_up(client)

    with pytest.raises(games.GameError) as refused:
        games.create_game(newcomer, "durak", rated=True)
    assert refused.value.code == "unverified" and "Confirm your email address first" in refused.value.message
    casual = games.create_game(newcomer, "durak", rated=False)
    assert casual.seats.filter(user=newcomer).exists()

    rated = games.create_game(veteran, "durak", rated=True)
    with pytest.raises(games.GameError) as refused:
        games.join_game(rated.pk, newcomer)
    assert refused.value.code == "unverified"
    invited = games.create_game(veteran, "durak", rated=False, is_private=True)
    games.join_game(invited.pk, newcomer)

    league = leagues.create_league(veteran, name="Friday Durak", engine="durak", players=2)
    with pytest.raises(games.GameError) as refused:
        leagues.register(league.seasons.get().pk, newcomer)
    assert refused.value.code == "unverified"


def test_until_confirmed_he_challenges_only_those_who_follow_him(client, db, veteran, django_user_model):
    newcomer = sign_up(client)
    stranger = django_user_model.objects.create_user("stranger", "stranger@example.com", "pw-stranger-1")

    with pytest.raises(correspondence.CorrespondenceError) as refused:
        correspondence.create_challenge(newcomer, ["stranger"], "durak")
    assert refused.value.code == "unverified"
    correspondence.follow(veteran, "newcomer")
    assert correspondence.create_challenge(newcomer, ["veteran"], "durak").pk


def test_until_confirmed_he_chats_only_at_private_tables(client, db, veteran):
    newcomer = sign_up(client)
    public = games.create_game(veteran, "durak", rated=False)
    games.join_game(public.pk, newcomer)
    private = games.create_game(veteran, "durak", rated=False, is_private=True)
    games.join_game(private.pk, newcomer)

    with pytest.raises(games.GameError) as refused:
        games.post_chat(public.pk, newcomer, "hello all")
    assert refused.value.code == "unverified"
    assert games.post_chat(private.pk, newcomer, "hello friend").text == "hello friend"


def test_until_confirmed_the_site_mails_him_nothing_but_the_confirmation(client, db, veteran,
                                                                         django_capture_on_commit_callbacks):
    newcomer = sign_up(client)
    link = link_in(mail.outbox[0])
    correspondence.follow(veteran, "newcomer")
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        correspondence.create_challenge(veteran, ["newcomer"], "durak")
    assert mail.outbox == []

    confirm(client, link)
    with django_capture_on_commit_callbacks(execute=True):
        correspondence.create_challenge(veteran, ["newcomer"], "joker", players=4, fill_with_bots=True)
    assert [m.to for m in mail.outbox if "newcomer@example.com" in m.to and "confirm" not in m.subject.lower()]


def test_the_page_says_why_and_offers_the_link_again_at_most_once_in_a_while(client, db):
    sign_up(client)

    page = client.get(reverse("lobby"))
    assert "Confirm your email address" in page.text and reverse("resend_confirmation") in page.text

    sent = len(mail.outbox)
    too_soon = client.post(reverse("resend_confirmation"), follow=True)
    assert "a few minutes ago" in too_soon.text and len(mail.outbox) == sent
    with time_machine.travel(timezone.now() + timedelta(minutes=4)):
        again = client.post(reverse("resend_confirmation"), follow=True)
    assert "We have sent a new link" in again.text and len(mail.outbox) == sent + 1
    assert mail.outbox[-1].to == ["newcomer@example.com"]


def test_a_new_address_replaces_the_old_only_once_confirmed(client, db, veteran):
    client.force_login(veteran)
    EmailAddress.objects.create(user=veteran, email=veteran.email, primary=True, verified=True)

    response = client.post(reverse("account_email"), {"action_add": "", "email": "moved@example.com"})
    assert response.status_code == 302
    veteran.refresh_from_db()
    assert veteran.email == "veteran@example.com"
    assert mail.outbox[-1].to == ["moved@example.com"]

    confirm(client, link_in(mail.outbox[-1]))
    veteran.refresh_from_db()
    assert veteran.email == "moved@example.com"
    assert list(EmailAddress.objects.filter(user=veteran).values_list("email", "verified", "primary")) == [
        ("moved@example.com", True, True)]


def test_login_by_name_or_by_address(client, veteran):
    assert client.post(reverse("login"), {"username": "veteran@example.com", "password": "pw-veteran-1"}).url == \
        reverse("lobby")
    client.logout()
    assert client.post(reverse("login"), {"username": "veteran", "password": "pw-veteran-1"}).url == reverse("lobby")


def test_existing_accounts_with_an_address_are_taken_as_verified(db, django_user_model):
    first = django_user_model.objects.create_user("first", "Shared@example.com", "pw")
    second = django_user_model.objects.create_user("second", "shared@example.com", "pw")
    none = django_user_model.objects.create_user("none", "", "pw")
    own = django_user_model.objects.create_user("own", "own@example.com", "pw")

    importlib.import_module("accounts.migrations.0006_existing_addresses_verified").verify_existing_addresses(
        apps, None)

    rows = dict(EmailAddress.objects.values_list("user__username", "verified"))
    assert rows == {"first": True, "second": False, "own": True}
    assert EmailAddress.objects.get(user=own).primary
    assert not EmailAddress.objects.filter(user=none).exists() and first and second


def test_the_demo_accounts_of_make_run_have_verified_addresses(db, django_user_model):
    from django.core.management import call_command

    call_command("create_demo_accounts", stdout=__import__("io").StringIO())

    for username in ("admin", "anna", "boris", "vera"):
        user = django_user_model.objects.get(username=username)
        assert EmailAddress.objects.filter(user=user, email=f"{username}@example.com", verified=True,
                                           primary=True).exists()
        assert user.address_confirmed


def test_until_confirmed_the_new_table_form_opens_unrated_tables_and_says_why(client, db):
    sign_up(client)
    form = client.get(reverse("new_game")).text
    assert "Rated tables open once your email address is confirmed." in form

    response = client.post(reverse("new_game"), {"engine": "durak", "time_preset": "live",
                                                 "on_timeout": "autoplay", "rated": "on"})

    assert response.status_code == 302
    assert Game.objects.get().rated is False


def test_a_session_made_before_allauth_came_stays_logged_in(client, veteran):
    """Such a session names Django's ModelBackend: still in AUTHENTICATION_BACKENDS."""
    client.force_login(veteran, backend="django.contrib.auth.backends.ModelBackend")
    assert client.get(reverse("profile")).status_code == 200
