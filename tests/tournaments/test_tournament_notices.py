"""What a tournament tells its players through the site's notices (each
player's channels and preferences): a bye, the round's deadline near (once
per round, to the players of the games still in play), and the final place."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from tests.notifications.conftest import fake  # noqa: F401 (fixture)
from tests.tournaments.conftest import committed, entered, play_round, round_tables, start, tournament_of
from tournaments import services, tasks
from tournaments.models import Bye

pytestmark = pytest.mark.django_db


@pytest.fixture
def five(django_user_model):
    return [django_user_model.objects.create_user(f"entrant{i}", password="pw-not-used-1", language="en",
                                                  time_zone="UTC", email=f"entrant{i}@example.org")
            for i in range(5)]


def _about(channel, user, tournament_name: str) -> list[tuple[str, str]]:
    return [(n.title, n.body) for n in channel.notices_to(user) if n.title.startswith(tournament_name)]


def test_the_player_left_out_of_a_round_hears_of_the_bye_and_its_worth(fake, five):  # noqa: F811
    tournament = entered(tournament_of(five[0], name="Winter Swiss"), five)
    with committed():
        start(tournament.pk, five[0])
    [bye] = Bye.objects.filter(round__tournament=tournament).select_related("entry__user")
    assert _about(fake, bye.entry.user, "Winter Swiss") == [
        ("Winter Swiss: round 1", "No table for you this round: a bye, worth 1.")]
    for player in five:
        if player != bye.entry.user:
            assert [title for title, _body in _about(fake, player, "Winter Swiss")] == ["Winter Swiss: round 1"]
            assert "bye" not in _about(fake, player, "Winter Swiss")[0][1]


def test_the_players_of_games_still_in_play_are_warned_once_before_the_deadline(fake, five):  # noqa: F811
    tournament = entered(tournament_of(five[0], name="Winter Swiss", round_days=3), five[:4])
    with committed():
        start(tournament.pk, five[0])
    first, second = round_tables(tournament, 1)
    with committed():
        services.withdraw(first.game.seats.get(position=0).user.tournament_entries.get().pk, five[0],
                            "gone abroad")  # ends a game
    begun = timezone.now()
    with time_machine.travel(begun + timedelta(days=1)), committed():
        assert tasks.sweep_rounds() == 0  # two days left: no warning yet
    with time_machine.travel(begun + timedelta(days=2, hours=1)):
        with committed():
            assert tasks.sweep_rounds() == 1
        with committed():
            assert tasks.sweep_rounds() == 0
    warned = {s.user for s in second.game.seats.all()}
    for player in five[:4]:
        warnings = [body for title, body in _about(fake, player, "Winter Swiss: the round ends soon")]
        if player in warned:
            assert len(warnings) == 1
            assert warnings[0].startswith("Durak with ")
            assert "23 h" in warnings[0] and "the player whose clock is running then loses the game" in warnings[0]
        else:
            assert warnings == []


def test_at_the_end_every_player_hears_the_final_place(fake, five):  # noqa: F811
    tournament = entered(tournament_of(five[0], name="Winter Swiss", rounds=1), five[:4])
    with committed():
        start(tournament.pk, five[0])
    play_round(tournament, 1)
    tournament.refresh_from_db()
    ranks = dict(tournament.entries.values_list("user_id", "final_rank"))
    for player in five[:4]:
        assert ("Winter Swiss is over", f"Your place: {ranks[player.pk]} of 4.") in _about(fake, player, "Winter Swiss")


def test_a_russian_player_reads_them_in_russian(fake, five):  # noqa: F811
    five[4].language = "ru"
    five[4].save()
    tournament = entered(tournament_of(five[0], name="Зимний швейцарец", rounds=1), five)
    with committed():
        start(tournament.pk, five[0])
    play_round(tournament, 1)
    told = _about(fake, five[4], "Зимний швейцарец")
    assert any(title == "Зимний швейцарец: тур 1" for title, _body in told)
    assert any(title == "Зимний швейцарец: турнир окончен" and body.startswith("Ваше место: ")
               for title, body in told)
