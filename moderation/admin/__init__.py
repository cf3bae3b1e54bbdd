"""The Django admin is the moderators' tool: the games with their actions
(abort, adjudicate, substitute) and their seats, moves and chat (`games`),
the fair-play alerts about pairs of players (`fairplay`),
the reports and the players' restrictions (`people`), the audit (`audit`).
The models are gameplay's and this app's; their admin lives here, with the
actions it offers."""

from moderation.admin import audit, fairplay, games, people  # noqa: F401 (each registers its models)
