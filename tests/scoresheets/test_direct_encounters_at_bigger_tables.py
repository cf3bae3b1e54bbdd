"""Direct encounters when the tied players met at different tables of four
(issue 24): each game counts as a game of only the tied players who sat at
it, by their order there; the worked example of scoresheets/standings.py's
docstring and of the league rules page."""

from scoresheets.standings import Entry, GameResult, standings

A, B, C = 1, 2, 3
X, Y, Z = -1, -2, -3  # the other players of the tables (guests: no rows)
GAMES = [
    GameResult(1, {A: 1, B: 2, X: 3, Y: 4}, guests=frozenset({X, Y})),   # A 1, B 0
    GameResult(2, {B: 1, C: 2, X: 3, Z: 4}, guests=frozenset({X, Z})),   # B 1, C 0
    GameResult(3, {A: 1, C: 2, Y: 3, Z: 4}, guests=frozenset({Y, Z})),   # A 1, C 0
    GameResult(4, {C: 1, B: 2, A: 3, X: 4}, guests=frozenset({X})),      # C 1, B ½, A 0
]
ENTRIES = [Entry(A, "Anna"), Entry(B, "Boris"), Entry(C, "Vera")]


def test_three_players_tied_after_meeting_at_different_tables_are_split_by_their_mini_table():
    rows = standings(ENTRIES, GAMES, {A: 3, B: 3, C: 3}, chain=("direct", "lot"), seed="worked example")
    assert {round(r.points, 6) for r in rows} == {round(7 / 3, 6)}  # all on 2⅓ league points
    assert [(r.name, r.rank, r.tiebreaks["direct"], r.separated_by) for r in rows] == [
        ("Anna", 1, 2.0, None), ("Boris", 2, 1.5, "direct"), ("Vera", 3, 1.0, "direct")]



def test_the_league_rules_page_explains_it_with_the_same_example_in_both_languages(client):
    english = client.get("/leagues/rules/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Direct encounters at tables of 3 to 6" in english and "Anna 2, Boris 1½, Vera 1" in english
    client.cookies.load({"django_language": "ru"})
    russian = client.get("/leagues/rules/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Личные встречи за столами на 3–6 игроков" in russian and "Анна 2, Борис 1½, Вера 1" in russian
