"""Issue 40, part 3: "Download my data" (a zip of JSON files built by a
Celery task, linked by email and on the page, kept 7 days) and "Delete my
account" (confirmed by password and second factor; it anonymises): an
account that used every feature is exported, then deleted, and the
database holds no trace of its personal data."""

import io
import json
import time
import zipfile
from datetime import timedelta

import pytest
import time_machine
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from allauth.mfa.totp.internal.auth import format_hotp_value, hotp_value
from allauth.mfa.utils import encrypt
from allauth.usersessions.models import UserSession
from axes.models import AccessAttempt
from django.apps import apps
from django.core import mail
from django.db import models
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import DataExport, User, Vacation
from api.tokens import create_token
from correspondence import services as correspondence
from correspondence.models import Note
from gameplay import services as games
from gameplay.models import ChatMessage, Game
from leagues import services as leagues
from moderation.services import people
from notifications.push.models import PushSubscription
from notifications.models import Delivery, Preference
from notifications.telegram.models import TelegramLink

PASSWORD = "zinaida's long password"
SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
# Every piece of her personal data, as it could be found in any column.
TRACES = ["zinaq", "zinaida", "quux", "zinaendpoint", "987654321", "203.0.113.77", "zinabrowser",
          "zina-bot-token", "private note of zina", "zina writes in chat", "zina's report", "zina's phone"]


