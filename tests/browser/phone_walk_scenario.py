"""The set-up of the phone walk (test_every_page_fits_a_phone.py), run
against the live server's database:

    python -m tests.browser.phone_walk_scenario PASSWORD

A Russian-speaking player with a long name and everything a player's pages
can show: rated games (a rating chart), finished games, a Joker table in
play with three computer players, a finished Durak game with its 78-digit
seed revealed (its replay and record), a league with a running season, a
challenge waiting for his answer, a friend; and a moderator with a long
name and an authenticator app (the admin asks staff for a second factor).
Prints one JSON line: his username, the addresses of every page to walk,
and the moderator's pages (the admin, moderation, the API's documentation)."""

import json
import os
import sys

ME = "boris"
MODERATOR = "moderator"
OTHERS = ("vasilisa", "konstantin", "evfrosinia")
NAMES = {"boris": "Борис Бородин-Запорожский", "vasilisa": "Василиса Премудрая-Прекраснова",
         "konstantin": "Константин Константинопольский", "evfrosinia": "Евфросиния Ярославна",
         MODERATOR: "Модератор Александра Константинопольская"}


def every_page(password: str) -> dict:
    from django.contrib.auth import get_user_model

    from correspondence import services as correspondence
    from gameplay import services
    from gameplay.broadcast import game_payload
    from gameplay.models import Game
    from leagues import drawing
    from leagues import services as leagues
    from leagues.models import Division

    users = {name: get_user_model().objects.create_user(
        username=name, password=password, email=f"{name}@example.com", language="ru", time_zone="Europe/Moscow",
        display_name=NAMES[name], is_staff=(name == ME)) for name in (ME, *OTHERS)}
    me, everyone = users[ME], [users[ME], *(users[name] for name in OTHERS)]
    for _ in range(2):  # rated Joker games: a rating chart and finished games on the player page
        game = services.create_game(everyone[0], "joker", players=4)
        for user in everyone[1:]:
            services.join_game(game.pk, user)
        services.resign(game.pk, everyone[-1])
    joker = services.create_game(me, "joker", players=4)
    services.fill_with_bots(joker.pk, me)
    durak = services.create_game(me, "durak", players=2)
    services.fill_with_bots(durak.pk, me)
    while (game := Game.objects.get(pk=durak.pk)).status == Game.Status.ACTIVE:
        services.submit_move(game.pk, me, game_payload(game, 0)["legal"][0], game.version)
    league = leagues.create_league(me, name="Пятничный дурак", engine="durak", players=2, division_size=4)
    season = league.seasons.get()
    for user in everyone:
        leagues.register(season.pk, user)
    leagues.start_season(season.pk, me)
    if not Division.objects.filter(season=season).exists():
        drawing.draw_season(season.pk)
    division = Division.objects.filter(season=season).first()
    correspondence.create_challenge(users["vasilisa"], [ME], "durak", {"mode": "perevodnoy"},
                                    {"time_preset": "slow"})
    correspondence.follow(me, "konstantin")
    pages = ["/", "/my-games/", "/challenges/", "/challenges/new/?to=konstantin", "/friends/", f"/players/{ME}/",
             "/players/vasilisa/", "/accounts/profile/", "/accounts/profile/edit/", "/accounts/password/",
             "/notifications/", "/api/tokens/", "/ratings/", "/ratings/joker/", "/leagues/", "/leagues/new/",
             "/leagues/rules/", "/leagues/invitations/", league.get_absolute_url(),
             f"{league.get_absolute_url()}{season.number}/", division.get_absolute_url(), "/reports/",
             "/reports/new/?player=vasilisa", "/games/new/", joker.get_absolute_url(), f"/sheets/{joker.pk}/",
             durak.get_absolute_url(), f"/sheets/{durak.pk}/", f"/sheets/{durak.pk}/record/",
             f"/sheets/{durak.pk}/replay/", "/rules/", "/rules/joker/", "/rules/durak/", "/rules/odessa/",
             "/rules/domino_poker/", "/rules/ipuker/", "/offline/"]
    moderator = _moderator(password)
    admin_pages = ["/admin/", "/admin/leagues/league/", f"/admin/leagues/league/{league.pk}/change/",
                   f"/admin/leagues/season/{season.pk}/change/", "/admin/moderation/pairreview/",
                   "/admin/moderation/player/", f"/admin/moderation/player/{me.pk}/change/", "/admin/moderation/auditentry/",
                   "/admin/gameplay/game/", f"/admin/gameplay/game/{joker.pk}/change/", "/admin/accounts/user/",
                   f"/admin/accounts/user/{me.pk}/change/", "/admin/moderation/report/",
                   "/admin/correspondence/challenge/", "/moderation/", f"/moderation/games/{joker.pk}/",
                   "/api/v1/docs"]
    return {"username": ME, "pages": pages, "moderator": moderator.username, "admin_pages": admin_pages, "joker": joker.get_absolute_url(), "sheet": f"/sheets/{joker.pk}/",
            "division": division.get_absolute_url(),
            "anonymous": ["/accounts/login/", "/accounts/signup/", "/accounts/password/reset/", "/rules/"]}


def _moderator(password: str):
    """A superuser with the authenticator app whose secret the browser tests know (MODERATOR_TOTP_SECRET)."""
    from allauth.mfa.models import Authenticator
    from allauth.mfa.utils import encrypt
    from django.contrib.auth import get_user_model

    from tests.browser.conftest import MODERATOR_TOTP_SECRET

    user = get_user_model().objects.create_user(
        username=MODERATOR, password=password, email=f"{MODERATOR}@example.com", language="ru",
        time_zone="Europe/Moscow", display_name=NAMES[MODERATOR], is_staff=True, is_superuser=True)
    Authenticator.objects.create(user=user, type=Authenticator.Type.TOTP,
                                 data={"secret": encrypt(MODERATOR_TOTP_SECRET)})
    return user


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    name, *args = argv
    print(json.dumps({"every_page": every_page}[name](*args)))


if __name__ == "__main__":
    main(sys.argv[1:])
