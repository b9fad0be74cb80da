"""Alpha-beta search for any variant.

Iterative deepening over a principal-variation search with a transposition
table keyed by the position hash, null-move pruning, late-move reductions,
futility pruning at the frontier, pruning of moves that lose the exchange on
their square near the leaves, reverse futility pruning and razoring (where the
variant's configuration turns them on: chess), check extension, and a quiescence search
over captures (plus, on its first ply, promotions and morphs that gain
material; a capture gaining less than the capturer is worth is skipped unless
the static exchange evaluation of :mod:`.see` says it wins material).  Moves
are ordered hash move first, then captures by MVV-LVA, then killer moves,
then quiet moves by history and by how much the piece-square tables gain
(which ranks a morph into a stronger piece first).  Where the variant's configuration says
so (``tempo``), the capture search's static score adds a share of the best gain the side to
move has by a quiet shape change, so that in games where nearly every move gains the score
does not swing with who moved last.

Mate, stalemate, bare-king, fifty-move and repetition results follow the
variant's rules (see :meth:`morphchess.position.Position.outcome`); inside
the tree a position that repeats one seen before is scored as a draw.

The search works on the given :class:`~morphchess.position.Position` with
make/unmake and leaves it exactly as it was (also when stopped).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from operator import itemgetter

from ..errors import OptionError
from ..move import Kind, Move
from ..pieces import colour_of
from ..position import Position
from .config import SWITCHES, EngineConfig, config_for
from .evaluate import QS_GAIN, attack_units, eval_tables, game_phase
from .movepick import ordered, staged_moves
from .see import exchange_exact, exchange_tables, see
from .tt import EXACT, LOWER, UPPER, TranspositionTable

__all__ = ["SearchResult", "Params", "search", "level_limits", "MATE"]

MATE = 100_000          # score of a mate on the board; mate in n plies scores MATE - n
MATE_BOUND = MATE - 1000
MAX_PLY = 100
FUTILITY_MARGIN = 150
SEE_QUIET = 80         # SEE pruning's margins per ply of depth (the ``seeprune`` switch)
SEE_CAPTURE = 100      # (captures, and morphs gaining QS_GAIN)
EVAL_CACHE = 200_000   # dynamic evaluations kept with the transposition table before they are cleared
LAZY_MARGIN = 300      # the capture search skips the dynamic terms of a score this far outside the window


class Params:
    """Overrides of the variant's search switches (:data:`~.config.SWITCHES`, whole numbers), so that a
    match can play a change against the engine without it in one process (a player SPEC's
    ``?name=value``); OptionError names an unknown switch."""

    __slots__ = ("overrides",)

    def __init__(self, **overrides: int) -> None:
        for name in overrides:
            _switch_name(name)
        self.overrides = overrides

    @classmethod
    def parse(cls, text: str) -> Params:
        """``name=value&name=value`` (whole numbers); OptionError names an unknown or bad item."""
        values = {}
        for item in filter(None, text.split("&")):
            name, _, value = item.partition("=")
            _switch_name(name)
            try:
                values[name] = int(value)
            except ValueError:
                raise OptionError(f"search parameter {name} needs a whole number, not {value!r}") from None
        return cls(**values)

    def apply(self, config: EngineConfig) -> EngineConfig:
        """``config`` with these overrides."""
        return replace(config, **{name: type(getattr(config, name))(value) for name, value in self.overrides.items()})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Params) and self.overrides == other.overrides

    def __hash__(self) -> int:
        return hash(tuple(sorted(self.overrides.items())))

    def __repr__(self) -> str:
        return f"Params({', '.join(f'{k}={v}' for k, v in self.overrides.items())})"


def _switch_name(name: str) -> None:
    """OptionError unless ``name`` is a search switch."""
    if name not in SWITCHES:
        raise OptionError(f"unknown search parameter {name!r}: use " + ", ".join(SWITCHES))


@dataclass
class SearchResult:
    """What a search found.  ``score`` is in centipawns from the side to move's view; ``mate`` is the
    number of moves to mate (negative when the side to move is mated), else None."""

    move: Move | None
    score: int = 0
    mate: int | None = None
    pv: list[Move] = field(default_factory=list)
    depth: int = 0
    nodes: int = 0
    seconds: float = 0.0


def level_limits(level: int) -> dict:
    """Search limits of strength level 1 (very weak) to 8 (strongest), as keyword arguments of :func:`search`."""
    if not 1 <= level <= 8:
        raise OptionError(f"level {level} is out of range: use 1 to 8")
    return [{"depth": 1}, {"depth": 2}, {"depth": 3}, {"movetime_ms": 200}, {"movetime_ms": 500},
            {"movetime_ms": 1000}, {"movetime_ms": 3000}, {"movetime_ms": 10000}][level - 1]


def search(pos: Position, depth: int | None = None, movetime_ms: int | None = None, nodes: int | None = None,
           stop: threading.Event | None = None, on_info: Callable[[SearchResult], None] | None = None,
           moves: Iterable[Move] | None = None, tt: TranspositionTable | None = None,
           params: Params | None = None) -> SearchResult:
    """Search ``pos`` and return the best move found.

    Limits: ``depth`` in plies, ``movetime_ms``, ``nodes``; any combination, the first reached ends
    the search (no limit at all: depth 64, stop it with ``stop``).  The time counts from the first
    node: the variant's evaluation tables are built before (once per variant and process).
    ``stop`` is checked every few hundred nodes; when set, the best move of the deepest search so
    far is returned.  ``on_info`` gets a :class:`SearchResult` after every completed depth.
    ``moves`` restricts the moves considered at the root (UCI's ``searchmoves``).  ``tt``: the
    transposition table to use (default: one per variant and process); ``params``: :class:`Params`,
    overrides of the variant's configuration (:func:`~.config.config_for`).
    """
    return _Searcher(pos, depth, movetime_ms, nodes, stop, on_info, moves, tt, params or Params()).run()


class _Stop(Exception):
    pass


def mate_moves(score: int) -> int | None:
    """Moves to mate of a search score (negative: being mated), None for an ordinary score."""
    if score >= MATE_BOUND:
        return (MATE - score + 1) // 2
    if score <= -MATE_BOUND:
        return -((MATE + score + 1) // 2)
    return None


class _Searcher:
    def __init__(self, pos, depth, movetime_ms, nodes, stop, on_info, moves, tt, params) -> None:
        for name, val in (("depth", depth), ("movetime_ms", movetime_ms), ("nodes", nodes)):
            if val is not None and val < 1:
                raise OptionError(f"search {name} must be at least 1, not {val}")
        self.pos = pos
        self.t = pos.t
        v = pos.variant
        self.variant = v
        self.max_depth = min(depth or 64, MAX_PLY - 10)
        self.root_moves = None if moves is None else set(moves)
        self.node_limit = nodes
        self.stop = stop
        self.on_info = on_info
        self.nodes = 0
        self.config = config = params.apply(config_for(v))
        self.dynamic = config.dynamic
        self.root_phase = not (self.dynamic and config.term("taper"))  # royal tables of the root's phase
        et = eval_tables(v, game_phase(v, pos.board) if self.root_phase else 1.0)
        # the switches read at every node, one attribute lookup away
        self.mobility = config.mobility
        self.attack = config.attack
        self.tempo = config.tempo
        self.safe = int(config.safe)
        self.qtt = config.qtt
        self.rfp = config.rfp
        self.razor = config.razor
        self.lazy = bool(self.dynamic or self.mobility or config.mopup)  # terms beside the tables'
        self.pst = et.pst
        self.value = et.value
        self.order_value = et.order_value
        self.counts_code = et.counts
        self.pawnlike = et.pawnlike
        self.et = et
        self.exchange = exchange_tables(v, et.value)
        self.exact = exchange_exact(pos)  # static exchange evaluation lists every attacker in this variant
        self.colour = [colour_of(c) for c in range(self.t.ncodes)]
        us_count = [0, 0]
        heavy = [0, 0]
        for p in pos.board:
            if p and et.counts[p]:
                us_count[colour_of(p)] += 1
                if not et.pawnlike[p]:
                    heavy[colour_of(p)] += 1
        self.count = us_count     # pieces that count against the bare-king rule, per colour
        self.heavy = heavy        # of those, the ones that are not pawns (null-move safety)
        self.baring = v.baring is not None
        self.bare_immediate = v.bare_king_immediate
        self.extinction = bool(v.extinction)
        self.succession = bool(v.succession)
        # a side with no legal move: mated or stalemated, lost, won or drawn as the variant says
        self.mated_sign = 1 if v.checkmate_wins else -1
        self.stalemated_sign = -1 if v.stalemate_loses else 1 if v.stalemate_wins else 0
        # flag, check-count, army and connection rules end games before the moves run out (Position.decided)
        self.kings_only_draw = v.kings_only_draw()
        self.win_rules = bool(pos.t.flags or pos.t.check_counting or v.army_extinction is not None
                              or v.extinction_wins or v.connection is not None)
        self.fifty = 2 * v.fifty_moves if v.fifty_moves else 10 ** 9
        self.repetition = bool(v.repetitions)
        self.tt: TranspositionTable = tt or v.derived(("transposition table",), TranspositionTable)
        self.tt.new_search()  # kept from one search to the next, older entries replaced first
        self.killers: list[list[Move | None]] = [[None, None] for _ in range(MAX_PLY + 1)]
        self.history: dict = {}
        # hashes of the game so far (positions that can still repeat) and of the search path
        self.path = pos.history() + [pos.hash]
        self.extend_limit = 0  # check extensions only up to this ply (twice the iteration's depth)
        self.start = time.perf_counter()  # the clock starts once the tables are ready
        self.deadline = self.start + movetime_ms / 1000 if movetime_ms else None
        self.movetime = movetime_ms / 1000 if movetime_ms else None

    # -- driver --------------------------------------------------------------
    def run(self) -> SearchResult:
        pos = self.pos
        legal = pos.legal_moves()
        result = SearchResult(move=legal[0] if legal else None)
        if not legal or pos.outcome(legal) is not None:
            result.score = self._no_moves(pos.in_check(), 0) if not legal else self._decided(0)
            result.mate = 0 if abs(result.score) == MATE else None
            result.seconds = time.perf_counter() - self.start
            return result
        ev = self.et.evaluate(pos.board)
        allowed = [m for m in legal if self.root_moves is None or m in self.root_moves] or legal
        root = ordered(pos, allowed, self.pst, self.order_value, self.killers[0], self.history)
        result.move = root[0]
        for depth in range(1, self.max_depth + 1):
            try:
                score = self._iteration(root, depth, ev, result.score)
            except _Stop:
                if root[0] != result.move:  # a better move found in the unfinished iteration
                    result.move, result.pv = root[0], [root[0]]
                break
            finally:
                result.nodes = self.nodes
                result.seconds = time.perf_counter() - self.start
            best = root[0]
            result.move, result.score, result.depth = best, score, depth
            result.mate = mate_moves(score)
            result.pv = self._pv(best, depth)
            if self.on_info:
                self.on_info(SearchResult(best, score, result.mate, list(result.pv), depth, self.nodes,
                                          result.seconds))
            if len(root) == 1 and self.deadline:
                break
            if result.mate is not None and 0 < 2 * result.mate - 1 <= depth:  # the shortest mate is found
                break
            if self.node_limit and self.nodes >= self.node_limit:
                break
        return result

    def _iteration(self, root: list, depth: int, ev: int, last: int) -> int:
        """One iteration, first in a window around the ``last`` score when ``Params.aspiration`` says so."""
        width = self.config.aspiration
        if width and depth >= 4 and abs(last) < MATE_BOUND:
            alpha, beta = last - width, last + width
            score = self._root(root, depth, ev, alpha, beta)
            if alpha < score < beta:
                return score
        return self._root(root, depth, ev, -MATE - 1, MATE + 1)

    def _root(self, root: list, depth: int, ev: int, alpha: int, beta: int) -> int:
        """One iteration over the root moves: moves the best to the front of ``root``, returns its score."""
        pos = self.pos
        low = alpha
        self.extend_limit = min(2 * depth, MAX_PLY - 5)
        for i, m in enumerate(root):
            d_ev, captured = self._make(m)
            try:
                if i == 0:
                    score = -self._node(depth - 1, -beta, -alpha, 1, ev + d_ev, True)
                else:
                    score = -self._node(depth - 1, -alpha - 1, -alpha, 1, ev + d_ev, True)
                    if score > alpha:
                        score = -self._node(depth - 1, -beta, -alpha, 1, ev + d_ev, True)
            finally:
                self._unmake(captured)
            if score > alpha:
                alpha = score
                if i:  # a new best move: move it to the front, keep the others' order
                    root.insert(0, root.pop(i))
                if alpha >= beta:
                    return alpha
        if alpha > low:
            self.tt.put(pos.hash, depth, EXACT, alpha, root[0])
        return alpha

    def _pv(self, first, depth: int) -> list:
        """The principal variation: the best move, then hash moves while they are legal."""
        pos = self.pos
        pv = [first]
        pos.make(first)
        seen = {pos.hash}
        while len(pv) < depth + 8:
            entry = self.tt.get(pos.hash)
            if not entry or entry.move is None or entry.move not in pos.legal_moves():
                break
            pv.append(entry.move)
            pos.make(entry.move)
            if pos.hash in seen:
                break
            seen.add(pos.hash)
        for _ in pv:
            pos.unmake()
        return pv

    # -- make / unmake with incremental evaluation -----------------------------
    def _make(self, m: Move) -> tuple[int, int]:
        """Play ``m``; return the change of the White-relative evaluation and the captured code."""
        pos = self.pos
        b = pos.board
        pst = self.pst
        frm, to, new, kind, extra = m
        d = pst[new][to] - pst[b[frm]][frm]
        cap_sq = pos.capture_square(m)
        cap = 0
        if cap_sq is not None:
            cap = b[cap_sq]
            d -= pst[cap][cap_sq]
            if self.counts_code[cap]:
                self.count[self.colour[cap]] -= 1
                if not self.pawnlike[cap]:
                    self.heavy[self.colour[cap]] -= 1
        if kind is Kind.CASTLE:
            pfrom, pto, pnew = extra
            d += pst[pnew][pto] - pst[b[pfrom]][pfrom]
        elif kind is Kind.UNLOAD:  # the piece taken on the target is put on the square of extra
            d -= pst[b[to]][to]
        pos.make(m)
        if kind is Kind.UNLOAD:
            (unloaded,) = extra
            d += pst[b[unloaded]][unloaded]
        self.path.append(pos.hash)
        return d, cap

    def _unmake(self, cap: int) -> None:
        self.pos.unmake()
        self.path.pop()
        if cap and self.counts_code[cap]:
            self.count[self.colour[cap]] += 1
            if not self.pawnlike[cap]:
                self.heavy[self.colour[cap]] += 1

    def _tick(self) -> None:
        if self.deadline and time.perf_counter() >= self.deadline:
            raise _Stop
        if self.stop is not None and self.stop.is_set():
            raise _Stop
        if self.node_limit and self.nodes >= self.node_limit:
            raise _Stop

    # -- rules at a node ---------------------------------------------------------
    def _terminal(self, ply: int):
        """Score of a position decided by the extinction, royal-capture, bare-king or draw rules before
        looking at moves, else None."""
        pos = self.pos
        if self.win_rules and pos.decided():
            return self._decided(ply)
        if self.extinction:
            if pos.extinct(pos.turn):  # both at once: the side that moved wins
                return ply - MATE
            if pos.extinct(pos.turn ^ 1):
                return MATE - ply
        if self.succession and not pos.royals[pos.turn]:  # a double capture took the last two
            return ply - MATE
        if self.baring:
            us = pos.turn
            mine, theirs = self.count[us], self.count[us ^ 1]
            if not theirs:
                return 0 if not mine else MATE - ply
            if not mine and (self.bare_immediate or theirs > 1):
                return ply - MATE
        elif self.kings_only_draw and not self.count[0] and not self.count[1]:
            return 0
        if pos.halfmove >= self.fifty:
            return 0
        if self.repetition and pos.halfmove >= 4:
            path = self.path
            h = path[-1]
            stop = max(len(path) - 1 - pos.halfmove, 0)
            for i in range(len(path) - 5, stop - 1, -2):
                if path[i] == h:
                    return 0
        return None

    def _no_moves(self, in_check: bool, ply: int) -> int:
        """Score of the side to move with no legal move, ``ply`` plies from the root."""
        return (self.mated_sign if in_check else self.stalemated_sign) * (MATE - ply)

    def _decided(self, ply: int) -> int:
        """Score of a position whose game is over by the rules (:meth:`Position.outcome`), or 0 where
        it goes on (a drawn or undecided position)."""
        pos = self.pos
        outcome = pos.outcome()
        if outcome is None or outcome.winner is None:
            return 0
        return MATE - ply if outcome.winner == pos.turn else ply - MATE

    # -- the tree ----------------------------------------------------------------
    def _node(self, depth: int, alpha: int, beta: int, ply: int, ev: int, null_ok: bool) -> int:
        self.nodes += 1
        if not self.nodes & 255:
            self._tick()
        pos = self.pos
        if ply >= MAX_PLY - 1:
            return ev if pos.turn == 0 else -ev
        done = self._terminal(ply)
        if done is not None:
            return done
        # mate-distance pruning
        if alpha < ply - MATE:
            alpha = ply - MATE
        if beta > MATE - ply - 1:
            beta = MATE - ply - 1
        if alpha >= beta:
            return alpha
        in_check = pos.in_check()
        if in_check and ply < self.extend_limit:  # capped: amazons can check for ever
            depth += 1
        if depth <= 0:
            return self._quiesce(alpha, beta, ply, ev, 0)
        pv_node = beta - alpha > 1
        cut, tt_move = self._probe(depth, alpha, beta, ply, pv_node)
        if cut is not None:
            return cut
        static = self._static(ev) if not in_check and not pv_node else (ev if pos.turn == 0 else -ev)
        rfp = self.rfp
        if (rfp and not pv_node and not in_check and depth <= 3 and abs(beta) < MATE_BOUND
                and static - rfp * depth >= beta):
            return static - rfp * depth
        razor = self.razor
        if (razor and not pv_node and not in_check and depth <= 3 and abs(alpha) < MATE_BOUND
                and static + razor * depth <= alpha):
            captures = self._quiesce(alpha, alpha + 1, ply, ev, 0)
            if captures <= alpha:
                return captures
        if null_ok and not pv_node and not in_check and depth >= self.config.null and static >= beta:
            score = self._null_move(depth, beta, ply, ev)
            if score is not None:
                return score
        futile = (depth <= self.config.futility and not in_check and not pv_node
                  and static + FUTILITY_MARGIN * depth <= alpha and abs(alpha) < MATE_BOUND)
        h = pos.hash
        moves = staged_moves(pos, tt_move, self.pst, self.order_value, self.killers[ply], self.history)
        best, best_move = self._move_loop(moves, depth, alpha, beta, ply, ev, in_check, futile)
        if best_move is None and best == -MATE - 1:  # no legal move
            return self._no_moves(in_check, ply)
        self._store(h, depth, best, best_move, alpha, beta, ply)
        return best

    def _probe(self, depth: int, alpha: int, beta: int, ply: int, pv_node: bool) -> tuple[int | None, Move | None]:
        """The transposition table: (a score that settles this node or None, the stored best move)."""
        entry = self.tt.get(self.pos.hash)
        if entry is None:
            return None, None
        if entry.depth >= depth and not pv_node:
            s = entry.score
            if s >= MATE_BOUND:
                s -= ply
            elif s <= -MATE_BOUND:
                s += ply
            flag = entry.bound
            if flag == EXACT or (flag == LOWER and s >= beta) or (flag == UPPER and s <= alpha):
                return s, entry.move
        return None, entry.move

    def _store(self, h: int, depth: int, best: int, best_move: Move | None, alpha: int, beta: int,
               ply: int) -> None:
        """Keep a node's result (mate scores relative to the node, the bound it is)."""
        stored = best
        if stored >= MATE_BOUND:
            stored += ply
        elif stored <= -MATE_BOUND:
            stored -= ply
        flag = LOWER if best >= beta else (EXACT if best > alpha else UPPER)
        self.tt.put(h, depth, flag, stored, best_move)

    def _null_move(self, depth: int, beta: int, ply: int, ev: int) -> int | None:
        """Skip a turn: if the side to move still holds beta, the position is good enough (a score
        to return), else None.  Not without two pieces other than pawns: zugzwang matters there."""
        pos = self.pos
        us = pos.turn
        if self.heavy[us] < 2 or not pos.royals[us]:
            return None
        r = 3 if depth >= 6 else 2
        pos.make_null()
        self.path.append(pos.hash)
        try:
            score = -self._node(depth - 1 - r, -beta, -beta + 1, ply + 1, ev, False)
        finally:
            self.path.pop()
            pos.unmake()
        if score >= beta:
            return beta if score >= MATE_BOUND else score
        return None

    def _move_loop(self, moves: Iterable[Move], depth: int, alpha: int, beta: int, ply: int, ev: int, in_check: bool,
                   futile: bool) -> tuple[int, Move | None]:
        """Search the ordered moves (principal variation search, late-move reductions, futility);
        return the best score and move; a quiet move that cuts off becomes a killer and gains history."""
        pos = self.pos
        pv_node = beta - alpha > 1
        best, best_move = -MATE - 1, None
        b = pos.board
        type_of = self.t.type_of
        killers = self.killers[ply]
        lmp = self.config.lmp
        late = lmp + depth * depth if lmp and depth <= 3 and not pv_node and not in_check else 1 << 30
        prune_depth = self.config.seeprune if self.exact and not pv_node and not in_check else 0
        quiets = 0
        morphs = self.config.morphs
        pst = self.pst
        sign = 1 if pos.turn == 0 else -1
        for i, m in enumerate(moves):
            quiet = pos.capture_square(m) is None and (
                type_of[m.piece] == type_of[b[m.origin]]
                or (morphs and (pst[m.piece][m.target] - pst[b[m.origin]][m.origin]) * sign < QS_GAIN))
            if quiet and i:
                if futile and m != killers[0]:
                    continue
                quiets += 1
                if quiets > late and abs(alpha) < MATE_BOUND:
                    continue
            if i and depth <= prune_depth and abs(alpha) < MATE_BOUND and self._exchange_loses(m, quiet, depth):
                continue
            d_ev, cap = self._make(m)
            try:
                if i == 0:
                    score = -self._node(depth - 1, -beta, -alpha, ply + 1, ev + d_ev, True)
                else:
                    reduce = 0
                    if (quiet and depth >= 3 and i >= 3 and not in_check
                            and m != killers[0] and m != killers[1]):
                        reduce = 1 if i < 8 else 2
                    score = -self._node(depth - 1 - reduce, -alpha - 1, -alpha, ply + 1, ev + d_ev, True)
                    if score > alpha and (reduce or pv_node):
                        score = -self._node(depth - 1, -beta, -alpha, ply + 1, ev + d_ev, True)
            finally:
                self._unmake(cap)
            if score > best:
                best, best_move = score, m
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if quiet:
                            if killers[0] != m:
                                killers[1] = killers[0]
                                killers[0] = m
                            key = (b[m.origin], m.target)
                            self.history[key] = self.history.get(key, 0) + depth * depth
                        break
        return best, best_move

    def _quiesce(self, alpha: int, beta: int, ply: int, ev: int, qply: int) -> int:
        self.nodes += 1
        if not self.nodes & 255:
            self._tick()
        pos = self.pos
        us = pos.turn
        if self.baring:
            mine, theirs = self.count[us], self.count[us ^ 1]
            if not theirs:
                return 0 if not mine else MATE - ply
            if not mine and (self.bare_immediate or theirs > 1):
                return ply - MATE
        if self.qtt:
            cut, _move = self._probe(0, alpha, beta, ply, False)
            if cut is not None:
                return cut
        stand = ev if us == 0 else -ev
        if self.lazy and alpha - LAZY_MARGIN < stand < beta + LAZY_MARGIN:
            stand = self._static(ev)
        if self.tempo:
            gains = self.tt.gains[self.safe]
            best_gain = gains.get(pos.hash)
            if best_gain is None:
                best_gain = _keep(gains, pos.hash, self._morph_gain())
            stand += best_gain * self.tempo // 100
        if stand >= beta or ply >= MAX_PLY:
            return stand
        low = alpha
        if stand > alpha:
            alpha = stand
        cands = self._tactical_moves(qply == 0)
        if not cands:
            return alpha
        them = us ^ 1
        value = self.et.value
        for _key, gain, m in cands:
            if stand + gain + FUTILITY_MARGIN < alpha:
                continue
            if gain < value[m.piece] and self._loses(m, them):
                continue
            d_ev, cap = self._make(m)
            try:
                ok = True
                for r in pos.guarded(us):  # with successors, checks matter only to the last royal piece
                    if pos.attacked(r, them):
                        ok = False
                        break
                if ok:
                    score = -self._quiesce(-beta, -alpha, ply + 1, ev + d_ev, qply + 1)
            finally:
                self._unmake(cap)
            if ok and score > alpha:
                alpha = score
                if alpha >= beta:
                    break
        if self.qtt:
            self._store(pos.hash, 0, alpha, None, low, beta, ply)
        return alpha

    def _static(self, ev: int) -> int:
        """The static score from the side to move's view: the tables' ``ev`` and the dynamic terms."""
        pos = self.pos
        if self.lazy:
            extra = self.tt.evals.get(pos.hash)
            if extra is None:
                extra = _keep(self.tt.evals, pos.hash, self._terms(pos.board))
            ev += extra
        return ev if pos.turn == 0 else -ev

    def _terms(self, board: list[int]) -> int:
        """What the static score adds to the tables (White positive): the dynamic terms and mobility."""
        extra = self.dynamic * self.et.dynamic(board, self.root_phase) // 100 if self.dynamic else 0
        if self.mobility:
            score, units, attackers = self.et.mobility(self.pos)
            extra += round(self.mobility * score / 10)
            if self.attack:
                white, black = attack_units(units, attackers)
                extra += self.attack * white // 100 - self.attack * black // 100
        if self.config.mopup and not self.baring and 0 in self.count:
            extra += self.et.mopup(board)
        return extra

    def _morph_gain(self) -> int:
        """:meth:`EvalTables.morph_gain` of the node (with ``Params.safe``, safe squares only)."""
        return self.et.morph_gain(self.pos, bool(self.safe))

    def _exchange_loses(self, m: Move, quiet: bool, depth: int) -> bool:
        """SEE pruning: does ``m`` lose more in the exchange on its square than the margin for ``depth``?"""
        if m.kind is Kind.UNLOAD:  # an unload move sends a piece back: not an exchange
            return False
        return see(self.pos, m, self.exchange) < -(SEE_QUIET if quiet else SEE_CAPTURE) * depth

    def _loses(self, m: Move, them: int) -> bool:
        """Does capture ``m`` fail to win material in the exchange on its square (static exchange
        evaluation; where that cannot be exact, whenever the square is defended)?"""
        if self.exact and m.kind is not Kind.UNLOAD:  # an unload move sends a piece back: not an exchange
            return see(self.pos, m, self.exchange) <= 0
        return self.pos.attacked(m.target, them)

    def _tactical_moves(self, with_gains: bool) -> list:
        """Captures (and, if ``with_gains``, quiet moves gaining QS_GAIN by morph or promotion), each as
        (order key, estimated gain, move), best first.  Pseudo-legal: the caller checks legality."""
        pos = self.pos
        b = pos.board
        pst = self.pst
        order_value = self.order_value
        sign = 1 if pos.turn == 0 else -1
        out = []
        for m in pos.captures(self.et.gainers if with_gains else None):
            frm, to, new = m.origin, m.target, m.piece
            piece = b[frm]
            gain = pst[new][to] - pst[piece][frm]
            cap_sq = pos.capture_square(m)
            if cap_sq is None:
                gain *= sign
                if gain >= QS_GAIN:
                    out.append((gain, gain, m))
                continue
            victim = b[cap_sq]
            gain = sign * (gain - pst[victim][cap_sq])
            out.append((order_value[victim] * 16 - order_value[piece] // 16, gain, m))
        out.sort(key=_FIRST, reverse=True)
        return out


_FIRST = itemgetter(0)


def _keep(cache: dict, h: int, value: int) -> int:
    """Keep ``value`` for the position with hash ``h`` in ``cache`` (cleared at EVAL_CACHE entries); return it."""
    if len(cache) >= EVAL_CACHE:
        cache.clear()
    cache[h] = value
    return value
