from django.urls import reverse


def test_login_page_loads(client, db):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    assert 'name="password"' in response.text


def test_user_logs_in_and_goes_to_the_lobby(client, user, password):
    response = client.post(reverse("login"), {"username": "anna", "password": password})

    assert response.status_code == 302
    assert response.url == reverse("lobby")
    assert client.get(reverse("profile")).status_code == 200


def test_login_follows_next(client, user, password):
    response = client.post(
        reverse("login") + "?next=" + reverse("profile_edit"), {"username": "anna", "password": password}
    )
    assert response.url == reverse("profile_edit")


def test_wrong_password_shows_the_form_again(client, user):
    response = client.post(reverse("login"), {"username": "anna", "password": "wrong"})

    assert response.status_code == 200
    assert client.get(reverse("profile")).status_code == 302


def test_logout_takes_a_post_and_logs_out(signed_in):
    response = signed_in.post(reverse("logout"))

    assert response.status_code == 302
    assert signed_in.get(reverse("profile")).status_code == 302


def test_logout_does_not_take_a_get(signed_in):
    assert signed_in.get(reverse("logout")).status_code == 405
    assert signed_in.get(reverse("profile")).status_code == 200
