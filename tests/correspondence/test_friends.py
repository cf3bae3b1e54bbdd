"""Friends: follow players, list them with their public games in play and
the day they were last seen, challenge from the list."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from correspondence import selectors, services
from correspondence.models import Follow
from gameplay import services as game_services

from .conftest import client_for, durak_between

pytestmark = pytest.mark.django_db


def test_following_is_once_per_pair_and_never_oneself(players):
    me, a, *_ = players
    services.follow(me, "player1")
    services.follow(me, "player1")
    assert Follow.objects.filter(follower=me, followed=a).count() == 1
    with pytest.raises(services.CorrespondenceError, match="yourself"):
        services.follow(me, "player0")
    with pytest.raises(services.CorrespondenceError, match="no player"):
        services.follow(me, "ghost")
    services.unfollow(me, "player1")
    assert not Follow.objects.exists()


def test_the_friends_list_shows_their_public_games_in_play_only(players):
    me, a, b, c, _ = players
    services.follow(me, "player1")
    public = durak_between(a, b)
    durak_between(a, c, is_private=True)
    ended = durak_between(a, c)
    game_services.resign(ended.pk, a)
    a.last_login = timezone.now()
    a.save()
    [friend] = selectors.friends(me)
    assert friend.username == "player1" and friend.last_seen == a.last_login
    at_the_table = timezone.now() + timedelta(hours=1)
    public.seats.filter(user=a).update(seen_at=at_the_table)
    assert selectors.friends(me)[0].last_seen == at_the_table
    assert [g["id"] for g in friend.games] == [public.pk]


def test_the_friends_page_follows_unfollows_and_offers_a_challenge(players):
    me, a, *_ = players
    client = client_for(me)
    assert client.post(reverse("follow"), {"username": "player1"})["Location"] == reverse("friends")
    page = client.get(reverse("friends")).content.decode()
    assert a.name in page and f'{reverse("new_challenge")}?to=player1' in page
    client.post(reverse("unfollow"), {"username": "player1"})
    assert not Follow.objects.exists()


def test_following_from_a_player_page(players):
    me, a, *_ = players
    client = client_for(me)
    page = client.get(reverse("player", args=["player1"])).content.decode()
    assert reverse("follow") in page and f'{reverse("new_challenge")}?to=player1' in page
    for elsewhere in ("https://evil.example/", "//evil.example/", "/\\evil.example/"):
        assert client.post(reverse("follow"), {"username": "player1", "next": elsewhere})["Location"] == reverse("friends")
    assert client.post(reverse("follow"), {"username": "player1", "next": "/players/player1/"})["Location"] == "/players/player1/"
    assert Follow.objects.filter(follower=me, followed=a).exists()
    page = client.get(reverse("player", args=["player1"])).content.decode()
    assert "You follow this player." in page and reverse("unfollow") in page


def test_the_friends_list_runs_as_many_queries_with_many_friends(players, django_assert_max_num_queries):
    me, *others = players
    for other in others:
        services.follow(me, other.username)
        durak_between(other, me)
    with django_assert_max_num_queries(3):
        selectors.friends(me)
