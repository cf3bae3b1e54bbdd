from django.conf import settings
from django.urls import reverse

PROFILE = {"display_name": "Anna K.", "language": "en", "time_zone": "Asia/Tbilisi", "email_notifications": "",
           "turn_emails": "now"}


def test_anonymous_is_sent_to_login(client, db):
    response = client.get(reverse("profile_edit"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_profile_edit_page_loads(signed_in):
    response = signed_in.get(reverse("profile_edit"))
    assert response.status_code == 200
    assert 'name="time_zone"' in response.text


def test_user_edits_his_profile(signed_in, user):
    response = signed_in.post(reverse("profile_edit"), PROFILE)

    assert response.status_code == 302
    assert response.url == reverse("profile")
    user.refresh_from_db()
    assert user.name == "Anna K."
    assert user.language == "en"
    assert user.time_zone == "Asia/Tbilisi"
    assert user.email_notifications is False


def test_pages_render_in_the_language_chosen_in_the_profile(signed_in):
    response = signed_in.post(reverse("profile_edit"), PROFILE)
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"

    # The profile wins over the browser's Accept-Language.
    response = signed_in.get(reverse("profile"), HTTP_ACCEPT_LANGUAGE="ru")
    assert response.wsgi_request.LANGUAGE_CODE == "en"
    assert '<html lang="en">' in response.text

    signed_in.post(reverse("profile_edit"), {**PROFILE, "language": "ru"})
    response = signed_in.get(reverse("profile"), HTTP_ACCEPT_LANGUAGE="en")
    assert response.wsgi_request.LANGUAGE_CODE == "ru"
    assert '<html lang="ru">' in response.text


def test_unknown_time_zone_is_refused(signed_in, user):
    response = signed_in.post(reverse("profile_edit"), {**PROFILE, "time_zone": "Mars/Olympus"})

    assert response.status_code == 200
    user.refresh_from_db()
    assert user.time_zone == "Europe/Moscow"
