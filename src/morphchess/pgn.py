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
from collections.abc import Iterator
from dataclasses import dataclass, field

from .board import RESULTS, Board, Move, RecordError, check_result, move_number, number_fits, play_recorded
from .errors import quote
from .loader import load
from .notation import FenError
from .variant import WHITE, Variant, VariantError
from .variants import builtin, load_variant, names

__all__ = ["Game", "write", "read", "read_all", "games"]

SEVEN_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
_DEFAULTS = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?"}
_RULE_TAGS = ("Variant", "VariantDefinition", "VariantSetup", "SetUp", "FEN")
_TOKEN = re.compile(r"""
    (?P<tag>\[\s*(?P<name>[A-Za-z0-9_]+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\s*\])
  | \{(?P<comment>[^}]*)\}
  | ;(?P<line>[^\n]*)
  | (?P<result>1-0|0-1|1/2-1/2|\*)(?=\s|$)
  | (?P<number>\d+(?:\s*\.)+|\d+(?=\s))
  | (?P<nag>\$\d+)
  | (?P<open>\()
  | (?P<close>\))
  | (?P<san>[^\s{}();\[\]]+(?:\([A-Za-z]\)[^\s{}();\[\]]*)?)
  | (?P<bad>\S)
""", re.VERBOSE | re.ASCII)


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


def write(board: Board, headers: dict[str, str] | None = None, comments: dict[int, str] | None = None,
          sans: list[str] | None = None) -> str:
    """The game of ``board`` as PGN text.

    ``headers`` adds or overrides tags (the rules tags are always computed from
    the board); ``Result`` defaults to the outcome, else ``*``.  ``comments``
    maps a ply (0 = before the first move) to a comment.  ``sans``: the moves'
    SAN already written (a stored game), so that the moves are not played again
    (on a heavy variant that is most of the work).
    """
    return _document(board, headers or {}, _movetext(board, comments or {}, sans))


def _document(board: Board, headers: dict[str, str], movetext: list[str]) -> str:
    """The tags of the game played out on ``board``, then the movetext tokens and the result."""
    tags = _tags(board, headers)
    out = [f'[{k} "{_escape(val)}"]' for k, val in tags.items()]
    if not _is_builtin(board.variant):
        out += [f'[VariantDefinition "{_escape(line)}"]' for line in definition_lines(board.variant)]
    return "\n".join(out) + "\n\n" + _wrap(movetext + [tags["Result"]]) + "\n"


Line = list[tuple[Move, list["Line"]]]  # moves, each with the variations that replace it


def write_lines(start: Board, line: Line, headers: dict[str, str] | None = None) -> str:
    """A game with variations as PGN text: ``line`` is the main line from ``start`` (the position before
    its first move), each move with the lines that could have been played instead of it (nested alike).
    Tags as :func:`write` gives them for the main line played out."""
    board = start.copy()
    for move, _ in line:
        board.push(move)
    return _document(board, headers or {}, _line_tokens(start.copy(), line))


def _line_tokens(b: Board, line: Line) -> list[str]:
    """A line's moves in SAN with their numbers and its variations in parentheses, as tokens."""
    tokens: list[str] = []
    numbered = True  # the first move of a line, and a move after a variation, carry their number
    for move, variations in line:
        tokens.append(f"{move_number(b)} {b.san(move)}" if numbered or b.turn == WHITE else b.san(move))
        for variation in variations:
            inner = _line_tokens(b.copy(), variation)
            if inner:
                tokens += ["(" + inner[0], *inner[1:-1], inner[-1] + ")"] if len(inner) > 1 else [f"({inner[0]})"]
        numbered = bool(variations)
        b.push(move)
    return tokens


def _tags(board: Board, headers: dict[str, str]) -> dict[str, str]:
    """The tag pairs: the seven-tag roster, the caller's tags, then the ones the rules need."""
    v = board.variant
    outcome = board.outcome()
    tags = dict(_DEFAULTS)
    tags["Result"] = outcome.result() if outcome else "*"
    tags.update({k: str(val) for k, val in headers.items() if k not in _RULE_TAGS})
    if v.name != "chess" or not _is_builtin(v):
        tags["Variant"] = v.name
    if board.setup != "standard":
        tags["VariantSetup"] = board.setup
    if board.custom_start:
        tags["SetUp"] = "1"
        tags["FEN"] = board.root_fen
    return tags


def _movetext(board: Board, comments: dict[int, str], sans: list[str] | None = None) -> list[str]:
    """The moves in SAN with their numbers and comments, as tokens."""
    tokens = []
    if sans is None:
        b, sans = board.root(), []
        for move in board.move_stack:
            sans.append(b.san(move))
            b.push(move)

    def comment(ply: int) -> None:
        if comments.get(ply):
            tokens.append("{" + comments[ply].replace("}", ")") + "}")

    comment(0)
    for ply, (number, san) in enumerate(zip(board.move_numbers(), sans), start=1):
        shown = not number.endswith("...") or ply == 1 or comments.get(ply - 1)
        tokens.append(f"{number} {san}" if shown else san)
        comment(ply)
    return tokens


