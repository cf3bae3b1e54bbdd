"""The game page's move log: every move in the game's words, with the
player's name, in the reader's language, and nothing a seat may not know."""

import re

import pytest
from django.test import Client

from gameplay import services
from gameplay.engine import get_engine
from gameplay.models import Game, Move, seed_hash

from .conftest import client_for, started_game

pytestmark = pytest.mark.django_db
DURAK = get_engine("durak")
IPUKER = get_engine("ipuker")
JOKER = get_engine("joker")


def log_lines(client: Client, game: Game, **headers) -> list[str]:
    page = client.get(game.get_absolute_url(), **headers).content.decode()
    match = re.search(r'<details class="move-log">.*?<ol>(.*?)</ol>', page, re.S)
    if match is None:
        return []
    return [re.sub(r"<[^>]+>", "", item).strip() for item in re.findall(r"<li[^>]*>(.*?)</li>", match.group(1), re.S)]


def play(game: Game, players, action: dict) -> Game:
    position = next(iter(get_engine(game.engine).actors(game.state)))
    services.submit_move(game.pk, players[position], action, game.version)
    game.refresh_from_db()
    return game


def first_legal(game: Game) -> tuple[int, dict]:
    engine = get_engine(game.engine)
    position = engine.actors(game.state)[0]
    return position, engine.legal_actions(game.state, position)[0]


def card_text(code: str) -> str:
    return ("10" if code[0] == "T" else code[0]) + {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}[code[1]]


# -- words and names -------------------------------------------------------------

def test_a_durak_attack_and_its_beating_read_in_english_words_with_the_players_names(players):
    # Dealt from a fixed seed: with some deals the first attack cannot be beaten at all and is taken
    # for the defender, who then has no move of his own to write.
    game = seeded_game(players[:2], "durak", "1")
    attacker, attack = first_legal(game)
    game = play(game, players, attack)
    defender = game.state["defender"]
    beat = next(a for a in DURAK.legal_actions(game.state, defender) if a["type"] in ("beat", "take"))
    services.submit_move(game.pk, players[defender], beat, game.version)
    game.refresh_from_db()
    lines = log_lines(Client(), game)
    cards = " ".join(card_text(c) for c in attack["cards"])
    assert lines[0] == f"player{attacker} attacks with {cards}"
    if beat["type"] == "beat":
        assert lines[1] == f"player{defender} beats {card_text(beat['attack'])} with {card_text(beat['card'])}"
    else:
        assert lines[1] == f"player{defender} takes the cards"
    assert "{" not in "".join(lines) and "'type'" not in "".join(lines)


def test_the_durak_log_reads_in_russian_for_a_russian_visitor(players):
    game = seeded_game(players[:2], "durak", "1")  # a deal whose first attack the defender may answer
    attacker, attack = first_legal(game)
    game = play(game, players, attack)
    game = play(game, players, {"type": "take"})
    lines = log_lines(Client(), game, HTTP_ACCEPT_LANGUAGE="ru")
    defender = 1 - attacker
    cards = " ".join(card_text(c) for c in attack["cards"])
    assert lines == [f"player{attacker} ходит: {cards}", f"player{defender} забирает карты"]


def test_a_joker_bid_reads_as_a_bid_and_a_zero_bid_as_a_pass_in_both_languages(players):
    game = started_game("joker", players)
    first = JOKER.actors(game.state)[0]
    assert game.state["phase"] == "bid"
    game = play(game, players, {"type": "bid", "tricks": 1})
    second = JOKER.actors(game.state)[0]
    game = play(game, players, {"type": "bid", "tricks": 0})
    assert log_lines(Client(), game) == [f"player{first} bids 1", f"player{second} passes"]
    assert log_lines(Client(), game, HTTP_ACCEPT_LANGUAGE="ru") == [f"player{first} заказывает 1",
                                                                    f"player{second}: пас"]


def test_a_joker_played_card_names_the_card(players):
    game = started_game("joker", players)
    while game.state["phase"] == "bid":
        position, action = first_legal(game)
        game = play(game, players, action)
    position, action = first_legal(game)
    game = play(game, players, action)
    card = action["card"]
    last = log_lines(client_for(players[0]), game)[-1]
    if card[0] == "X":
        assert re.fullmatch(rf"player{position} (leads the joker: (high|low), [♠♣♦♥]|plays the joker (high|low))", last)
    else:
        assert last == f"player{position} plays {card_text(card)}"


