import re

from django.core import mail
from django.urls import reverse

NEW_PASSWORD = "blue sky over the river"


def test_password_reset_sends_an_email_whose_link_sets_a_new_password(client, user):
    response = client.post(reverse("password_reset"), {"email": "anna@example.com"})
    assert response.status_code == 302
    assert response.url == reverse("password_reset_done")
    assert client.get(response.url).status_code == 200

    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["anna@example.com"]
    path = re.search(r"https?://[^/\s]+(/accounts/password/reset/\S+/\S+/)", mail.outbox[0].body)[1]

    # Django swaps the token in the link for one kept in the session.
    form_page = client.get(path, follow=True)
    assert form_page.status_code == 200
    assert form_page.context["validlink"]
    response = client.post(
        form_page.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )

    assert response.status_code == 302
    assert response.url == reverse("password_reset_complete")
    assert client.get(response.url).status_code == 200
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)


def test_unknown_email_sends_nothing_and_says_the_same(client, user):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})

    assert response.url == reverse("password_reset_done")
    assert mail.outbox == []


def test_a_broken_link_says_it_is_invalid(client, user):
    response = client.get(reverse("password_reset_confirm", args=["MQ", "set-password"]))
    assert response.status_code == 200
    assert not response.context["validlink"]
