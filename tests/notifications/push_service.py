"""A local stand-in for a browser's push service (FCM, Mozilla autopush...),
speaking the real protocol (RFC 8030 with VAPID, RFC 8292, and aes128gcm
message encryption, RFC 8188 / 8291), and the browser's side of a subscription.

`PushService` is a small HTTP server on a thread, on a free loopback port. A
`Browser` makes its own ECDH key pair and auth secret (as a browser does when
`pushManager.subscribe()` is called) and gets an endpoint on the stand-in.
A POST to that endpoint is accepted only with a valid VAPID Authorization
header (ES256 JWT signed by the key the subscription was made with, `aud` =
the service's origin, `exp` within 24 h, a mailto:/https: `sub`), a TTL and
Content-Encoding: aes128gcm (else 403); its body is decrypted with the browser's private
key and auth secret by http_ece, exactly as a browser does, and kept in
`service.received` (the JSON the service worker would get).

`service.answer(browser, 410)` makes the endpoint answer that status (once, or always).
"""

from __future__ import annotations

import base64
import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """One browser's push subscription: its key pair and auth secret stay here;
    the site gets the endpoint, the public key and the secret."""

    endpoint: str
    application_server_key: str  # the VAPID public key it subscribed with (base64url)
    private_key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: secrets.token_bytes(16))

    @property
    def p256dh(self) -> str:
        return b64url(self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))

    def to_json(self) -> dict:
        """What PushSubscription.toJSON() gives a page."""
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)}}


@dataclass
class Received:
    token: str
    message: dict  # the decrypted JSON
    ttl: int
    headers: dict


class PushService:
    def __init__(self) -> None:
        self.browsers: dict[str, Browser] = {}
        self.received: list[Received] = []
        self.refused: list[str] = []  # why requests were refused (bad VAPID, undecryptable...)
        self._answers: dict[str, list[int]] = {}
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self) -> PushService:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    def subscribe(self, application_server_key: str) -> Browser:
        token = secrets.token_urlsafe(12)
        browser = Browser(endpoint=f"{self.origin}/push/{token}", application_server_key=application_server_key)
        self.browsers[token] = browser
        return browser

    def answer(self, browser: Browser, status: int, times: int = 1) -> None:
        """The next `times` pushes to this browser get `status` (410: gone, 503: down, 429: slow down)."""
        with self._lock:
            self._answers.setdefault(browser.endpoint.rsplit("/", 1)[1], []).extend([status] * times)

    def answer_normally(self) -> None:
        """Every endpoint accepts again (the answers queued by `answer` are dropped)."""
        with self._lock:
            self._answers.clear()

    def messages_for(self, browser: Browser) -> list[dict]:
        token = browser.endpoint.rsplit("/", 1)[1]
        return [r.message for r in self.received if r.token == token]

    # --- the protocol ---------------------------------------------------------------

    def _check_vapid(self, authorization: str, browser: Browser) -> None:
        scheme, _, params = authorization.partition(" ")
        if scheme.lower() != "vapid":
            raise ValueError(f"Authorization scheme {scheme!r}, not vapid")
        fields = dict(part.strip().split("=", 1) for part in params.split(","))
        token, key = fields["t"], fields["k"]
        if key != browser.application_server_key:
            raise ValueError("VAPID key differs from the subscription's applicationServerKey")
        signing_input, _, signature = token.rpartition(".")
        header = json.loads(unb64url(signing_input.split(".")[0]))
        claims = json.loads(unb64url(signing_input.split(".")[1]))
        if header.get("alg") != "ES256":
            raise ValueError(f"JWT alg {header.get('alg')!r}")
        raw = unb64url(signature)
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        try:
            public.verify(der, signing_input.encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            raise ValueError("bad JWT signature") from None
        if claims.get("aud") != self.origin:
            raise ValueError(f"aud {claims.get('aud')!r} is not {self.origin}")
        if not time.time() < int(claims.get("exp", 0)) <= time.time() + 24 * 3600:
            raise ValueError(f"exp {claims.get('exp')!r} not within 24 h")
        if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
            raise ValueError(f"sub {claims.get('sub')!r}")

    def _receive(self, path: str, headers, body: bytes) -> int:
        token = path.rsplit("/", 1)[-1]
        browser = self.browsers.get(token) if path.startswith("/push/") else None
        if browser is None:
            return 404
        with self._lock:
            queued = self._answers.get(token)
            if queued:
                return queued.pop(0)
        try:  # the push service's checks
            self._check_vapid(headers.get("Authorization", ""), browser)
            if headers.get("Content-Encoding") != "aes128gcm":
                raise ValueError(f"Content-Encoding {headers.get('Content-Encoding')!r}")
            ttl = int(headers["TTL"])
        except Exception as exc:
            self.refused.append(f"{type(exc).__name__}: {exc}")
            return 403
        try:  # the browser's: the service accepted the message, the browser drops what it cannot read
            plain = http_ece.decrypt(body, private_key=browser.private_key, auth_secret=browser.auth,
                                     version="aes128gcm")
            message = json.loads(plain)
        except Exception as exc:
            self.refused.append(f"{type(exc).__name__}: {exc}")
            return 201
        self.received.append(Received(token=token, message=message, ttl=ttl, headers=dict(headers)))
        return 201

    def _handler(self):
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                status = service._receive(self.path, self.headers, body)
                self.send_response(status)
                if status == 201:
                    self.send_header("Location", self.path + "/message/" + secrets.token_hex(4))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        return Handler


# --- fixtures (imported by the push tests) ----------------------------------------------

import pytest  # noqa: E402


@pytest.fixture
def vapid(settings):
    """The site's VAPID key pair, made like `manage.py vapid_keys` does."""
    from notifications.management.commands.vapid_keys import new_key_pair

    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = new_key_pair()
    settings.VAPID_SUBJECT = "mailto:games@example.org"
    return settings.VAPID_PUBLIC_KEY


@pytest.fixture
def push_service(settings):
    """The stand-in, trusted by its exact origin (PUSH_SERVICE_ORIGINS): it is
    plain HTTP on a loopback address, which no subscription may name otherwise."""
    with PushService() as service:
        settings.PUSH_SERVICE_ORIGINS = [*settings.PUSH_SERVICE_ORIGINS, service.origin]
        yield service
