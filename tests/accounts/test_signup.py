from django.contrib.auth import get_user_model
from django.urls import reverse

SIGNUP = {
    "username": "boris",
    "display_name": "Boris",
    "email": "boris@example.com",
    "password1": "green tea and lemon",
    "password2": "green tea and lemon",
}


def test_signup_page_loads(client, db):
    response = client.get(reverse("signup"))
    assert response.status_code == 200
    assert 'name="display_name"' in response.text


def test_signup_creates_the_user_and_logs_him_in(client, db):
    response = client.post(reverse("signup"), SIGNUP)

    assert response.status_code == 302
    assert response.url == reverse("lobby")
    user = get_user_model().objects.get(username="boris")
    assert user.name == "Boris"
    assert user.email == "boris@example.com"
    assert user.check_password("green tea and lemon")
    assert client.get(reverse("profile")).wsgi_request.user == user


def test_signup_remembers_the_language_the_visitor_browses_in(client, db):
    client.post(reverse("signup"), SIGNUP, HTTP_ACCEPT_LANGUAGE="en")
    assert get_user_model().objects.get(username="boris").language == "en"


def test_display_name_is_optional(client, db):
    client.post(reverse("signup"), {**SIGNUP, "display_name": ""})
    assert get_user_model().objects.get(username="boris").name == "boris"


def test_email_is_required(client, db):
    response = client.post(reverse("signup"), {**SIGNUP, "email": ""})
    assert response.status_code == 200
    assert not get_user_model().objects.filter(computer_level=None).exists()  # the computer levels have their own


def test_duplicate_username_is_refused_with_a_message(client, user):
    response = client.post(reverse("signup"), {**SIGNUP, "username": "ANNA"}, HTTP_ACCEPT_LANGUAGE="en")

    assert response.status_code == 200
    assert "A user with that username already exists." in response.text
    assert get_user_model().objects.filter(computer_level=None).count() == 1  # the computer levels have accounts of their own


def test_different_passwords_are_refused(client, db):
    response = client.post(reverse("signup"), {**SIGNUP, "password2": "something else entirely"})
    assert response.status_code == 200
    assert not get_user_model().objects.filter(computer_level=None).exists()  # the computer levels have their own


def test_signed_in_user_is_sent_to_the_lobby(signed_in):
    response = signed_in.get(reverse("signup"))
    assert response.status_code == 302
    assert response.url == reverse("lobby")
