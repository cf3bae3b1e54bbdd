"""Hypothesis strategies for the fuzz tests (tests/gameplay/test_fuzz_*.py)
and the long run (bench/fuzz.py): hostile input for every way in.

- `frames()`: raw WebSocket frames / HTTP bodies: malformed JSON, deep
  nesting, huge and odd strings (lone surrogates, NUL, BOM, right-to-left
  marks, digits of other scripts), wrong types, NaN, huge numbers, binary.
- `game_messages()`: JSON objects shaped like the protocol's messages with
  hostile fields.
- `form_data(fields)`: a form POST: each field missing or any odd string.

The few tests at the bottom check the strategies themselves (that the deep
ones really are too deep for the gate, and so on).
"""

import json

from hypothesis import given
from hypothesis import strategies as st

from gameplay import inbound

ODD_CHARACTERS = ["\ud800", "\udfff", "\x00", "\ufeff", "\u202e", "\u200b", "²", "٣", "１", "\U0010ffff", "𝕏", "ё",
                  "\n", "\r", "\t", '"', "\\", "'", "<", "&", "%", "{", "[", "\x7f", "\x1b"]
ODD_STRINGS = ["", " ", "0", "-1", "1e309", "NaN", "Infinity", "null", "true", "²", "1" * 30, "9" * 60,
               "' OR 1=1 --", "<script>alert(1)</script>", "../../etc/passwd", "%s%n", "\ud800", "a\x00b",
               "\ud83d\ude00", "\ud83d", "🂡" * 10]


def odd_text(max_size: int = 40) -> st.SearchStrategy[str]:
    """Short strings, often with a character that breaks naive code."""
    return st.one_of(
        st.sampled_from(ODD_STRINGS),
        st.text(st.one_of(st.sampled_from(ODD_CHARACTERS), st.characters(codec=None, categories=["Cs"]),
                          st.characters()), max_size=max_size),
    )


def huge_text() -> st.SearchStrategy[str]:
    return st.builds(lambda char, n: char * n, st.sampled_from(["x", "я", "\ud800", "𝕏", '"', "\\", "["]),
                     st.integers(500, 40_000))


def scalars() -> st.SearchStrategy:
    return st.one_of(
        st.none(), st.booleans(),
        st.integers(-(2**70), 2**70), st.sampled_from([0, -1, 2**31, 2**53, 2**53 + 1, 2**63, -(2**63) - 1, 10**30]),
        st.floats(allow_nan=True, allow_infinity=True), odd_text(),
    )


def json_values(max_leaves: int = 20) -> st.SearchStrategy:
    return st.recursive(scalars(), lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(odd_text(12), inner, max_size=4)), max_leaves=max_leaves)


def nested(depth: int, kind: str = "[") -> str:
    if kind == "[":
        return "[" * depth + "]" * depth
    return '{"a":' * depth + "0" + "}" * depth


def deep_json() -> st.SearchStrategy[str]:
    """Nesting beyond the gate's limit, bare or inside a real-looking message (from 2 KB of brackets up)."""
    deep = st.builds(nested, st.integers(inbound.MAX_DEPTH + 1, 3000), st.sampled_from(["[", "{"]))
    return st.one_of(
        deep,
        st.builds(lambda d: '{"type": "move", "action": ' + d + ', "version": 0, "move_id": "deep"}', deep),
        st.builds(lambda d: '{"type": "chat", "text": "hi", "x": ' + d + "}", deep),
        st.builds(lambda d: '{"on": ' + d + "}", deep),
    )


MESSAGE_TYPES = ["move", "sync", "ping", "chat", "ahead", "orders", "badge", "state", "error", "", "MOVE", "move ", "dance"]


def game_messages() -> st.SearchStrategy[dict]:
    """Objects shaped like the protocol's messages, with hostile fields."""
    actions = st.one_of(
        json_values(8),
        st.fixed_dictionaries({"type": st.one_of(st.sampled_from(["bid", "play", "trump", "attack", "throw", "beat",
                                                                  "take", "done", "transfer", "stake", "cards",
                                                                  "timeout", "resign", "rules"]), odd_text())},
                              optional={"tricks": scalars(), "card": scalars(), "suit": scalars(),
                                        "cards": st.lists(scalars(), max_size=3), "joker": scalars(),
                                        "auto": scalars(), "attack": scalars(), "tokens": scalars(),
                                        "count": scalars()}),
    )
    return st.fixed_dictionaries(
        {"type": st.one_of(st.sampled_from(MESSAGE_TYPES), scalars())},
        optional={"action": actions, "version": scalars(), "move_id": st.one_of(scalars(), odd_text(80)),
                  "text": st.one_of(scalars(), huge_text()), "on": scalars(), "extra": json_values(6),
                  "set": json_values(4), "cancel": scalars(), "dismiss": scalars()},
    )


