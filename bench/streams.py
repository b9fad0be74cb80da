"""Event streams at scale: many spectators of one game, and many games each followed once.

    python bench/streams.py [--streams 1000] [--moves 40]

Runs ``morphchess.web.app:app_from_env`` under uvicorn (one process, SQLite in a temporary
directory) and opens the streams from this process over raw sockets (asyncio).  Case 1: ``--streams``
spectators of one game of ``--moves`` plies; case 2: as many games, one stream each.  Printed per case:
seconds until every stream has its first state, the server's resident memory before and after (and its
growth per stream), and the seconds from a move's answer until every stream of the moved game has it.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from online_support import Server  # noqa: E402

OPENING = "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d4 exd4 cxd4 Bb4+ Bd2 Bxd2+ Nbxd2 d5 exd5 Nxd5 Qb3 Na5".split()


def resident_mb(pid: int) -> float:
    """The resident memory of a process in MB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def follow(port: int, gid: str, ready: asyncio.Event | None, counted: list, moved: dict) -> None:
    """One stream: count it once its first state came, then note when the next move arrives."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 24)
    writer.write(f"GET /api/games/{gid}/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    first = True
    try:
        while True:
            line = await reader.readline()
            if not line:
                return
            if line.startswith(b"event: state") and first:
                first = False
                counted.append(time.perf_counter())
            elif line.startswith(b"event: move") and not first:
                moved.setdefault(gid, []).append(time.perf_counter())
                return
    finally:
        writer.close()


def call(server: Server, *args) -> tuple[int, dict]:
    """A request, tried again once if the connection was dropped (a server busy closing streams)."""
    try:
        return server.call(*args)
    except ConnectionError:
        time.sleep(1)
        return server.call(*args)


def new_game(server: Server, moves: list[str]) -> tuple[str, str]:
    status, g = call(server, "POST", "/api/games", {"white": "human", "black": "human", "moves": moves})
    assert status == 200, g
    return g["id"], g["seat"]["token"]


def play_any(server: Server, gid: str, token: str) -> float:
    """Play the game's first legal move; the time its answer came."""
    status, state = call(server, "GET", f"/api/games/{gid}")
    move = state["legal"][0]["uci"]
    status, _ = call(server, "POST", f"/api/games/{gid}/moves", {"move": move, "ply": state["ply"]}, token)
    assert status == 200
    return time.perf_counter()


async def case(server: Server, games: list[tuple[str, str]], per_game: int) -> dict:
    pid = server.proc.pid
    before = resident_mb(pid)
    counted: list = []
    moved: dict = {}
    start = time.perf_counter()
    tasks = [asyncio.create_task(follow(server.port, gid, None, counted, moved))
             for gid, _t in games for _ in range(per_game)]
    total = len(tasks)
    while len(counted) < total and time.perf_counter() - start < 600:
        await asyncio.sleep(0.05)
    connected = time.perf_counter() - start
    await asyncio.sleep(1)
    during = resident_mb(pid)
    gid, token = games[0]
    answered = await asyncio.to_thread(play_any, server, gid, token)
    while len(moved.get(gid, ())) < per_game and time.perf_counter() - answered < 120:
        await asyncio.sleep(0.01)
    spread = max(moved.get(gid, [answered])) - answered
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"streams": total, "connected_s": connected, "before_mb": before, "during_mb": during,
            "per_stream_kb": (during - before) * 1024 / total, "move_to_all_s": spread,
            "got_move": len(moved.get(gid, ()))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=len(OPENING))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = Server(f"sqlite:///{folder}/g.db").start()
        try:
            one = [new_game(server, OPENING[:args.moves])]
            spectators = asyncio.run(case(server, one, args.streams))
            many = [new_game(server, OPENING[:args.moves]) for _ in range(args.streams)]
            across = asyncio.run(case(server, many, 1))
        finally:
            server.stop()
    for name, r in (("spectators of one game", spectators), ("games, one stream each", across)):
        print(f"{r['streams']} {name}: all connected in {r['connected_s']:.1f} s; server {r['before_mb']:.0f} -> "
              f"{r['during_mb']:.0f} MB ({r['per_stream_kb']:.0f} KB a stream); a move reached its "
              f"{r['got_move']} stream(s) within {r['move_to_all_s']:.2f} s of its answer")


if __name__ == "__main__":
    main()
