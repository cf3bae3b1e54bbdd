"""The site's icon: named by every page, and found at /favicon.ico too."""

import pytest
from django.contrib.staticfiles import finders
from django.templatetags.static import static


@pytest.mark.django_db
def test_every_page_names_the_icon_and_the_icon_exists(client):
    page = client.get("/accounts/login/")
    assert f'<link rel="icon" href="{static("favicon.svg")}" type="image/svg+xml">' in page.content.decode()
    assert finders.find("favicon.svg") is not None


def test_the_conventional_address_leads_to_the_icon(client):
    answer = client.get("/favicon.ico")
    assert answer.status_code == 301 and answer["Location"] == static("favicon.svg")
