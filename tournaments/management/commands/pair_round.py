"""Print the next round's pairing of a FIDE TRF-16 report, as the Swiss
library pairs it (the FIDE Dutch system): the number of pairs, then one pair
a line, "white black" by starting number, 0 for the pairing-allocated bye.
The same format as bbpPairings and JaVaFo, to compare them."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments import swiss


class Command(BaseCommand):
    help = "Print the next round's pairing (FIDE Dutch system) of a TRF-16 tournament report."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--trf", required=True, type=Path, help="the TRF-16 report of the rounds so far")

    def handle(self, *args, trf: Path, **options) -> None:
        if not trf.is_file():
            raise CommandError(f"No such file: {trf}")
        try:
            pairs = swiss.pair(swiss.read_trf(trf))
        except swiss.SwissError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(swiss.pairing_text(pairs), ending="")
