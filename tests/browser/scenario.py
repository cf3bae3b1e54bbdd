"""Set-ups for the browser tests, run against the live server's database:

    python -m tests.browser.scenario NAME [ARGS...]

(with the server's environment, see conftest.py). Prints one JSON line.

- ``follow_suit USERNAME PASSWORD``: an English-speaking player at a Joker
  table with three computer players, brought (through the services, the way
  the site does it) to a moment where it is his turn to play and some card
  in his hand may not be played. Games are built from fixed seeds 1, 2, 3...
  so the result is the same on every run.
- ``joker_in_hand USERNAME PASSWORD``: the same, brought to his turn to play
  with a joker he may play.
- ``ipuker_table USERNAME PASSWORD``: an English-speaking player's first
  Ipuker table, started with three computer players.
- ``secret_stakes USERNAME PASSWORD``: an English-speaking player at an
  Ipuker table with three computer players, in round 1 where he is not the
  leader: the two other non-leaders (computers) have staked in secret, his
  own stake is awaited.
- ``finished_series_game USERNAME PASSWORD``: a player's first game of a
  two-game Durak series against a computer player, played to its end, so
  that the second has started.
- ``lost_on_time``, ``durak_resigned``, ``abort_table``: games that end (or
  are about to be aborted) for the results and endings tests; see each function.
- ``joker_against_computers USERNAME PASSWORD``: his Joker table with three
  computer players, in its first deal (seed 1).
- ``joker_trump_choice USERNAME PASSWORD``: the same, brought to a 9-card
  deal where he names the trump after his first 3 cards.
- ``finished_games_only USERNAME PASSWORD``: a player (on the default time
  zone) whose only game is over: he resigned it.
- ``two_joker_tables USERNAME PASSWORD``: two such tables, both waiting for his move.
- ``replayable_game USERNAME PASSWORD``: a two-player Durak game against a
  computer, played to its end.
- ``phone_tables USERNAME PASSWORD``: an English-speaking player at five
  4-player tables with computer players, each at a moment where it is his
  move: Joker in the bids of the first deal (``joker_first``) and of the
  first 9-card deal (``joker``: pulka 1 on the sheet), Durak when he defends
  (a "Take" button), Ipuker in its third round (his stake), domino Poker
  with 7 tiles to play from (``domino_poker``); and an open
  table of another player with a long name. Fixed seeds, so the same on
  every run.
- ``domino_leader USERNAME PASSWORD``: a domino Poker table for two brought
  to stage 5 where the player leads (see the function).
- ``domino_final USERNAME PASSWORD [MOMENT]``: a domino Poker table for four
  at stage 5's secret choice, the player's still to make, or at his blind bid.
- ``move_for USERNAME GAME``: the player's next legal move at that game,
  made through the services by this process (whose messages reach no page:
  a lost state message), and the computers' moves after it; the version then.
- ``league_players PASSWORD USERNAME...``: English-speaking players, each
  with his username capitalised as his name (olga: Olga).
- ``league_entries SLUG USERNAME...``: those players registered (through
  the services) for the league's current season.
- ``league_game SLUG FIRST SECOND``: the id and round of the league game of
  the two in the league's running season.
- ``league_game_resigned SLUG LOSER WINNER``: in the league's running
  season, the loser resigns (through the services) the league game of the
  two, so that it is finished.
"""

import json
import os
import sys

MAX_SEEDS = 60
MAX_DEAL = 4


def follow_suit(username: str, password: str) -> dict:
    from django.contrib.auth import get_user_model

    from gameplay import services
    from gameplay.broadcast import game_payload
    from gameplay.models import Game, seed_hash

    user = get_user_model().objects.create_user(
        username=username, password=password, email=f"{username}@example.com", language="en",
        time_zone="UTC",
    )
    for seed in map(str, range(1, MAX_SEEDS + 1)):
        game = services.create_game(user, "joker", players=4)
        Game.objects.filter(pk=game.pk).update(seed=seed, seed_sha256=seed_hash(seed))
        services.fill_with_bots(game.pk, user)  # the computers move at once (eager Celery)
        while True:
            game = Game.objects.get(pk=game.pk)
            if game.status != Game.Status.ACTIVE or game.state["deal"] > MAX_DEAL:
                break
            payload = game_payload(game, 0)
            if not payload["legal"]:
                raise AssertionError(f"game {game.pk}: the computers did not move (version {game.version})")
            if payload["view"]["phase"] == "play" and payload["blocked"]:
                playable = sorted({a["card"] for a in payload["legal"] if a["type"] == "play"})
                return {"game": game.pk, "url": game.get_absolute_url(), "seed": seed, "version": game.version,
                        "deal": game.state["deal"], "blocked": payload["blocked"], "playable": playable}
            services.submit_move(game.pk, user, payload["legal"][0], game.version)
        game.delete()
    raise AssertionError(f"no seed up to {MAX_SEEDS} gives a card that may not be played")


