import pytest

PASSWORD = "correct horse battery staple"


@pytest.fixture
def password() -> str:
    return PASSWORD


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user("anna", "anna@example.com", PASSWORD, display_name="Anna")


@pytest.fixture
def signed_in(client, user):
    """The test client, logged in as `user`."""
    client.force_login(user)
    return client
