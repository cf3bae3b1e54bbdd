"""Standing orders in a real Chromium (issue 42), in Durak and Joker: a Durak defender sets "take
the cards in this bout" and an order he then cancels on the game page, sees them listed for him
alone; the server takes for him at his turn; his move list says "by your order", while the
attacker's page, in a second browser, shows an ordinary move and no hint of any order. A Joker
player orders his bid, which another player's page shows as an ordinary bid. In Odessa, domino
Poker and Ipuker a player sets an order and cancels it, sets another (his bid; Ipuker's leader his
stake), which the server makes at his turn; another player's page shows an ordinary move."""

import re

import pytest

from tests.browser.conftest import log_in, new_page
from tests.browser.orders_scenario import run

pytestmark = pytest.mark.browser
PASSWORD = "kitchen-Table-2024"


def test_a_defender_sets_sees_cancels_and_has_an_order_applied_and_the_attacker_sees_nothing(
        page, browser, live_site):
    from playwright.sync_api import expect

    setup = run(live_site, "durak_defender", "olga", PASSWORD, "pavel")
    log_in(page, "olga", PASSWORD, setup["url"])
    orders = page.locator("#table details.orders")
    expect(orders).to_have_count(1)
    orders.locator("summary").click()
    form = orders.locator("form.order-form")
    form.locator("select[name=kind]").select_option("forced")
    form.locator("button.set-order").click()
    expect(orders.locator("li.order.pending")).to_have_count(1)
    form = orders.locator("form.order-form")
    form.locator("select[name=kind]").select_option("take")
    expect(form.locator("select[name=kind]")).to_have_value("take")
    form.locator("button.set-order").click()
    expect(page.locator("#move-error")).to_have_text("")
    expect(orders.locator("li.order.pending")).to_have_count(2)
    expect(orders.locator("li.order.pending").nth(1)).to_contain_text("Take the cards in this bout")
    orders.locator("li.order.pending").first.locator("button.cancel-order").click()
    expect(orders.locator("li.order.pending")).to_have_count(1)

    other = new_page(browser, live_site)
    try:
        log_in(other, "pavel", PASSWORD, setup["url"])
        expect(other.locator("#table")).to_have_attribute("data-version", str(setup["version"]))
        other_orders = other.locator("#table details.orders")
        expect(other_orders.locator("li.order")).to_have_count(0)
        assert "Take the cards" not in other.locator("#table").inner_text()

        attacked = run(live_site, "attack", str(setup["game"]))
        released = run(live_site, "release", str(setup["game"]))
        assert released["moved"] == 1 and released["version"] == attacked["version"] + 1

        page.reload()
        expect(page.locator("#table")).to_have_attribute("data-version", str(released["version"]))
        expect(page.locator(".move-log li").last).to_contain_text("by your order")
        expect(page.locator("#table li.order.applied")).to_contain_text("done by your order")

        other.reload()
        expect(other.locator("#table")).to_have_attribute("data-version", str(released["version"]))
        text = other.content()
        assert "order" not in other.locator(".move-log").inner_text().lower()
        assert "by your order" not in text and "Take the cards in this bout" not in text
        assert page.js_errors == [] and other.js_errors == []
    finally:
        other.context.close()


def test_a_joker_player_orders_his_bid_and_another_player_sees_an_ordinary_bid(page, browser, live_site):
    from playwright.sync_api import expect

    setup = run(live_site, "joker_bidder", "nina", PASSWORD, "oleg")
    log_in(page, "nina", PASSWORD, setup["url"])
    orders = page.locator("#table details.orders")
    orders.locator("summary").click()
    form = orders.locator("form.order-form")
    form.locator("select[name=kind]").select_option("bid")
    form.locator("select[name=tricks]").select_option(label="0")
    form.locator("button.set-order").click()
    expect(orders.locator("li.order.pending")).to_contain_text("Bid at this deal: 0")

    other = new_page(browser, live_site)
    try:
        log_in(other, setup["first_name"], PASSWORD, setup["url"])
        expect(other.locator("#table details.orders li.order")).to_have_count(0)
        advanced = run(live_site, "advance", str(setup["game"]), str(setup["position"]))
        released = run(live_site, "release", str(setup["game"]))
        assert released["moved"] == 1 and released["version"] == advanced["version"] + 1

        page.reload()
        expect(page.locator(".move-log li").last).to_have_text("nina passes (by your order)")
        expect(page.locator("#table li.order.applied")).to_contain_text("done by your order")
        other.reload()
        expect(other.locator("#table")).to_have_attribute("data-version", str(released["version"]))
        expect(other.locator(".move-log li").last).to_have_text("nina passes")  # a bid of 0, as by hand
        assert "by your order" not in other.content()
        assert page.js_errors == [] and other.js_errors == []
    finally:
        other.context.close()


@pytest.mark.parametrize("engine, kind, param, value, pending", [
    ("odessa", "bid", "tricks", "1", "Bid at this deal: 1"),
    ("domino_poker", "bid", "tricks", "1", "Bid at this deal: 1"),
    ("ipuker", "leader_stake", "tokens", "12", "As the leader, stake if the stakes reach 27 (this round): 12"),
])
def test_a_player_sets_cancels_and_has_an_order_applied_and_another_player_sees_an_ordinary_move(
        page, browser, live_site, engine, kind, param, value, pending):
    from playwright.sync_api import expect

    setup = run(live_site, "orders_table", engine, f"{engine[:6]}p", PASSWORD)
    log_in(page, setup["player"], PASSWORD, setup["url"])
    orders = page.locator("#table details.orders")
    orders.locator("summary").click()
    orders.locator("form.order-form select[name=kind]").select_option("forced")
    orders.locator("form.order-form button.set-order").click()
    expect(orders.locator("li.order.pending")).to_have_count(1)
    orders.locator("li.order.pending button.cancel-order").click()
    expect(orders.locator("li.order.pending")).to_have_count(0)
    form = orders.locator("form.order-form")
    form.locator("select[name=kind]").select_option(kind)
    form.locator(f"select[name={param}]").select_option(label=value)
    form.locator("button.set-order").click()
    expect(orders.locator("li.order.pending")).to_have_text(re.compile(re.escape(pending)))

    other = new_page(browser, live_site)
    try:
        log_in(other, setup["other"], PASSWORD, setup["url"])
        expect(other.locator("#table details.orders li.order")).to_have_count(0)
        advanced = run(live_site, "advance", str(setup["game"]), str(setup["position"]))
        released = run(live_site, "release", str(setup["game"]))
        assert released["moved"] == 1 and released["version"] == advanced["version"] + 1

        page.reload()
        expect(page.locator("#table")).to_have_attribute("data-version", str(released["version"]))
        mine = page.locator(".move-log li").last
        expect(mine).to_contain_text("(by your order)")
        expect(page.locator("#table li.order.applied")).to_contain_text("done by your order")
        other.reload()
        expect(other.locator("#table")).to_have_attribute("data-version", str(released["version"]))
        theirs = other.locator(".move-log li").last
        expect(theirs).to_have_text(mine.text_content().replace("(by your order)", "").strip())  # as by hand
        assert "by your order" not in other.content() and pending not in other.content()
        assert page.js_errors == [] and other.js_errors == []
    finally:
        other.context.close()