def _english_player(username: str, password: str):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(
        username=username, password=password, email=f"{username}@example.com", language="en", time_zone="UTC",
    )


def joker_in_hand(username: str, password: str) -> dict:
    """A new player's Joker table with three computer players, brought to his
    turn to play with a joker he may play (fixed seeds, as follow_suit)."""
    from gameplay import services
    from gameplay.broadcast import game_payload
    from gameplay.models import Game, seed_hash

    user = _english_player(username, password)
    for seed in map(str, range(1, MAX_SEEDS + 1)):
        game = services.create_game(user, "joker", players=4)
        Game.objects.filter(pk=game.pk).update(seed=seed, seed_sha256=seed_hash(seed))
        services.fill_with_bots(game.pk, user)
        while True:
            game = Game.objects.get(pk=game.pk)
            if game.status != Game.Status.ACTIVE or game.state["deal"] > MAX_DEAL:
                break
            payload = game_payload(game, 0)
            jokers = sorted({a["card"] for a in payload["legal"] if a["type"] == "play" and a["card"][0] == "X"})
            if jokers:
                return {"game": game.pk, "url": game.get_absolute_url(), "version": game.version, "joker": jokers[0],
                        "leading": any("suit" in a for a in payload["legal"] if a["card"] == jokers[0])}
            others = [a for a in payload["legal"] if a.get("card", "")[:1] != "X"]
            services.submit_move(game.pk, user, (others or payload["legal"])[0], game.version)
        game.delete()
    raise AssertionError(f"no seed up to {MAX_SEEDS} gives a joker to play")


def ipuker_table(username: str, password: str) -> dict:
    """A new player's Ipuker table with three computer players, started."""
    from gameplay import services

    user = _english_player(username, password)
    game = services.create_game(user, "ipuker", players=4)
    services.fill_with_bots(game.pk, user)
    return {"game": game.pk, "url": game.get_absolute_url()}


def secret_stakes(username: str, password: str) -> dict:
    from django.contrib.auth import get_user_model

    from gameplay import services
    from gameplay.engine import get_engine
    from gameplay.models import Game, seed_hash

    user = get_user_model().objects.create_user(
        username=username, password=password, email=f"{username}@example.com", language="en",
        time_zone="UTC",
    )
    for seed in map(str, range(1, MAX_SEEDS + 1)):
        game = services.create_game(user, "ipuker", players=4)
        Game.objects.filter(pk=game.pk).update(seed=seed, seed_sha256=seed_hash(seed))
        services.fill_with_bots(game.pk, user)  # the computers stake at once (eager Celery)
        game = Game.objects.get(pk=game.pk)
        if game.state["leader"] != 0 and get_engine("ipuker").actors(game.state) == [0]:
            stakes = {str(s): game.state["stakes"][s] for s in range(4) if s not in (0, game.state["leader"])}
            return {"game": game.pk, "url": game.get_absolute_url(), "version": game.version,
                    "leader": game.state["leader"], "stakes": stakes}
        game.delete()
    raise AssertionError(f"no seed up to {MAX_SEEDS} leaves the player a non-leader")


def finished_series_game(username: str, password: str) -> dict:
    """An English-speaking player's first game of a two-game Durak series
    against a computer player, played to its end (his moves: the first legal
    one), so that the second game has started."""
    from django.contrib.auth import get_user_model

    from gameplay import services
    from gameplay.broadcast import game_payload
    from gameplay.models import Game

    user = get_user_model().objects.create_user(
        username=username, password=password, email=f"{username}@example.com", language="en", time_zone="UTC",
    )
    game = services.create_game(user, "durak", {"mode": "podkidnoy"}, players=2, series_length=2)
    services.fill_with_bots(game.pk, user)  # the computer moves at once (eager Celery)
    for _ in range(MAX_MOVES):
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.ACTIVE:
            break
        legal = game_payload(game, 0)["legal"]
        if not legal:
            raise AssertionError(f"game {game.pk}: the computer did not move (version {game.version})")
        services.submit_move(game.pk, user, legal[0], game.version)
    following = game.next_in_series
    if game.status != Game.Status.FINISHED or following is None:
        raise AssertionError(f"game {game.pk} is {game.status} after {MAX_MOVES} moves")
    return {"game": game.pk, "url": game.get_absolute_url(), "next_game": following.pk,
            "next_url": following.get_absolute_url()}