# -- reading -------------------------------------------------------------------
def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _same_name(a: str, b: str) -> bool:
    """Do two variant names name the same game (case, spaces and ``standard`` = ``chess`` ignored)?"""
    def norm(name: str) -> str:
        name = name.strip().lower().replace(" ", "-")
        return "chess" if name == "standard" else name
    return norm(a) == norm(b)


def _given(headers: dict[str, str], given: str | Variant) -> Variant:
    """The variant the caller gives, refused when the game's tags name another one."""
    v = given if isinstance(given, Variant) else load_variant(given)
    tag = headers.get("Variant")
    if tag is not None and not _same_name(tag, v.name):
        raise RecordError(f"the game is {quote(tag)} ([Variant] tag), not {v.name}")
    if "VariantDefinition" in headers and headers["VariantDefinition"].splitlines() != definition_lines(v):
        raise RecordError(f"the game's [VariantDefinition] is not the definition of {v.name}")
    return v


def _variant(headers: dict[str, str], given: str | Variant | None, fallback: bool) -> Variant:
    if given is not None and not (fallback and ("Variant" in headers or "VariantDefinition" in headers)):
        return _given(headers, given)
    name = headers.get("Variant")
    if "VariantDefinition" in headers:
        try:
            return load(headers["VariantDefinition"], name or "custom")
        except VariantError as e:
            raise RecordError(f"[VariantDefinition]: {e}") from None
    if name is None:
        return builtin("chess")
    for known in names():
        if _same_name(known, name):
            return builtin(known)
    raise RecordError(f"[Variant {quote(name)}] is not built in ({', '.join(names())}) "
                      f"and the game has no [VariantDefinition] tag")


def _start(headers: dict[str, str], given, fallback: bool) -> Board:
    variant = _variant(headers, given, fallback)
    setup_tag = headers.get("SetUp")
    if setup_tag not in (None, "0", "1"):
        raise RecordError(f'[SetUp {quote(setup_tag)}] must be "0" or "1"')
    if setup_tag == "1" and "FEN" not in headers:
        raise RecordError('[SetUp "1"] without a [FEN] tag')
    if setup_tag == "0" and "FEN" in headers:
        raise RecordError('[SetUp "0"] says the game starts from the array, but there is a [FEN] tag')
    try:
        return Board(variant, fen=headers.get("FEN"), setup=headers.get("VariantSetup"))
    except (FenError, VariantError) as e:
        raise RecordError(f"the game's start: {e}") from None


