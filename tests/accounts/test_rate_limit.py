import pytest
from django.urls import reverse


@pytest.fixture(autouse=True)
def axes_on(settings):
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 5


def log_in(client, username: str, password: str):
    return client.post(reverse("login"), {"username": username, "password": password}, HTTP_ACCEPT_LANGUAGE="en")


def test_sixth_login_after_five_failures_is_refused_even_with_the_right_password(client, user, password):
    for _ in range(5):
        log_in(client, "anna", "wrong")

    response = log_in(client, "anna", password)

    assert response.status_code == 429
    assert "accounts/locked_out.html" in [t.name for t in response.templates]
    assert "Please try again later." in response.text
    assert client.get(reverse("profile")).status_code == 302


def test_other_users_are_not_affected(client, user, django_user_model):
    django_user_model.objects.create_user("boris", password="boris's own password")
    for _ in range(5):
        log_in(client, "anna", "wrong")

    response = log_in(client, "boris", "boris's own password")

    assert response.status_code == 302
    assert response.url == reverse("lobby")


def test_four_failures_still_let_the_right_password_in(client, user, password):
    for _ in range(4):
        assert log_in(client, "anna", "wrong").status_code == 200

    assert log_in(client, "anna", password).status_code == 302