MAX_MOVES = 500


def _player(username: str, password: str, **fields):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(
        username=username, password=password, email=f"{username}@example.com", language="en",
        time_zone="UTC", **fields,
    )


def _moderator(username: str, password: str):
    """A superuser with an authenticator app whose secret the browser tests know
    (conftest.MODERATOR_TOTP_SECRET): the admin asks staff for a second factor."""
    from allauth.mfa.models import Authenticator
    from allauth.mfa.utils import encrypt

    from tests.browser.conftest import MODERATOR_TOTP_SECRET

    user = _player(username, password, is_staff=True, is_superuser=True)
    Authenticator.objects.create(user=user, type=Authenticator.Type.TOTP,
                                 data={"secret": encrypt(MODERATOR_TOTP_SECRET)})
    return user


def _table_with_bots(user, engine: str, players: int, seed: str = "1"):
    """An active table of `engine`: the user at seat 0, computers in the others (they move at once)."""
    from gameplay import services
    from gameplay.models import Game, seed_hash

    game = services.create_game(user, engine, players=players)
    Game.objects.filter(pk=game.pk).update(seed=seed, seed_sha256=seed_hash(seed))
    services.fill_with_bots(game.pk, user)
    return Game.objects.get(pk=game.pk)


def lost_on_time(username: str, password: str) -> dict:
    """``lost_on_time USERNAME PASSWORD``: a finished Joker game the player
    (seat 0, with three computers) lost on time: his clock ran out three
    times (three automatic moves, then the loss). He wrote in the chat first."""
    from django.db import transaction

    from gameplay import services
    from gameplay.engine import get_engine
    from gameplay.models import Game
    from gameplay.services.base import locked_game

    user = _player(username, password)
    game = _table_with_bots(user, "joker", 4)
    services.post_chat(game.pk, user, "Good luck, computers!")
    engine = get_engine("joker")
    for _ in range(50):
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.ACTIVE:
            return {"game": game.pk, "url": game.get_absolute_url(), "late": user.name}
        if 0 not in engine.actors(game.state):
            raise AssertionError(f"game {game.pk}: the computers did not move (version {game.version})")
        with transaction.atomic():
            locked = locked_game(game.pk, seats=True)
            seat = next(s for s in locked.seats.all() if s.position == 0)
            services.expire_seat(locked, engine, seat, next(t for t in engine.timers(locked.state) if t["seat"] == 0))
    raise AssertionError("the game did not end on time")


def durak_resigned(username: str, password: str) -> dict:
    """``durak_resigned USERNAME PASSWORD``: a Durak game the player (seat 0,
    with two computers) resigned right after the deal: the computers still hold their cards."""
    from gameplay import services

    user = _player(username, password)
    game = _table_with_bots(user, "durak", 3)
    services.resign(game.pk, user)
    return {"game": game.pk, "url": game.get_absolute_url(), "name": user.name}


def abort_table(username: str, password: str, moderator: str, moderator_password: str) -> dict:
    """``abort_table USERNAME PASSWORD MODERATOR MODERATOR_PASSWORD``: a Joker
    game in play (the player at seat 0 with three computers) and a moderator
    who may abort it in the admin."""
    user = _player(username, password)
    _moderator(moderator, moderator_password)
    game = _table_with_bots(user, "joker", 4)
    return {"game": game.pk, "url": game.get_absolute_url(), "version": game.version}


def chat_to_report(username: str, password: str, other: str) -> dict:
    """``chat_to_report USERNAME PASSWORD OTHER``: a Joker game in play of the
    player (seat 0), another person (seat 1) and two computers, in whose chat
    that other person wrote something rude."""
    from gameplay import services
    from gameplay.models import Game

    user, rude = _player(username, password), _player(other, password)
    game = services.create_game(user, "joker", players=4)
    services.join_game(game.pk, rude)
    services.fill_with_bots(game.pk, user)
    message = services.post_chat(game.pk, rude, "You all play like potatoes")
    return {"game": game.pk, "url": Game.objects.get(pk=game.pk).get_absolute_url(), "message": message.pk}


