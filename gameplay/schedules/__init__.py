"""The deal schedules of the games whose options shape them, in words: the
new-table form's preview (with its small JSON endpoint) and the lobby's label.
One module per game, named after it; the schedules themselves are the
engines' own, so a preview cannot disagree with the game."""
