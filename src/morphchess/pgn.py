"""PGN for every variant: the seven standard tags, the variant, its start and its moves in SAN.

Tags written besides the seven (``docs/records.md``):

* ``[Variant "crossroads"]``: the variant's name (left out for orthodox chess);
* ``[VariantDefinition "..."]``: one tag per line of the definition text
  (comment lines dropped), for a variant that is not built in (or differs from
  the built-in of that name), so that the game replays anywhere;
* ``[VariantSetup "knights"]``: a named start array other than ``standard``
  (Polymorph: Black's choice);
* ``[SetUp "1"]`` and ``[FEN "..."]``: a start from position text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .board import Board, RecordError, move_number
from .idiagram import load
from .notation import FenError, MoveError
from .variant import WHITE, Variant, VariantError
from .variants import builtin, load_variant, names

__all__ = ["Game", "write", "read", "read_all"]

SEVEN_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
_DEFAULTS = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?"}
_RULE_TAGS = ("Variant", "VariantDefinition", "VariantSetup", "SetUp", "FEN")
_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_TOKEN = re.compile(r"""
    (?P<tag>\[\s*(?P<name>[A-Za-z0-9_]+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\s*\])
  | \{(?P<comment>[^}]*)\}
  | ;(?P<line>[^\n]*)
  | (?P<result>1-0|0-1|1/2-1/2|\*)(?=\s|$)
  | (?P<number>\d+\s*\.+)
  | (?P<nag>\$\d+)
  | (?P<open>\()
  | (?P<close>\))
  | (?P<san>[^\s{}();\[\]]+(?:\([A-Za-z]\)[^\s{}();\[\]]*)?)
  | (?P<bad>\S)
""", re.VERBOSE)


@dataclass
class Game:
    """A game read from PGN: the board after the last move (``board.move_stack`` holds
    the moves), the tags in file order, the comments by ply (0 = before the first
    move, n = after move n) and the result tag."""

    board: Board
    headers: dict[str, str] = field(default_factory=dict)
    comments: dict[int, str] = field(default_factory=dict)

    @property
    def result(self) -> str:
        return self.headers.get("Result", "*")


# -- writing -------------------------------------------------------------------
def _is_builtin(v: Variant) -> bool:
    return v.name in names() and builtin(v.name).text == v.text


def definition_lines(v: Variant) -> list[str]:
    """The lines of the variant's definition text, comments and blank lines dropped."""
    return [line.strip() for line in v.text.splitlines() if line.strip() and not line.strip().startswith("#")]


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _wrap(tokens: list[str], width: int = 79) -> str:
    lines, line = [], ""
    for tok in tokens:
        if line and len(line) + 1 + len(tok) > width:
            lines.append(line)
            line = tok
        else:
            line = f"{line} {tok}" if line else tok
    return "\n".join(lines + [line])


def write(board: Board, headers: dict[str, str] | None = None, comments: dict[int, str] | None = None) -> str:
    """The game of ``board`` as PGN text.

    ``headers`` adds or overrides tags (the rules tags are always computed from
    the board); ``Result`` defaults to the outcome, else ``*``.  ``comments``
    maps a ply (0 = before the first move) to a comment.
    """
    v = board.variant
    outcome = board.outcome()
    tags = dict(_DEFAULTS)
    tags["Result"] = outcome.result() if outcome else "*"
    tags.update({k: str(val) for k, val in (headers or {}).items() if k not in _RULE_TAGS})
    if v.name != "chess" or not _is_builtin(v):
        tags["Variant"] = v.name
    if board.setup != "standard":
        tags["VariantSetup"] = board.setup
    if board.custom_start:
        tags["SetUp"] = "1"
        tags["FEN"] = board.root_fen
    out = [f'[{k} "{_escape(val)}"]' for k, val in tags.items()]
    if not _is_builtin(v):
        out += [f'[VariantDefinition "{_escape(line)}"]' for line in definition_lines(v)]
    comments = comments or {}
    tokens = []
    b = board.root()

    def comment(ply: int) -> None:
        if comments.get(ply):
            tokens.append("{" + comments[ply].replace("}", ")") + "}")

    comment(0)
    for ply, move in enumerate(board.move_stack, start=1):
        number = b.turn == WHITE or ply == 1 or comments.get(ply - 1)
        tokens.append(f"{move_number(b)} {b.san(move)}" if number else b.san(move))
        b.push(move)
        comment(ply)
    tokens.append(tags["Result"])
    return "\n".join(out) + "\n\n" + _wrap(tokens) + "\n"


