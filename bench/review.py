"""A game's review at several node budgets: its time against the bare engine on the same positions,
and the moves it marks in a sound game (figures for the review's budget, docs/web.md "Review").

    python bench/review.py [NODES ...]

The game is 20 moves of a Ruy Lopez played by masters: every mark in it is the search's noise.  For
each budget: the review through the server (a test client on a new SQLite file, waiting for the
end), the same positions searched bare with the same nodes (the reference), their ratio, the seconds
a position, and the marked moves with their loss.
"""

from __future__ import annotations

import sys
import tempfile
import time

from fastapi.testclient import TestClient

from morphchess.board import Board
from morphchess.engine import search
from morphchess.engine.tt import TranspositionTable
from morphchess.variants import builtin
from morphchess.web import create_app, review

RUY_LOPEZ = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6", "c3", "O-O",
             "h3", "Nb8", "d4", "Nbd7", "c4", "c6", "cxb5", "axb5", "Nc3", "Bb7", "Bg5", "b4", "Nb1", "h6", "Bh4", "c5",
             "dxe5", "Nxe4", "Bxe7", "Qxe7", "exd6", "Qf6", "Nbd2", "Nxd6"]


def bare(nodes: int) -> float:
    """Seconds to search every position of the game with ``nodes`` nodes, one table throughout."""
    board, tt = Board(builtin("chess")), TranspositionTable(review.TT_SLOTS)
    start = time.perf_counter()
    for san in [*RUY_LOPEZ, None]:
        search(board.position.copy(), nodes=nodes, tt=tt)
        if san:
            board.push_san(san)
    return time.perf_counter() - start


def reviewed(nodes: int) -> tuple[float, list[dict]]:
    """Seconds of the game's review through the server, and its marked plies."""
    review.NODES = nodes
    with tempfile.TemporaryDirectory() as d, TestClient(create_app(f"sqlite:///{d}/g.db", 100000)) as c:
        g = c.post("/api/games", json={"black": "human", "moves": RUY_LOPEZ}).json()
        c.post(f"/api/games/{g['id']}/resign", json={"side": "white"},
               headers={"Authorization": f"Bearer {g['seat']['token']}"})
        start = time.perf_counter()
        c.post(f"/api/games/{g['id']}/review")
        while (r := c.get(f"/api/games/{g['id']}/review").json())["state"] == "running":
            time.sleep(0.02)
        return time.perf_counter() - start, [p for p in r["plies"] if p["mark"]]


def main() -> None:
    for nodes in [int(a) for a in sys.argv[1:]] or [2000, review.NODES, 20000]:
        reference = bare(nodes)
        seconds, marked = reviewed(nodes)
        marks = ", ".join(f"ply {p['ply']} {p['san']}{p['mark']} ({p['loss']})" for p in marked) or "none"
        print(f"{nodes:>6} nodes: review {seconds:6.1f} s, bare {reference:6.1f} s, ratio {seconds / reference:4.2f}, "
              f"{1000 * seconds / (len(RUY_LOPEZ) + 1):4.0f} ms a position; marked: {marks}")


if __name__ == "__main__":
    main()
