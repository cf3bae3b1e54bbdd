"""A push subscription's endpoint is where the site will post, so it is taken
only when it is unambiguous, read as the HTTP client will send it: an https
address on port 443 naming a push service's host, with no user information,
no backslash, no network address. Anything else is a clear 400 and stores
nothing; a device stored before is checked again before every push, and the
site follows no redirect a push service answers (issue 38, item 1)."""

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from notifications.channels import Destination, DestinationGone, Notice, TemporaryFailure
from notifications.push import channel as push_channel
from notifications.push.models import PushSubscription
from tests.notifications.push_service import Browser, vapid  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


class Listener:
    """A TCP port on the loopback that counts who connects to it (an internal host)."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.1)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.running = True
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        while self.running:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self):
        self.running = False
        self.thread.join()
        self.sock.close()


@pytest.fixture
def internal_host():
    listener = Listener()
    yield listener
    listener.close()


def player(client=None):
    user = get_user_model().objects.create_user(username="anna", password="pw", language="en")
    if client is not None:
        client.force_login(user)
    return user


def notice(user) -> Notice:
    return Notice(kind="your_move", user_id=user.pk, title="Your move", body="Durak", url="https://games.example.org/",
                  key="your_move:game=1:v=1", button="Open the game")


@pytest.mark.parametrize(("endpoint", "error"), [
    ("https://10.0.0.5\\@fcm.googleapis.com/x", "The subscription's endpoint holds characters an address may not."),
    ("https://10.0.0.5@fcm.googleapis.com/x", "The subscription's endpoint is not a plain https address."),
    ("https://user:pw@fcm.googleapis.com/x", "The subscription's endpoint is not a plain https address."),
    ("https://fcm.googleapis.com /x", "The subscription's endpoint holds characters an address may not."),
    ("https://fcm.googleapis.com:8443/x", "The subscription's endpoint must be an https address."),
    ("https://fcm.googleapis.com:0443x/x", "The subscription has no valid endpoint."),
    ("https://10.0.0.5/x", "The subscription's endpoint must name its host, not a network address."),
    ("https://[::1]/x", "The subscription's endpoint must name its host, not a network address."),
])
def test_an_ambiguous_or_internal_endpoint_is_refused_with_a_clear_400(client, vapid, endpoint, error):
    player(client)
    subscription = {**Browser(endpoint="https://push.example.net/x", application_server_key=vapid).to_json(),
                    "endpoint": endpoint}

    response = client.post(reverse("push_subscribe"), json.dumps(subscription), content_type="application/json")

    assert (response.status_code, response.json()) == (400, {"error": error})
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("endpoint", ["https://167772165/x", "https://0xa000005/x", "https://10.5/x",
                                      "https://localhost/x"])
def test_even_with_every_host_allowed_an_address_in_any_form_is_refused(client, vapid, settings, endpoint):
    settings.PUSH_SERVICE_HOSTS = ["*"]
    player(client)
    subscription = {**Browser(endpoint="https://push.example.net/x", application_server_key=vapid).to_json(),
                    "endpoint": endpoint}

    response = client.post(reverse("push_subscribe"), json.dumps(subscription), content_type="application/json")

    assert response.status_code == 400
    assert not PushSubscription.objects.exists()


def test_the_default_port_written_out_is_still_a_push_service(client, vapid):
    player(client)
    browser = Browser(endpoint="https://fcm.googleapis.com:443/fcm/send/abc", application_server_key=vapid)

    response = client.post(reverse("push_subscribe"), json.dumps(browser.to_json()), content_type="application/json")

    assert response.status_code == 201


def test_a_device_stored_before_is_checked_again_and_never_reaches_the_internal_host(vapid, internal_host):
    user = player()
    keys = Browser(endpoint="https://push.example.net/x", application_server_key=vapid).to_json()["keys"]
    row = PushSubscription.objects.create(user=user, endpoint=f"https://127.0.0.1:{internal_host.port}\\@fcm.googleapis.com/x",
                                          p256dh=keys["p256dh"], auth=keys["auth"], label="old")

    with pytest.raises(DestinationGone):
        push_channel.PushChannel().send(Destination("push", str(row.pk), row.label), notice(user))

    assert internal_host.connections == 0


def test_a_redirect_from_a_push_service_is_not_followed(vapid, settings, internal_host):
    class Redirecting(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (http.server's name)
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send_response(307)
            self.send_header("Location", f"http://127.0.0.1:{internal_host.port}/admin")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Redirecting)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    settings.PUSH_SERVICE_ORIGINS = [origin]
    user = player()
    keys = Browser(endpoint="https://push.example.net/x", application_server_key=vapid).to_json()["keys"]
    row = PushSubscription.objects.create(user=user, endpoint=f"{origin}/push/abc", p256dh=keys["p256dh"],
                                          auth=keys["auth"], label="a browser")
    try:
        with pytest.raises(TemporaryFailure):
            push_channel.PushChannel().send(Destination("push", str(row.pk), row.label), notice(user))
    finally:
        server.shutdown()
        server.server_close()

    assert internal_host.connections == 0