def test_odessa_bids_read_in_both_languages(players):
    game = started_game("odessa", players[:2], {"max_hand": 2})
    first = get_engine("odessa").actors(game.state)[0]
    game = play(game, players, {"type": "bid", "tricks": 0})
    game = play(game, players, {"type": "bid", "tricks": 0})
    assert log_lines(Client(), game) == [f"player{first} passes", f"player{1 - first} passes"]
    assert log_lines(Client(), game, HTTP_ACCEPT_LANGUAGE="ru") == [f"player{first}: пас", f"player{1 - first}: пас"]


@pytest.mark.parametrize("action, english, russian", [
    ({"type": "play", "card": "7S", "joker": "demand", "suit": "H"},
     "Ann leads the joker 7♠ demanding the highest ♥", "Ann ходит джокером 7♠: «требую» старшую ♥"),
    ({"type": "play", "card": "X1", "joker": "low", "suit": "C"},
     "Ann leads the joker ★ low, naming ♣", "Ann ходит джокером ★: младший, ♣"),
    ({"type": "play", "card": "7S", "joker": "high"}, "Ann plays the joker 7♠ high", "Ann кладёт джокера 7♠ старшим"),
    ({"type": "play", "card": "TD"}, "Ann plays 10♦", "Ann кладёт 10♦"),
])
def test_odessa_cards_and_the_jokers_ways_read_in_both_languages(action, english, russian):
    from django.utils import translation

    from gameplay.movelog.odessa import describe_move

    with translation.override("en"):
        assert describe_move(action, "Ann") == english
    with translation.override("ru"):
        assert describe_move(action, "Ann") == russian


def test_a_resignation_reads_as_one_and_the_log_stays_after_the_game(players):
    game = started_game("durak", players[:2])
    services.resign(game.pk, players[1])
    game.refresh_from_db()
    assert log_lines(Client(), game)[-1] == "player1 resigns"
    assert log_lines(Client(), game, HTTP_ACCEPT_LANGUAGE="ru")[-1] == "player1 сдаётся"


def test_a_move_made_by_the_clock_says_so(players):
    game = seeded_game(players[:2], "durak", "1")  # a first attack the defender can answer: no forced take follows
    attacker, attack = first_legal(game)
    game = play(game, players, attack)
    Move.objects.filter(game=game).update(by=Move.By.TIMEOUT)
    assert log_lines(Client(), game) == [f"player{attacker} attacks with "
                                         f"{' '.join(card_text(c) for c in attack['cards'])} (timeout)"]


# -- secrecy: Ipuker's stakes and card counts ----------------------------------------

@pytest.fixture
def ipuker(players) -> Game:
    return started_game("ipuker", players)


def seeded_ipuker(players, seed: str) -> Game:
    """An Ipuker game dealt from `seed`: two of them seat the same leader."""
    return seeded_game(players, "ipuker", seed)


def seeded_game(players, engine: str, seed: str) -> Game:
    """A game of `engine` for these players, dealt from `seed`."""
    game = services.create_game(players[0], engine, None, players=len(players))
    Game.objects.filter(pk=game.pk).update(seed=seed, seed_sha256=seed_hash(seed))
    for user in players[1:]:
        services.join_game(game.pk, user)
    game.refresh_from_db()
    return game


def stake(game: Game, players, position: int, tokens: int) -> Game:
    services.submit_move(game.pk, players[position], {"type": "stake", "tokens": tokens}, game.version)
    game.refresh_from_db()
    return game


def test_a_stake_before_the_reveal_is_shown_to_its_maker_only(ipuker, players):
    first, second, third = IPUKER.actors(ipuker.state)
    game = stake(ipuker, players, first, 23)
    assert log_lines(client_for(players[first]), game) == [f"player{first} stakes 23 tokens"]
    for reader in [client_for(players[second]), client_for(players[third]),
                   client_for(players[game.state["leader"]]), Client()]:
        lines = log_lines(reader, game)
        assert lines == [f"player{first} stakes in secret"]