def _zoned_player(username: str, password: str, time_zone: str | None = "UTC"):
    """An English-speaking player; time_zone None: the model's default, as if he never chose one."""
    from django.contrib.auth import get_user_model

    zone = {} if time_zone is None else {"time_zone": time_zone}
    return get_user_model().objects.create_user(
        username=username, password=password, email=f"{username}@example.com", language="en", **zone,
    )


def joker_against_computers(username: str, password: str) -> dict:
    """A Joker table of the player and three computer players, in its first
    deal (the choice of the first dealer is shown); his move or not."""
    from gameplay import services
    from gameplay.models import Game, seed_hash

    user = _zoned_player(username, password)
    game = services.create_game(user, "joker", players=4)
    Game.objects.filter(pk=game.pk).update(seed="1", seed_sha256=seed_hash("1"))
    services.fill_with_bots(game.pk, user)
    game = Game.objects.get(pk=game.pk)
    return {"game": game.pk, "url": game.get_absolute_url(), "my_turn": 0 in _actors(game)}


def _actors(game) -> list[int]:
    from gameplay.engine import get_engine

    return get_engine(game.engine).actors(game.state)


def joker_trump_choice(username: str, password: str) -> dict:
    """A Joker table of the player and three computer players, brought to a
    9-card deal where he names the trump after seeing his first 3 cards
    (he always makes his first legal move until then)."""
    from gameplay import services
    from gameplay.broadcast import game_payload
    from gameplay.models import Game

    user = _zoned_player(username, password)
    game = services.create_game(user, "joker", players=4)
    services.fill_with_bots(game.pk, user)
    while True:
        game = Game.objects.get(pk=game.pk)
        payload = game_payload(game, 0)
        if payload["view"]["phase"] == "trump" and 0 in payload["view"]["actors"]:
            return {"game": game.pk, "url": game.get_absolute_url(), "deal": game.state["deal"],
                    "hand": payload["view"]["hand"]}
        if game.status != Game.Status.ACTIVE or not payload["legal"]:
            raise AssertionError(f"game {game.pk} stopped at version {game.version} before a trump choice")
        services.submit_move(game.pk, user, payload["legal"][0], game.version)


def finished_games_only(username: str, password: str) -> dict:
    """A player whose only game (against three computer players) is over: he
    resigned it. His account is on the default time zone."""
    from gameplay import services
    from gameplay.models import Game

    user = _zoned_player(username, password, time_zone=None)
    game = services.create_game(user, "joker", players=4)
    services.fill_with_bots(game.pk, user)
    services.resign(game.pk, user)
    game = Game.objects.get(pk=game.pk)
    return {"game": game.pk, "url": game.get_absolute_url(), "status": game.status}


def two_joker_tables(username: str, password: str) -> dict:
    """Two Joker tables of the player against computer players, both in play."""
    from django.contrib.auth import get_user_model

    from gameplay import services
    from gameplay.models import Game

    first = joker_against_computers(username, password)
    user = get_user_model().objects.get(username=username)
    game = services.create_game(user, "joker", players=4)
    services.fill_with_bots(game.pk, user)
    game = Game.objects.get(pk=game.pk)
    return {"first": first, "second": {"game": game.pk, "url": game.get_absolute_url(),
                                       "my_turn": 0 in _actors(game)}}



def _play_until(user, engine: str, options: dict | None, wanted) -> dict:
    """A 4-player table of `engine` with computer players, played by this
    player's first legal move each time until `wanted(game, payload)` holds
    on his move (seeds 1, 2, 3...). The game's URL and the view's phase."""
    from gameplay import services
    from gameplay.broadcast import game_payload
    from gameplay.models import Game, seed_hash

    for seed in map(str, range(1, MAX_SEEDS + 1)):
        game = services.create_game(user, engine, options, players=4)
        Game.objects.filter(pk=game.pk).update(seed=seed, seed_sha256=seed_hash(seed))
        services.fill_with_bots(game.pk, user)  # the computers move at once (eager Celery)
        while True:
            game = Game.objects.get(pk=game.pk)
            payload = game_payload(game, 0)
            if game.status != Game.Status.ACTIVE or not payload["legal"]:
                break
            if wanted(game, payload):
                return {"game": game.pk, "url": game.get_absolute_url(), "version": game.version,
                        "phase": payload["view"].get("phase")}
            services.submit_move(game.pk, user, payload["legal"][0], game.version)
        game.delete()
    raise AssertionError(f"no {engine} seed up to {MAX_SEEDS} reaches the wanted moment")