def code() -> str:
    return format_hotp_value(hotp_value(SECRET, int(time.time()) // 30))


@pytest.fixture
def others(django_user_model):
    users = [django_user_model.objects.create_user(name, f"{name}@example.com", "pw-" + name)
             for name in ("boris", "vera", "gleb")]
    users.append(django_user_model.objects.create_user("mod", "mod@example.com", "pw-mod", is_staff=True,
                                                       is_superuser=True))
    return users


@pytest.fixture
def zina(others, client):
    """An account that has used every feature of the site."""
    boris, vera, gleb, mod = others
    user = User.objects.create_user("zinaq", "zina.quux@example.com", PASSWORD, display_name="Zinaida Quux",
                                    language="en")
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
    Authenticator.objects.create(user=user, type=Authenticator.Type.TOTP, data={"secret": encrypt(SECRET)})
    Vacation.objects.create(user=user, starts_at=timezone.now() - timedelta(days=30),
                            ends_at=timezone.now() - timedelta(days=29))
    correspondence.follow(user, "vera")
    correspondence.follow(vera, "zinaq")
    correspondence.block(user, "gleb")
    finished = games.create_seated_game([user, boris], "durak")
    games.post_chat(finished.pk, user, "zina writes in chat")
    correspondence.save_note(finished.pk, user, "private note of zina")
    games.resign(finished.pk, boris)
    running = games.create_seated_game([user, vera], "durak")
    games.create_game(user, "joker", players=4)
    correspondence.create_challenge(user, ["vera"], "durak")
    league = leagues.create_league(mod, name="Zina's league", engine="durak", players=2)
    leagues.register(league.seasons.get().pk, user)
    PushSubscription.objects.create(user=user, endpoint="https://fcm.googleapis.com/fcm/send/zinaendpoint",
                                    p256dh="k" * 80, auth="a" * 20, label="Zina's phone")
    Preference.objects.create(user=user, destination="email", kind="your_move", mode="off")
    Delivery.objects.create(key="challenge:zina", user=vera, destination="email", kind="challenge",
                            notice={"title": "Zinaida Quux challenged you", "body": "A game of Durak"})
    TelegramLink.objects.create(user=user, chat_id=987654321)
    create_token(user, "zina-bot-token", ["read"], 30)
    people.send_report(user, "abuse", "zina's report", player=boris)
    people.mute(user.pk, mod, "rude in chat", timezone.now() + timedelta(days=1))
    UserSession.objects.create(user=user, ip="203.0.113.77", user_agent="ZinaBrowser/1.0", session_key="x" * 32)
    AccessAttempt.objects.create(username="zinaq", ip_address="203.0.113.77", user_agent="ZinaBrowser/1.0",
                                 failures_since_start=1)
    user.running_game = running
    return user


def exported(client: Client, django_capture_on_commit_callbacks) -> dict:
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("request_data_export"))
    page = client.get(reverse("personal_data"))
    export = DataExport.objects.get()
    link = reverse("download_data_export", args=[export.key])
    assert link in page.text
    response = client.get(link)
    assert response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    return {name: json.loads(archive.read(name)) for name in archive.namelist()}


def test_download_my_data_holds_everything_and_no_secret(client, zina, django_capture_on_commit_callbacks):
    client.force_login(zina)

    files = exported(client, django_capture_on_commit_callbacks)

    assert mail.outbox[-1].to == ["zina.quux@example.com"] and reverse("personal_data") in mail.outbox[-1].body
    assert files["profile.json"]["account"]["display_name"] == "Zinaida Quux"
    assert files["profile.json"]["second_factors"][0]["type"] == "totp"
    assert SECRET not in json.dumps(files)
    assert [n["text"] for n in files["notes.json"]] == ["private note of zina"]
    assert [c["text"] for c in files["chat.json"]] == ["zina writes in chat"]
    assert files["friends.json"] == {"i_follow": ["vera"], "follow_me": ["vera"], "i_block": ["gleb"]}
    assert files["notifications.json"]["push_devices"][0]["label"] == "Zina's phone"
    assert "zinaendpoint" not in json.dumps(files["notifications.json"])
    assert files["api_tokens.json"][0]["name"] == "zina-bot-token" and "key_hash" not in files["api_tokens.json"][0]
    assert files["moderation.json"]["decisions_about_me"][0]["action"] == "mute"
    assert "mod" not in json.dumps(files["moderation.json"]["decisions_about_me"])
    assert files["leagues.json"]["entries"][0]["league"] == "Zina's league"
    assert files["challenges.json"]["sent"][0]["status"] == "pending"
    records = {g["game"]: g for g in files["games.json"]}
    running = zina.running_game
    mine = records[running.pk]
    assert "record" not in mine and "my_view" in mine
    others_hand = running.state["hands"][1 - mine["seat"]] if "hands" in running.state else None
    assert running.seed not in json.dumps(mine)
    if others_hand:
        assert others_hand != mine["my_view"].get("view", {}).get("hand")
    assert any("record" in g for g in files["games.json"])


def test_an_export_expires_after_seven_days(client, zina, django_capture_on_commit_callbacks):
    client.force_login(zina)
    exported(client, django_capture_on_commit_callbacks)
    link = reverse("download_data_export", args=[DataExport.objects.get().key])
    with time_machine.travel(timezone.now() + timedelta(days=7, minutes=1)):
        assert client.get(link).status_code == 404


def test_deletion_asks_the_password_and_the_second_factor(client, zina):
    client.force_login(zina)
    without = client.post(reverse("delete_account"), {"confirm": "on", "code": code()})
    assert without.status_code == 400 and "This field is required." in without.text
    wrong = client.post(reverse("delete_account"), {"password": "nope", "confirm": "on", "code": code()})
    assert "That is not your password." in wrong.text
    bad_code = client.post(reverse("delete_account"), {"password": PASSWORD, "confirm": "on", "code": "123456"})
    assert "Incorrect code." in bad_code.text
    zina.refresh_from_db()
    assert zina.is_active and zina.username == "zinaq"


def test_a_deleted_account_leaves_no_trace_of_its_personal_data(client, zina, others):
    client.force_login(zina)
    running = zina.running_game

    response = client.post(reverse("delete_account"), {"password": PASSWORD, "confirm": "on", "code": code()})

    assert response.status_code == 302
    zina.refresh_from_db()
    assert zina.name == f"Deleted player {zina.pk}" and not zina.is_active and not zina.has_usable_password()
    running.refresh_from_db()
    assert running.status == Game.Status.FINISHED  # resigned: the result stays for the others
    assert not Game.objects.filter(status=Game.Status.OPEN, seats__user=zina).exists()
    assert set(ChatMessage.objects.filter(user=zina).values_list("text", flat=True)) == {"[deleted]"}
    assert not Note.objects.exists()
    assert client.get(reverse("profile")).status_code == 302  # logged out
    found = traces_in_the_database()
    assert found == []


def traces_in_the_database() -> list[str]:
    """Every (table, column, value) holding one of her traces, in any model's text, JSON or number column."""
    found = []
    for model in apps.get_models():
        columns = [f.attname for f in model._meta.concrete_fields
                   if isinstance(f, (models.CharField, models.TextField, models.JSONField, models.BigIntegerField,
                                     models.GenericIPAddressField))]
        if not columns:
            continue
        for row in model._default_manager.values_list(*columns):
            for column, value in zip(columns, row):
                text = json.dumps(value, ensure_ascii=False, default=str).casefold()
                found += [f"{model._meta.label}.{column}: {trace}" for trace in TRACES if trace in text]
    return found


def test_a_deleted_players_league_games_go_on_with_a_computer_where_the_league_says_so(client, zina, others):
    from leagues.models import Division, League
    from tests.leagues.conftest import start

    boris, vera, _gleb, mod = others
    league = leagues.create_league(mod, name="Computers finish", engine="durak", players=2,
                                   on_withdrawal=League.OnWithdrawal.COMPUTER, computer_substitutes=True)
    season = league.seasons.get()
    for player in (zina, boris, vera):
        leagues.register(season.pk, player)
    start(season.pk, mod)
    league_games = list(Game.objects.filter(fixture__division__season=season, seats__user=zina))
    assert len(league_games) == 2
    client.force_login(zina)

    client.post(reverse("delete_account"), {"password": PASSWORD, "confirm": "on", "code": code()})

    for game in league_games:
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE and game.seats.filter(is_bot=True, user=None).exists()
    assert Division.objects.get(season=season).entries.get(user=zina).withdrawn_at is not None
    assert traces_in_the_database() == []