def test_another_seats_log_is_the_same_whatever_the_secret_stakes_are(players):
    """Swap the hidden values: what another seat reads does not change."""
    logs = []
    for stakes in [(9, 30), (30, 9)]:
        game = seeded_ipuker(players, "20261123")
        first, second, third = IPUKER.actors(game.state)
        game = stake(game, players, first, stakes[0])
        game = stake(game, players, second, stakes[1])
        Move.objects.filter(game=game, position=first).update(by=Move.By.TIMEOUT)  # an automatic stake tells nothing
        logs.append([log_lines(client_for(players[third]), game), log_lines(Client(), game),
                     log_lines(client_for(players[game.state["leader"]]), game)])
    assert logs[0] == logs[1]
    assert not any(char.isdigit() for line in logs[0][0] for char in line.replace("player", "").split(" ", 1)[1])


def test_the_stakes_are_shown_to_everyone_once_every_stake_is_in(ipuker, players):
    first, second, third = IPUKER.actors(ipuker.state)
    game = ipuker
    for position, tokens in [(first, 10), (second, 11), (third, 12)]:
        game = stake(game, players, position, tokens)
    assert log_lines(Client(), game)[:3] == [f"player{first} stakes 10 tokens", f"player{second} stakes 11 tokens",
                                             f"player{third} stakes 12 tokens"]


def test_card_counts_are_seen_by_the_leader_at_once_and_by_the_others_after_the_reveal(ipuker, players):
    first, second, third = IPUKER.actors(ipuker.state)
    game = ipuker
    for position in (first, second, third):
        game = stake(game, players, position, 20)
    leader = game.state["leader"]
    game = stake(game, players, leader, 9)
    services.submit_move(game.pk, players[first], {"type": "cards", "count": 1}, game.version)
    game.refresh_from_db()
    assert log_lines(client_for(players[leader]), game)[-1] == f"player{first} passes 1 card"
    assert log_lines(client_for(players[first]), game)[-1] == f"player{first} passes 1 card"
    assert log_lines(client_for(players[second]), game)[-1] == f"player{first} passes cards in secret"
    assert log_lines(Client(), game, HTTP_ACCEPT_LANGUAGE="ru")[-1] == f"player{first} отдаёт карты втайне"
    for position, count in [(second, 2), (third, 5)]:
        services.submit_move(game.pk, players[position], {"type": "cards", "count": count}, game.version)
        game.refresh_from_db()
    russian = log_lines(Client(), game, HTTP_ACCEPT_LANGUAGE="ru")
    assert russian[4:7] == [f"player{first} отдаёт 1 карту", f"player{second} отдаёт 2 карты",
                            f"player{third} отдаёт 5 карт"]
    assert russian[3] == f"player{leader} ставит 9 фишек"


@pytest.mark.parametrize("action, english, russian", [
    ({"type": "play", "card": "X1", "joker": "high", "suit": "S"}, "Olga leads the joker: high, ♠", "Olga ходит джокером: «хочу» ♠"),
    ({"type": "play", "card": "X2", "joker": "low", "suit": "H"}, "Olga leads the joker: low, ♥", "Olga ходит джокером: «забирает» ♥"),
    ({"type": "play", "card": "X1", "joker": "high"}, "Olga plays the joker high", "Olga кладёт джокера сверху"),
    ({"type": "play", "card": "X1", "joker": "low"}, "Olga plays the joker low", "Olga кладёт джокера снизу"),
    ({"type": "play", "card": "TH"}, "Olga plays 10♥", "Olga кладёт 10♥"),
    ({"type": "trump", "suit": None}, "Olga names no trump", "Olga объявляет игру без козыря"),
    ({"type": "trump", "suit": "D"}, "Olga names trump: ♦", "Olga называет козырь: ♦"),
])
def test_every_kind_of_joker_move_has_its_words_in_both_languages(action, english, russian):
    from django.utils import translation

    from gameplay.movelog.joker import describe_move

    assert describe_move(action, "Olga") == english
    with translation.override("ru"):
        assert describe_move(action, "Olga") == russian


def test_in_durak_every_seat_and_a_spectator_read_the_same_log(players):
    game = started_game("durak", players[:2])
    for _ in range(3):
        if not DURAK.actors(game.state):
            break
        game = play(game, players, first_legal(game)[1])
    logs = [log_lines(client_for(players[0]), game), log_lines(client_for(players[1]), game), log_lines(Client(), game)]
    assert logs[0] == logs[1] == logs[2] and len(logs[0]) == 3


def play_until_event(game: Game, players, wanted: str, limit: int = 200) -> Game:
    """Plays each actor's first legal move until a move makes the engine report `wanted`."""
    for _ in range(limit):
        position, action = first_legal(game)
        _state, events = DURAK.apply(game.state, position, action)
        game = play(game, players, action)
        if any(event["type"] == wanted for event in events):
            return game
    raise AssertionError(f"no {wanted} within {limit} moves")


