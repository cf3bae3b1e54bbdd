"""Issue 40, part 5: privacy and terms pages in Russian and English, linked
from every page's footer and from sign-up."""

import pytest
from django.urls import reverse


@pytest.mark.parametrize("name, english, russian", [
    ("privacy", "only the cookies it needs", "только необходимые для работы cookie"),
    ("terms", "One account per person", "Одна учётная запись на человека"),
])
def test_each_page_reads_in_english_and_in_russian(client, db, name, english, russian):
    assert english in client.get(reverse(name), HTTP_ACCEPT_LANGUAGE="en").text
    assert russian in client.get(reverse(name), HTTP_ACCEPT_LANGUAGE="ru").text


def test_the_privacy_page_says_what_is_stored_for_how_long_and_how_to_take_or_erase_it(client, db):
    page = client.get(reverse("privacy")).text
    for words in ("What is stored, and for how long", "Who sees what", "Download my data", "Delete my account",
                  "asks for no consent"):
        assert words in page


@pytest.mark.parametrize("url", ["/", "/accounts/login/", "/accounts/signup/", "/rules/"])
def test_every_page_links_them_in_its_footer(client, db, url):
    page = client.get(url).text
    footer = page.split('<footer class="site-footer', 1)[1]
    assert reverse("privacy") in footer and reverse("terms") in footer


def test_sign_up_links_them_beside_its_button(client, db):
    form = client.get(reverse("signup")).text.split("<form", 2)[2].split("</form>")[0]
    assert reverse("terms") in form and reverse("privacy") in form
