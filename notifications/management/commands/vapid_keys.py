"""Make a VAPID key pair for web push.

    python manage.py vapid_keys                      # print VAPID_PUBLIC_KEY=... and VAPID_PRIVATE_KEY=...
    python manage.py vapid_keys --write var/vapid.env  # write them there, unless that file exists

Production: run it once, put both lines in the environment (or .env) and keep
them: every browser's subscription is bound to the public key, so a new pair
means every player turns push on again.
"""

from pathlib import Path

from cryptography.hazmat.primitives import serialization
from django.core.management.base import BaseCommand
from py_vapid import Vapid
from py_vapid.utils import b64urlencode


def new_key_pair() -> tuple[str, str]:
    """(public, private), base64url: the uncompressed P-256 point and the raw 32-byte private key."""
    vapid = Vapid()
    vapid.generate_keys()
    public = vapid.public_key.public_bytes(serialization.Encoding.X962,
                                           serialization.PublicFormat.UncompressedPoint)
    private = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
    return b64urlencode(public), b64urlencode(private)


class Command(BaseCommand):
    help = "Make a VAPID key pair for web push (printed, or written once into a file with --write)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--write", metavar="FILE",
                            help="write the pair into FILE (an env file), unless FILE exists already")

    def handle(self, *args, write: str | None = None, **options) -> None:
        if write and Path(write).exists():
            self.stdout.write(f"{write} exists: its VAPID keys are kept.")
            return
        public, private = new_key_pair()
        text = f"VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}\n"
        if not write:
            self.stdout.write(text, ending="")
            return
        path = Path(write)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch(mode=0o600)
        path.write_text("# Development VAPID keys (web push), made by `manage.py vapid_keys`; not for production.\n"
                        + text)
        self.stdout.write(f"Wrote new VAPID keys into {write}.")