def encode(value, how: str) -> str | bytes:
    """One JSON text as a client might send it: ASCII escapes, raw UTF-8 (a lone
    surrogate then makes invalid UTF-8), or Python's text with raw surrogates."""
    if how == "ascii":
        return json.dumps(value)
    text = json.dumps(value, ensure_ascii=False)
    if how == "bytes":
        return text.encode("utf-8", "surrogatepass")
    return text


def frames() -> st.SearchStrategy[str | bytes]:
    """Raw frames / bodies, from well-formed but hostile to plain garbage."""
    encoded = st.builds(encode, game_messages(), st.sampled_from(["ascii", "raw", "bytes"]))
    any_json = st.builds(encode, json_values(), st.sampled_from(["ascii", "raw"]))
    truncated = st.builds(lambda text, cut: text[: max(0, len(text) - cut)], encoded.filter(
        lambda t: isinstance(t, str)), st.integers(1, 20))
    return st.one_of(
        encoded, encoded, encoded, any_json, deep_json(), truncated,
        st.text(max_size=200), st.binary(max_size=200), huge_text(),
        st.builds(lambda t: json.dumps({"type": "chat", "text": t}), huge_text()),
        st.builds(lambda n: '{"type": "move", "version": ' + "9" * n + "}", st.integers(17, 6000)),
        st.sampled_from(["", " ", "null", "[]", "0", '"x"', "{", "}", "{}", '{"type": 1}', '{"type": null}',
                         '{"type": "move", "version": NaN}', '{"type": "move", "version": Infinity}',
                         '{"type": "move", "version": 1e999}',
                         '{"type": "chat", "text": "\\ud800"}', '{"type": "move", "move_id": "\\udfff"}',
                         '{"type": "sync", "type": "ping"}', "\ufeff{}", b"\xff\xfe{}", b"\xc3\x28"]),
    )


def form_data(fields: dict[str, st.SearchStrategy]) -> st.SearchStrategy[dict]:
    """A form POST: each field missing, or one of its own values, or any odd string."""
    return st.fixed_dictionaries({}, optional={
        name: st.one_of(values, odd_text(), st.integers(-(10**20), 10**20).map(str), st.just("1" * 400))
        for name, values in fields.items()
    }).map(lambda data: {name: _form_safe(value) for name, value in data.items()})


def _form_safe(value) -> str:
    """What a browser can send: text that encodes to UTF-8 (a lone surrogate
    cannot travel in a form; it arrives as U+FFFD)."""
    return str(value).encode("utf-8", "replace").decode("utf-8")


def depth(value) -> int:
    if isinstance(value, list):
        return 1 + max((depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((depth(v) for v in value.values()), default=0)
    return 0


# ---- the strategies themselves ---------------------------------------------------------


@given(deep_json())
def test_deep_json_is_always_deeper_than_the_gate_allows(text):
    assert inbound._too_deep(text, inbound.MAX_DEPTH)


def wrapped(value, levels: list[str]):
    for kind in levels:
        value = [value, "]]}{"] if kind == "[" else {"\\\"[": value}
    return value


@given(st.builds(wrapped, json_values(30), st.lists(st.sampled_from(["[", "{"]), max_size=12)))
def test_the_depth_scan_agrees_with_the_parsed_depth(value):
    text = json.dumps(value)
    assert inbound._too_deep(text, inbound.MAX_DEPTH) == (depth(value) > inbound.MAX_DEPTH)


async def flood(ws, frame: dict, burst: int, quiet_seconds: float = 0.3) -> tuple[list[dict], int | None]:
    """Send ``frame`` ``burst`` times on an open communicator; every reply, and the close code if it closed."""
    for _ in range(burst):
        await ws.send_json_to(frame)
    replies, closed = [], None
    while not await ws.receive_nothing(timeout=quiet_seconds):
        output = await ws.receive_output(timeout=10)
        if output["type"] == "websocket.close":
            closed = output["code"]
            break
        replies.append(json.loads(output["text"]))
    if closed is None:
        await ws.disconnect()
    return replies, closed
