#!/usr/bin/env python3
"""A Durak bot for the Kitchen table API: it plays random legal moves.

Standard library only. Make a token with the "read", "play" and "challenge"
scopes on your profile's API page (/api/tokens/), then:

    python examples/durak_bot.py --site http://127.0.0.1:8000 --token kt_...  # accept a challenge, play
    python examples/durak_bot.py --site ... --token ... --challenge alice      # challenge alice, play
    python examples/durak_bot.py --site ... --token ... --create               # open a table, wait, play
    python examples/durak_bot.py --site ... --token ... --join 42              # take a seat at table 42

It follows its account's NDJSON stream (/api/v1/account/stream) for its
challenges, then the game's (/api/v1/games/<id>/stream), and
whenever its seat has legal moves it sends one of them with the version it
saw and a fresh move_id, until the game is over.
"""

import argparse
import json
import random
import sys
import time
import urllib.error
import urllib.request
import uuid

OVER = ("finished", "aborted")


class Api:
    def __init__(self, site: str, token: str):
        self.site, self.token = site.rstrip("/"), token

    def _request(self, method: str, path: str, body=None) -> urllib.request.Request:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.site + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        return request

    def call(self, method: str, path: str, body=None) -> tuple[int, dict]:
        """(HTTP status, JSON answer); errors are {"code", "message"}."""
        try:
            with urllib.request.urlopen(self._request(method, path, body), timeout=30) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)

    def stream(self, path: str):
        """Each event of an NDJSON stream, reconnecting when a response ends."""
        while True:
            with urllib.request.urlopen(self._request("GET", path), timeout=120) as response:
                for line in response:
                    if line.strip():
                        yield json.loads(line)
            yield None  # the response ended: the caller decides whether to go on


def log(*words) -> None:
    print(*words, flush=True)


def my_table(api: Api, args) -> int:
    """The table to play: joined, created, or the one a challenge starts (accepted, or sent and accepted)."""
    if args.join or args.create:
        path, body = (f"/api/v1/games/{args.join}/join", {}) if args.join else (
            "/api/v1/games", {"engine": "durak", "players": 2, "allow_bots": True})
        status, table = api.call("POST", path, body)
        if status != 200:
            sys.exit(f"no table: {table['message']}")
        log(f"table {table['id']} {'joined' if args.join else 'created: waiting for an opponent'}")
        return table["id"]
    if args.challenge:
        status, sent = api.call("POST", "/api/v1/challenges", {"usernames": [args.challenge], "engine": "durak"})
        if status != 200:
            sys.exit(f"cannot challenge {args.challenge}: {sent['message']}")
        log(f"challenge {sent['id']} sent to {args.challenge}")
    else:
        log("waiting for a challenge")
    for event in api.stream("/api/v1/account/stream"):  # challenges first, then games
        if not event or event["type"] != "challenge" or event["engine"] != "durak":
            continue
        if event["incoming"] and event["status"] == "pending" and not args.challenge:
            status, answer = api.call("POST", f"/api/v1/challenges/{event['challenge']}/accept")
            log(f"challenge {event['challenge']} from {event['by']} accepted" if status == 200 else answer["message"])
        if event["status"] == "started":
            return event["game"]
        if args.challenge and not event["incoming"] and event["status"] != "pending":
            sys.exit(f"challenge {event['challenge']}: {event['status']}")


def move(api: Api, game_id: int, state: dict) -> dict | None:
    """Send a random legal move; on a refusal, the current state to act on instead."""
    action = random.choice(state["legal"])
    status, answer = api.call("POST", f"/api/v1/games/{game_id}/move",
                              {"action": action, "version": state["version"], "move_id": str(uuid.uuid4())})
    if status == 200:
        return None
    log(f"move {action} refused ({answer['code']}): {answer['message']}")
    if answer["code"] in ("busy", "rate_limited"):
        time.sleep(1)
    return api.call("GET", f"/api/v1/games/{game_id}")[1]


def play(api: Api, game_id: int) -> dict:
    """Play the game to its end; its final state."""
    for event in api.stream(f"/api/v1/games/{game_id}/stream"):
        while event and event.get("type") == "state":
            if event["status"] in OVER:
                return event
            event = move(api, game_id, event) if event["status"] == "active" and event["legal"] else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True)
    parser.add_argument("--challenge", metavar="USERNAME", help="challenge this player to Durak")
    parser.add_argument("--create", action="store_true", help="open a table for two and wait for an opponent")
    parser.add_argument("--join", type=int, help="take a seat at this table")
    parser.add_argument("--seed", type=int, help="seed the random choices (to repeat a game)")
    args = parser.parse_args()
    random.seed(args.seed)
    api = Api(args.site, args.token)
    status, me = api.call("GET", "/api/v1/account")
    if status != 200:
        sys.exit(f"the token was refused: {me['message']}")
    log(f"logged in as {me['name']}")
    game_id = my_table(api, args)
    log(f"playing game {game_id}")
    final = play(api, game_id)
    result = final.get("result") or {}
    mine = next((s for s in result.get("standings", []) if s["position"] == final["seat"]), {})
    log(f"game over: {result.get('ending')}, my place: {mine.get('place')}")


if __name__ == "__main__":
    main()