# -- reading -------------------------------------------------------------------
def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _variant(headers: dict[str, str], default: str | Variant | None) -> Variant:
    name = headers.get("Variant")
    if "VariantDefinition" in headers:
        try:
            return load(headers["VariantDefinition"], name or "custom")
        except VariantError as e:
            raise RecordError(f"[VariantDefinition]: {e}") from None
    if default is not None:
        return default if isinstance(default, Variant) else load_variant(default)
    if name is None or name.lower() in ("standard", "chess"):
        return builtin("chess")
    for known in names():
        if known.lower() == name.lower().replace(" ", "-"):
            return builtin(known)
    raise RecordError(f"[Variant \"{name}\"] is not built in ({', '.join(names())}) "
                      f"and the game has no [VariantDefinition] tag")


def _start(headers: dict[str, str], default_variant) -> Board:
    variant = _variant(headers, default_variant)
    fen = headers.get("FEN") if headers.get("SetUp", "1" if "FEN" in headers else "0") == "1" else None
    try:
        return Board(variant, fen=fen, setup=headers.get("VariantSetup"))
    except (FenError, VariantError) as e:
        raise RecordError(f"the game's start: {e}") from None


def _games(text: str, variant):
    """Yield the games of PGN text one by one."""
    text = "\n".join(line for line in text.splitlines() if not line.startswith("%"))
    headers: dict[str, str] = {}
    game: Game | None = None
    depth = 0  # inside variations (skipped)
    for tok in _TOKEN.finditer(text):
        kind = tok.lastgroup
        if kind == "tag":
            if game is not None:  # the previous game had no result token
                yield game
                game, headers, depth = None, {}, 0
            name, value = tok["name"], _unescape(tok["value"])
            if name == "VariantDefinition" and name in headers:  # one tag per line of the text
                value = headers[name] + "\n" + value
            headers[name] = value
            continue
        if kind == "bad":
            raise RecordError(f"unexpected character {tok[0]!r}", game.board if game else None)
        if game is None:
            if kind == "result" and not headers:
                continue
            game = Game(_start(headers, variant), dict(headers))
        if kind in ("open", "close"):
            depth += 1 if kind == "open" else -1
            if depth < 0:
                raise RecordError("')' without '('", game.board)
        elif depth or kind in ("number", "nag", "line"):
            continue
        elif kind == "comment":
            ply = len(game.board.move_stack)
            note = tok["comment"].strip()
            game.comments[ply] = f"{game.comments[ply]} {note}" if ply in game.comments else note
        elif kind == "result":
            game.headers.setdefault("Result", tok["result"])
            yield game
            game, headers, depth = None, {}, 0
        else:
            number = move_number(game.board)
            try:
                game.board.push_san(tok["san"])
            except MoveError as e:
                raise RecordError(str(e), game.board, number, tok["san"]) from None
    if game is None and headers:
        game = Game(_start(headers, variant), dict(headers))
    if game is not None:
        yield game


def read_all(text: str, variant: str | Variant | None = None) -> list[Game]:
    """Every game in PGN text.  ``variant`` is used when a game has no [VariantDefinition]."""
    return list(_games(text, variant))


def read(text: str, variant: str | Variant | None = None) -> Game:
    """The first game in PGN text.

    The variant comes from ``[VariantDefinition]``, else from ``variant``,
    else from ``[Variant]`` (built-in names; none = chess).  A move that cannot
    be read or played raises :class:`~morphchess.board.RecordError` with the
    move number and text; ``error.board`` holds the game up to that move.
    """
    for game in _games(text, variant):
        return game
    raise RecordError("no game in the PGN text")
