from django.conf import settings
from django.urls import reverse


def test_anonymous_visitor_gets_a_language_cookie(client, db):
    response = client.post(reverse("set_language"), {"language": "en", "next": reverse("login")})

    assert response.status_code == 302
    assert response.url == reverse("login")
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    response = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="ru")
    assert response.wsgi_request.LANGUAGE_CODE == "en"
    assert '<html lang="en">' in response.text


def test_signed_in_user_keeps_the_language_in_his_profile(signed_in, user):
    signed_in.post(reverse("set_language"), {"language": "en", "next": reverse("profile")})

    user.refresh_from_db()
    assert user.language == "en"


def test_unknown_language_is_ignored(signed_in, user):
    response = signed_in.post(reverse("set_language"), {"language": "xx", "next": reverse("profile")})

    assert response.url == reverse("profile")
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies
    user.refresh_from_db()
    assert user.language == "ru"


def test_foreign_next_goes_to_the_lobby(client, db):
    response = client.post(reverse("set_language"), {"language": "en", "next": "https://evil.example/"})
    assert response.url == reverse("lobby")


def test_missing_next_goes_to_the_lobby(client, db):
    response = client.post(reverse("set_language"), {"language": "en"})
    assert response.url == reverse("lobby")


def test_get_is_not_allowed(client, db):
    assert client.get(reverse("set_language"), {"language": "en"}).status_code == 405
