import pytest
from notifications.models import Delivery
from gameplay import services
from .conftest import started_game, acting_player, a_legal_action

pytestmark = pytest.mark.django_db(transaction=True)

def test_a_move_tells_the_next_player(fake, players):
    game = started_game("joker", players)
    print(Delivery.objects.values_list("key","user_id","destination","state","note"))
    print(fake.sent)
    assert fake.sent
