"""What this app publishes for the apps above it (a notifications app's web
push and Telegram channels subscribe in their AppConfig.ready()).

`challenge_received` is sent after the commit that made the challenge, once
per challenged player: sender=Challenge, challenge=<Challenge>, user=<User>.
Receivers must not raise (they run after the commit; a failure is logged by
the sender and does not reach the challenger).
"""

from django.dispatch import Signal

challenge_received = Signal()
