"""Django's ``makemessages`` with a ``--keyword`` option passed on to xgettext.

The game engines cannot import Django, so they mark their messages with the
no-op ``N_`` (``gameplay/engine/core.py``); ``make messages`` runs
``makemessages --keyword=N_`` so that xgettext collects them too. This is the
customisation Django documents for extra xgettext options.
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    help = makemessages.Command.help + " Extra --keyword=NAME options are passed on to xgettext."

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument(
            "--keyword",
            action="append",
            default=[],
            metavar="NAME",
            help="An extra function name (xgettext --keyword syntax) that marks translatable strings, "
            "such as N_. Use several times to add several.",
        )

    def handle(self, *args, **options):
        keywords = options.get("keyword") or []
        self.xgettext_options = [*self.xgettext_options, *(f"--keyword={keyword}" for keyword in keywords)]
        return super().handle(*args, **options)
