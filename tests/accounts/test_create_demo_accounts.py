from io import StringIO

from django.core.management import call_command


def run() -> str:
    out = StringIO()
    call_command("create_demo_accounts", stdout=out)
    return out.getvalue()


def test_demo_accounts_are_created_with_printed_passwords(django_user_model, db):
    output = run()

    admin = django_user_model.objects.get(username="admin")
    assert admin.is_superuser and admin.is_staff
    for username in ("admin", "anna", "boris", "vera"):
        password = output.split(f"{username}: created, password: ")[1].split()[0]
        assert django_user_model.objects.get(username=username).check_password(password)
    assert not django_user_model.objects.get(username="anna").is_staff


def test_second_run_keeps_the_passwords(django_user_model, db):
    run()
    hashes = dict(django_user_model.objects.values_list("username", "password"))

    output = run()

    assert "password:" not in output
    assert output.count("already exists") == 4
    assert dict(django_user_model.objects.values_list("username", "password")) == hashes