def domino_leader(username: str, password: str) -> dict:
    """``domino_leader USERNAME PASSWORD``: an English-speaking player's domino Poker table for two
    against a computer, with stage 1 only (no deals of 7) and stage 5, brought to stage 5 where the
    player leads and points at a tile of the row (he bids 0 and plays his first allowed tile;
    seeds 1, 2, 3... until he leads)."""
    from gameplay import services
    from gameplay.broadcast import game_payload
    from gameplay.models import Game, seed_hash

    user = _player(username, password)
    options = {"sevens": 0, "blind_deals": 0, "grab_deals": 0, "misere_deals": 0, "final_stage": True}
    for seed in map(str, range(1, MAX_SEEDS + 1)):
        game = services.create_game(user, "domino_poker", options, players=2)
        Game.objects.filter(pk=game.pk).update(seed=seed, seed_sha256=seed_hash(seed))
        services.fill_with_bots(game.pk, user)
        while True:
            game = Game.objects.get(pk=game.pk)
            legal = game_payload(game, 0)["legal"]
            if game.status != Game.Status.ACTIVE or not legal or game.state["phase"] == "reveal":
                break
            if legal[0]["type"] == "pick":
                return {"game": game.pk, "url": game.get_absolute_url(), "version": game.version,
                        "totals": game_payload(game, 0)["view"]["totals"]}
            services.submit_move(game.pk, user, legal[0], game.version)
        game.delete()
    raise AssertionError(f"no seed up to {MAX_SEEDS} makes the player lead stage 5")


def domino_final(username: str, password: str, moment: str = "final") -> dict:
    """``domino_final USERNAME PASSWORD [MOMENT]``: an English-speaking player's domino Poker table for
    four (three computers), stage 1 without deals of 7, a blind deal and stage 5, brought to stage 5's
    secret choice, his still to make (MOMENT ``final``), or to his bid in the blind deal (``blind``).
    He bids 0, plays his first allowed tile, and points at the first tile to the right if he leads."""
    from gameplay import services
    from gameplay.broadcast import game_payload
    from gameplay.models import Game, seed_hash

    user = _player(username, password)
    options = {"sevens": 0, "blind_deals": 1, "grab_deals": 0, "misere_deals": 0, "final_stage": True}
    wanted = "bid" if moment == "blind" else "reveal"
    game = services.create_game(user, "domino_poker", options, players=4)
    Game.objects.filter(pk=game.pk).update(seed="3", seed_sha256=seed_hash("3"))
    services.fill_with_bots(game.pk, user)
    for _ in range(MAX_MOVES):
        game = Game.objects.get(pk=game.pk)
        legal = game_payload(game, 0)["legal"]
        if legal and legal[0]["type"] == wanted and (moment != "blind" or game.state["kind"] == "blind"):
            return {"game": game.pk, "url": game.get_absolute_url(), "version": game.version}
        if game.status != Game.Status.ACTIVE or not legal:
            raise AssertionError(f"game {game.pk} stopped at version {game.version} before stage 5")
        services.submit_move(game.pk, user, legal[0], game.version)
    raise AssertionError("stage 5 never came")


def phone_tables(username: str, password: str) -> dict:
    from gameplay import services

    user = _player(username, password)
    host = _player(username + "-host", password)
    host.display_name = "Anna Karenina-Vronskaya"
    host.save(update_fields=["display_name"])
    services.create_game(host, "durak", players=3)  # an open table in the lobby
    return {
        "joker_first": _play_until(user, "joker", None, lambda g, p: p["view"]["phase"] == "bid"),
        "joker": _play_until(user, "joker", None, lambda g, p: g.state["deal"] == 9 and p["view"]["phase"] == "bid"),
        "durak": _play_until(user, "durak", None, lambda g, p: any(a["type"] == "take" for a in p["legal"])),
        "ipuker": _play_until(user, "ipuker", None, lambda g, p: p["view"]["round"] >= 3
                              and any(a["type"] == "stake" for a in p["legal"])),
        "domino_poker": _play_until(user, "domino_poker", None, lambda g, p: g.state["tiles"] == 7
                                    and any(a["type"] == "play" for a in p["legal"])),
        "odessa": _play_until(user, "odessa", None, lambda g, p: g.state["cards"] == 9 and p["view"]["phase"] == "bid"),
    }