def forced_take_game(players) -> Game:
    """A two-player Durak game brought to an attack its defender cannot beat, then played on to the
    end of that bout (the attacker throws in no more)."""
    for seed in map(str, range(1, 40)):
        game = seeded_game(players[:2], "durak", seed)
        try:
            game = play_until_event(game, players, "forced_take", limit=30)
        except AssertionError:
            continue
        return play_until_event(game, players, "bout_end")
    raise AssertionError("no seed gives a forced take")


def test_a_forced_take_is_in_the_log_and_the_attackers_done_after_it_is_not_called_beaten(players):
    game = forced_take_game(players)
    page = client_for(players[0]).get(game.get_absolute_url()).content.decode()
    lines = log_lines(Client(), game)
    assert any("cannot beat every card and must take" in line for line in lines), lines
    last = lines[-1]
    assert "throws in no more" in last and "is done" not in last, last
    assert re.search(r"player\d takes (\S+ )*\S+[♠♣♦♥]", last), last
    assert 'class="step"' in page


def test_a_forced_take_reads_in_russian_in_the_log_and_in_the_record(players):
    game = forced_take_game(players)
    lines = log_lines(Client(), game, HTTP_ACCEPT_LANGUAGE="ru")
    assert any("не может отбиться и берёт" in line for line in lines), lines
    assert "больше не подкидывает" in lines[-1] and "бито" not in lines[-1], lines[-1]
    record = Client().get(f"/sheets/{game.pk}/record/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "не может отбиться и берёт" in record and "больше не подкидывает" in record


def test_a_bout_beaten_off_reads_as_going_to_the_discard_with_the_draw(players):
    game = seeded_game(players[:2], "durak", "1")
    game = play_until_event(game, players, "bout_end")
    lines = log_lines(Client(), game)
    assert "go to the discard" in lines[-1] or "takes" in lines[-1], lines[-1]
    assert "draws" in lines[-1], lines[-1]


# -- domino Poker: bids, tiles, and the secret show-or-hide of stage 5 ------------------

DOMINO = get_engine("domino_poker")


def test_domino_bids_and_tiles_read_in_words_in_english_and_russian(players):
    game = seeded_game(players[:2], "domino_poker", "5")
    starter = DOMINO.actors(game.state)[0]
    game = play(game, players, {"type": "bid", "tricks": 1})
    game = play(game, players, {"type": "bid", "tricks": 0})
    tile = DOMINO.legal_actions(game.state, starter)[0]["tile"]
    game = play(game, players, {"type": "play", "tile": tile})
    assert log_lines(Client(), game) == [f"player{starter} bids 1", f"player{1 - starter} passes",
                                         f"player{starter} plays the tile {tile}"]
    assert log_lines(Client(), game, HTTP_ACCEPT_LANGUAGE="ru")[2] == f"player{starter} кладёт {tile}"


def test_a_domino_show_or_hide_is_read_by_its_maker_only_until_every_choice_is_in(players):
    game = services.create_game(players[0], "domino_poker", {"sevens": 0, "blind_deals": 0, "grab_deals": 0,
                                                            "misere_deals": 0, "final_stage": True}, players=2)
    services.join_game(game.pk, players[1])
    game.refresh_from_db()
    while game.state["phase"] != "reveal":
        position = DOMINO.actors(game.state)[0]
        game = play(game, players, DOMINO.auto_action(game.state, position))
    assert "counts to the right" in log_lines(Client(), game)[-1]
    services.submit_move(game.pk, players[1], {"type": "reveal", "show": True}, game.version)
    game.refresh_from_db()
    Move.objects.filter(game=game, seq=game.version).update(by=Move.By.TIMEOUT)  # no mark may tell it either
    assert log_lines(client_for(players[1]), game)[-1] == "player1 shows the tile (timeout)"
    assert log_lines(client_for(players[0]), game)[-1] == "player1 chooses in secret whether to show"
    assert log_lines(Client(), game, HTTP_ACCEPT_LANGUAGE="ru")[-1] == "player1 втайне решает, вскрываться ли"
    services.submit_move(game.pk, players[0], {"type": "reveal", "show": False}, game.version)
    game.refresh_from_db()
    assert log_lines(Client(), game)[-2:] == ["player1 shows the tile (timeout)", "player0 hides the tile"]
