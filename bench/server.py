"""Load on the online server: many games at once, random legal moves, against one server.

    python bench/server.py --games 20 --moves 40                  # SQLite, one process
    python bench/server.py --db postgresql --workers 2            # a PostgreSQL server started here

Each game is an invite game played by one thread (both seats, moves sent with their ply).  Prints
moves per second, p50/p99 latency of a move, errors (non-2xx answers) and lost moves (acknowledged
moves missing from the stored game afterwards); the last two must be 0.  Before the clock starts,
each variant is played a few times, since a server process builds a variant's tables on first use
(about half a second).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from online_support import Server, start_postgres  # noqa: E402


def play_game(server: Server, seed: int, moves: int, out: dict) -> None:
    """One game of random legal moves; adds latencies, errors and the acknowledged moves to ``out``."""
    rng = random.Random(seed)
    status, g = server.call("POST", "/api/games", {"mode": "invite", "variant": rng.choice(out["variants"])})
    if status != 200:
        out["errors"].append(status)
        return
    status, joined = server.call("POST", f"/api/games/{g['id']}/join", {}, g["invite"]["token"])
    if status != 200:
        out["errors"].append(status)
        return
    tokens, state, played = (g["seat"]["token"], joined["seat"]["token"]), g, []  # the invite is taken
    while len(played) < moves and state["legal"]:
        move = rng.choice(state["legal"])["uci"]
        start = time.perf_counter()
        status, answer = server.call("POST", f"/api/games/{g['id']}/moves", {"move": move, "ply": state["ply"]},
                                     tokens[state["ply"] % 2])
        out["latency"].append(time.perf_counter() - start)
        if status != 200:
            out["errors"].append(status)
            break
        state = answer
        played.append(move)
    out["games"][g["id"]] = played


def warm_up(server: Server, variants: list[str], rounds: int) -> None:
    """Play a move of every variant a few times first: a process builds a variant's tables on first use."""
    for _ in range(rounds):
        for variant in variants:
            g = server.call("POST", "/api/games", {"variant": variant, "black": "human"})[1]
            server.call("POST", f"/api/games/{g['id']}/moves", {"move": g["legal"][0]["uci"], "ply": 0},
                        g["seat"]["token"])


def lost_moves(server: Server, games: dict[str, list[str]]) -> int:
    lost = 0
    for gid, played in games.items():
        stored = [h["uci"] for h in server.call("GET", f"/api/games/{gid}")[1]["history"]]
        lost += sum(1 for a, b in zip(played, stored + [None] * len(played)) if a != b)
    return lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games played at once (default 20)")
    parser.add_argument("--moves", type=int, default=40, help="moves per game at most (default 40)")
    parser.add_argument("--db", default="sqlite", help="sqlite, postgresql (a server started here) or a URL")
    parser.add_argument("--workers", type=int, default=1, help="uvicorn worker processes (default 1)")
    args = parser.parse_args()
    stop_pg = None
    if args.db == "sqlite":
        url = f"sqlite:///{tempfile.mkdtemp(prefix='morphchess-bench-')}/games.db"
    elif args.db == "postgresql":
        url, stop_pg = start_postgres()
    else:
        url = args.db
    server = Server(url, workers=args.workers).start()
    out: dict = {"latency": [], "errors": [], "games": {},
                 "variants": ["chess", "crossroads", "morphomania", "polymorph", "snappy-chess", "morphing-chess"]}
    try:
        warm_up(server, out["variants"], 3 * args.workers)
        threads = [threading.Thread(target=play_game, args=(server, i, args.moves, out)) for i in range(args.games)]
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        seconds = time.perf_counter() - start
        lost = lost_moves(server, out["games"])
    finally:
        server.stop()
        if stop_pg:
            stop_pg()
    lat = sorted(out["latency"])
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
    print(f"{args.db}, {args.workers} worker(s), {args.games} games: {len(lat)} moves in {seconds:.1f} s = "
          f"{len(lat) / seconds:.0f} moves/s; latency p50 {statistics.median(lat) * 1000:.0f} ms, "
          f"p99 {p99 * 1000:.0f} ms; errors {len(out['errors'])}; lost moves {lost}")


if __name__ == "__main__":
    main()