class _Reader:
    """Reads the games of PGN text token by token; errors name the line and the move."""

    def __init__(self, text: str, given, fallback: bool) -> None:
        self.text = re.sub(r"(?m)^%.*$", "", text)  # escape lines are dropped, line numbers kept
        self.given, self.fallback = given, fallback
        self.headers: dict[str, str] = {}
        self.game: Game | None = None
        self.variation_line = 0  # the line of the outermost open variation; 0 outside one
        self.depth = 0
        self.counted, self.lines = 0, 1  # the text before ``counted`` has ``lines - 1`` line breaks

    def line(self, tok: re.Match) -> int:
        """The line of a token (tokens are asked for in order)."""
        self.lines += self.text.count("\n", self.counted, tok.start())
        self.counted = tok.start()
        return self.lines

    def error(self, message: str, tok: re.Match) -> RecordError:
        board = self.game.board if self.game else None
        return RecordError(message, board, move_number(board) if board else None, line=self.line(tok))

    def games(self) -> Iterator[Game]:
        for tok in _TOKEN.finditer(self.text):
            kind = tok.lastgroup
            if kind == "tag":
                if self.game is not None:  # the previous game had no result token
                    yield self.finish(None, tok)
                self.tag(tok)
            elif kind == "bad":
                raise self.error(_unexpected(tok[0]), tok)
            elif self.game is None and kind == "result" and not self.headers:
                continue
            else:
                if self.game is None:
                    self.game = Game(_start(self.headers, self.given, self.fallback), dict(self.headers))
                finished = self.movetext(kind, tok)
                if finished is not None:
                    yield finished
        if self.game is None and self.headers:
            self.game = Game(_start(self.headers, self.given, self.fallback), dict(self.headers))
        if self.game is not None and (self.game.headers or self.game.board.move_stack or self.depth):
            yield self.finish(None, None)  # (comments alone are no game)

    def tag(self, tok: re.Match) -> None:
        name, value = tok["name"], _unescape(tok["value"])
        if name == "VariantDefinition" and name in self.headers:  # one tag per line of the text
            value = self.headers[name] + "\n" + value
        elif name in self.headers:
            raise self.error(f"tag [{name}] given twice", tok)
        self.headers[name] = value

    def movetext(self, kind: str | None, tok: re.Match) -> Game | None:
        """Take one token of a game's movetext; the game when the token ends it."""
        assert self.game is not None
        if kind in ("open", "close"):
            self.variation(kind, tok)
        elif self.depth:
            if kind == "result":
                raise self.error(f"the variation opened on line {self.variation_line} is not closed "
                                 f"before the result {tok[0]}", tok)
        elif kind == "comment":
            board, note = self.game.board, tok["comment"].strip()
            ply = len(board.move_stack)
            self.game.comments[ply] = f"{self.game.comments[ply]} {note}" if ply in self.game.comments else note
        elif kind == "number":
            self.number(tok)
        elif kind == "result":
            return self.finish(tok["result"], tok)
        elif kind == "san":
            board = self.game.board
            play_recorded(board, tok["san"], board.parse_san, self.line(tok))
        return None

    def variation(self, kind: str, tok: re.Match) -> None:
        if kind == "open":
            self.depth += 1
            self.variation_line = self.variation_line or self.line(tok)
        elif not self.depth:
            raise self.error("')' without '('", tok)
        else:
            self.depth -= 1
            self.variation_line = self.variation_line if self.depth else 0

    def number(self, tok: re.Match) -> None:
        """Refuse a move number that is not the number of the move that follows."""
        assert self.game is not None
        board = self.game.board
        if not number_fits(board, tok[0]):
            raise self.error(f"move number {quote(tok[0])} does not fit: the next move is "
                             f"{move_number(board)}", tok)

    def finish(self, token: str | None, tok: re.Match | None) -> Game:
        """The game just read, once its variations are closed and its result fits the rules."""
        game = self.game
        assert game is not None
        line = self.line(tok) if tok else self.lines + self.text.count("\n", self.counted)
        if self.depth:
            raise RecordError("a variation '(' that is never closed", game.board, line=self.variation_line)
        tag = game.headers.get("Result")
        if tag is not None and tag not in RESULTS:
            raise RecordError(f"[Result {quote(tag)}] is not one of {', '.join(RESULTS)}", game.board, line=line)
        if token is not None and tag is not None and token != tag:
            raise RecordError(f'the result {token} differs from [Result "{tag}"]', game.board, line=line)
        if tag is None and token is not None:
            game.headers["Result"] = token
        check_result(game.board, game.result, line)
        self.game, self.headers = None, {}
        return game


def _unexpected(char: str) -> str:
    if char == "{":
        return "a comment '{' that is never closed"
    if char == "[":
        return "a tag '[' that is not of the form [Name \"value\"]"
    return f"unexpected character {char!r}"


def start(text: str, variant: str | Variant | None = None, fallback: bool = False) -> Board:
    """The start of the first game in PGN text (its variant, setup and position, from its tags as
    :func:`read` takes them), found without reading a move: what its moves cost is known before."""
    reader = _Reader(text, variant, fallback)
    for tok in _TOKEN.finditer(reader.text):
        if tok.lastgroup == "tag":
            reader.tag(tok)
        elif tok.lastgroup == "bad":
            raise reader.error(_unexpected(tok[0]), tok)
        elif tok.lastgroup not in ("comment", "line"):
            break
    return _start(reader.headers, variant, fallback)


def games(text: str, variant: str | Variant | None = None, fallback: bool = False) -> Iterator[Game]:
    """The games of PGN text one by one, each read when asked for (``variant`` and ``fallback`` as for
    :func:`read`)."""
    return _Reader(text, variant, fallback).games()


def read_all(text: str, variant: str | Variant | None = None, fallback: bool = False) -> list[Game]:
    """Every game in PGN text (``variant`` and ``fallback`` as for :func:`read`)."""
    return list(games(text, variant, fallback))


def read(text: str, variant: str | Variant | None = None, fallback: bool = False) -> Game:
    """The first game in PGN text.

    The variant is ``variant`` (a [Variant] or [VariantDefinition] tag naming
    another one is an error), else the tags' (``[VariantDefinition]``, else
    ``[Variant]``: built-in names; none = chess).  With ``fallback`` the tags
    win and ``variant`` is only for games that name none.  Anything that does
    not fit (a move that cannot be played or comes after the end, a move
    number or result that contradicts the game, an unclosed variation or
    comment) raises :class:`~morphchess.board.RecordError` naming the line and
    the move; ``error.board`` holds the game up to that move.
    """
    for game in games(text, variant, fallback):
        return game
    raise RecordError("no game in the PGN text")
