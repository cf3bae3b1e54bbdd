from django.urls import reverse

NEW_PASSWORD = "blue sky over the river"


def test_password_change_page_loads(signed_in):
    assert signed_in.get(reverse("password_change")).status_code == 200


def test_user_changes_his_password(signed_in, user, password):
    response = signed_in.post(
        reverse("password_change"),
        {"old_password": password, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert response.status_code == 302
    assert response.url == reverse("password_change_done")
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    # Still logged in (the session hash was updated) and the done page renders.
    assert signed_in.get(reverse("password_change_done")).status_code == 200


def test_wrong_old_password_changes_nothing(signed_in, user, password):
    response = signed_in.post(
        reverse("password_change"),
        {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert response.status_code == 200
    user.refresh_from_db()
    assert user.check_password(password)


def test_anonymous_cannot_change_a_password(client, db):
    response = client.get(reverse("password_change"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
