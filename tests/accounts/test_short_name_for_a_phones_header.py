"""Where only a few letters fit (a phone's header), a long name shows its
first word and the initial of its last; a short name stays whole, and a
single long word keeps its first letters."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("display_name", "short"), [
    ("masha", "masha"),
    ("Анна Каренина", "Анна Каренина"),
    ("Борис Бородин-Запорожский", "Борис Б."),
    ("Модератор Александра Константинопольская", "Модератор К."),
    ("Константинопольский", "Константинопо…"),
    ("Константинопольский Борис", "Константинопо…"),
])
def test_a_long_name_is_shortened_to_its_first_word_and_the_initial_of_its_last(
        django_user_model, display_name, short):
    user = django_user_model(username="someone", display_name=display_name)
    assert user.short_name == short
