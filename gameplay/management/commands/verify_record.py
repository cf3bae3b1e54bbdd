"""Check a published game record (GET /sheets/<id>/record.json): the seed
against the SHA-256 published at the start, every deal and move replayed from
the seed, and the result. See README "Game records"."""

import json

from django.core.management.base import BaseCommand, CommandError

from gameplay.records import RecordProblem, verify_record


class Command(BaseCommand):
    help = ("Verify a game record: the seed matches the SHA-256 published at the start, the deals come from it, "
            "every move is legal and the moves lead to the recorded result.")

    def add_arguments(self, parser):
        parser.add_argument("file", help="the record, as downloaded from /sheets/<id>/record.json")

    def handle(self, *args, file, **options):
        try:
            with open(file, encoding="utf-8") as f:
                record = json.load(f)
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc.strerror}") from None
        except ValueError as exc:
            raise CommandError(f"{file} is not JSON: {exc}") from None
        try:
            summary = verify_record(record)
        except RecordProblem as exc:
            raise CommandError(f"the record does not verify: {exc}") from None
        ending = "to the recorded result" if summary["over"] else "(the game did not finish)"
        self.stdout.write(self.style.SUCCESS(
            f"Verified: {summary['game']} record; the seed matches the SHA-256 published at the start; "
            f"{summary['moves']} moves replayed from it, every one legal, {ending}."))