def replayable_game(username: str, password: str) -> dict:
    """``replayable_game USERNAME PASSWORD``: a two-player Durak game of the
    player against a computer, played to its end (he plays his first legal
    move each time), so that its replay is open."""
    from gameplay import services
    from gameplay.broadcast import game_payload
    from gameplay.models import Game

    user = _player(username, password)
    game = _table_with_bots(user, "durak", 2)
    while True:
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.ACTIVE:
            break
        legal = game_payload(game, 0)["legal"]
        if not legal:
            raise AssertionError(f"game {game.pk}: the computer did not move (version {game.version})")
        services.submit_move(game.pk, user, legal[0], game.version)
    return {"game": game.pk, "url": game.get_absolute_url(), "moves": game.version, "name": user.name}


def league_players(password: str, *usernames: str) -> dict:
    users = [_player(name, password, display_name=name.capitalize()) for name in usernames]
    return {"names": [user.name for user in users]}


def _current_season(slug: str):
    from leagues.models import Season

    return Season.objects.filter(league__slug=slug).select_related("league").order_by("-number").first()


def league_entries(slug: str, *usernames: str) -> dict:
    from django.contrib.auth import get_user_model

    from leagues import services

    season = _current_season(slug)
    for name in usernames:
        services.register(season.pk, get_user_model().objects.get(username=name))
    return {"season": season.number, "entries": season.entries.count()}


def league_game(slug: str, first: str, second: str) -> dict:
    """The league game of the two players in the league's running season."""
    from leagues.models import Entry, Fixture

    season = _current_season(slug)
    pair = {Entry.objects.get(season=season, user__username=name).pk for name in (first, second)}
    fixture = next(f for f in Fixture.objects.filter(division__season=season) if set(f.seats) == pair)
    return {"game": fixture.game_id, "round": fixture.round}


def league_game_resigned(slug: str, loser: str, winner: str) -> dict:
    from django.contrib.auth import get_user_model

    from gameplay import services
    from gameplay.models import Game
    from leagues.models import Entry, Fixture

    users = get_user_model().objects
    season = _current_season(slug)
    pair = {Entry.objects.get(season=season, user__username=name).pk for name in (loser, winner)}
    fixture = next(f for f in Fixture.objects.filter(division__season=season).select_related("division")
                   if set(f.seats) == pair)
    services.resign(fixture.game_id, users.get(username=loser))
    game = Game.objects.get(pk=fixture.game_id)
    if game.status != Game.Status.FINISHED:
        raise AssertionError(f"game {game.pk} is {game.status} after the resignation")
    return {"game": game.pk, "round": fixture.round, "division_url": fixture.division.get_absolute_url()}


def move_for(username: str, game_id: str) -> dict:
    from django.contrib.auth import get_user_model

    from gameplay import services
    from gameplay.broadcast import game_payload
    from gameplay.models import Game

    user = get_user_model().objects.get(username=username)
    game = Game.objects.get(pk=int(game_id))
    seat = game.seats.get(user=user)
    services.submit_move(game.pk, user, game_payload(game, seat.position)["legal"][0], game.version)
    return {"version": Game.objects.get(pk=game.pk).version}


SCENARIOS = {"follow_suit": follow_suit, "move_for": move_for, "joker_in_hand": joker_in_hand, "ipuker_table": ipuker_table,
             "secret_stakes": secret_stakes, "finished_series_game": finished_series_game,
             "lost_on_time": lost_on_time, "durak_resigned": durak_resigned, "abort_table": abort_table,
             "joker_against_computers": joker_against_computers, "joker_trump_choice": joker_trump_choice,
             "finished_games_only": finished_games_only, "two_joker_tables": two_joker_tables,
             "phone_tables": phone_tables, "league_game": league_game, "domino_leader": domino_leader,
             "domino_final": domino_final,
             "replayable_game": replayable_game,
             "league_players": league_players, "league_entries": league_entries,
             "league_game_resigned": league_game_resigned, "chat_to_report": chat_to_report}


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.utils import translation

    name, *args = argv
    with translation.override("en"):  # the scenario's player reads English
        print(json.dumps(SCENARIOS[name](*args)))


if __name__ == "__main__":
    main(sys.argv[1:])
