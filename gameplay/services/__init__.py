"""Every state change of a game, one function each, one module per subject.

Each function runs in one transaction with the game row locked
(`select_for_update`; on SQLite the IMMEDIATE transaction mode takes the
write lock), and sends its broadcasts and queues its tasks only after the
commit (`transaction.on_commit`). Views, consumers, tasks and the admin stay
thin: they parse input, call one function here and render what it returns
or raises.

- `tables`: create, join, leave, computer players, the start, series.
- `moves`: a move, a resignation, a computer player's move, "done" said in advance.
- `clocks`: the seats' clocks, deadlines and their expiry, vacations.
- `orders`: standing orders: set, cancel, dismiss, and their release at a player's turn.
- `chat`: table chat.
- `interventions`: changes made from outside play (end with a result, replace a
  seat, abort, hide a message), for moderation to call with its reasons.
"""

from gameplay.records import RESIGN, TIMEOUT
from gameplay.services.base import GameError, MoveResult, locked_game, seat_of
from gameplay.services.chat import post_chat
from gameplay.services.clocks import (
    end_vacation,
    expire_deadlines,
    expire_seat,
    overdue_game_ids,
    expiry_forfeits,
    pauses_for,
    runs_out_at,
    send_time_warnings,
    take_vacation,
    update_clocks,
    vacation_days_taken,
)
from gameplay.services.moves import order_ahead, play_bot_move, resign, submit_move
from gameplay.services.orders import (cancel_order, dismiss_orders, due_order_game_ids, order_message, release_orders,
                                      set_order)
from gameplay.services.tables import (
    MAX_SERIES, check_table, checked_levels, create_game, create_seated_game, fill_with_bots, join_game, leave_game,
)

__all__ = [
    "MAX_SERIES", "RESIGN", "TIMEOUT", "GameError", "MoveResult", "check_table", "checked_levels", "create_game", "create_seated_game",
    "end_vacation", "expire_deadlines", "expire_seat", "fill_with_bots", "join_game", "leave_game", "locked_game", "order_ahead",
    "expiry_forfeits", "overdue_game_ids", "pauses_for", "runs_out_at", "send_time_warnings", "play_bot_move", "post_chat", "resign", "seat_of",
    "submit_move", "take_vacation", "update_clocks", "vacation_days_taken",
    "cancel_order", "dismiss_orders", "due_order_game_ids", "order_message", "release_orders", "set_order",
]
