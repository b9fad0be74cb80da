"""Load on the online server: many games at once, random legal moves, against one server.

    python bench/server.py --games 20 --moves 40                  # SQLite, one process
    python bench/server.py --db postgresql --workers 2            # a PostgreSQL server started here
    python bench/server.py --db postgresql --workers 2 --games 150 --spectators 300 --analyses 2

Each game is an invite game played by one thread (both seats, moves sent with their ply; a player
writes in the talk every tenth move).  ``--spectators`` event streams (raw sockets) follow the games
in turn and ``--analyses`` threads ask the engine for 1-second evaluations again and again (one
client: the server runs one at a time of it).  Prints moves per second, p50/p99 latency of a move
and of a spectator's GET of a game, the CPU time the server's processes (and a PostgreSQL server
started here) spent a move while the games were played (unlike the latencies, little changed by
other work on the machine), the peak resident memory of the server's processes, answers
5xx and other refusals, and lost moves (acknowledged moves missing from the stored game
afterwards); 5xx and lost moves must be 0.  Before the clock starts, each variant is played a few
times, since a server process builds a variant's tables on first use (about half a second).
"""

from __future__ import annotations

import argparse
import os
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
        if len(played) % 10 == 0:
            status, _ = server.call("POST", f"/api/games/{g['id']}/talk", {"text": f"move {len(played)}"},
                                    tokens[len(played) % 2])
            if status != 200:
                out["errors"].append(status)
    out["games"][g["id"]] = played


def watch(server: Server, out: dict, stop: threading.Event) -> None:
    """A spectator: follow the stream of a game being played (the next one in turn) and GET it now
    and then, until ``stop``."""
    import http.client
    while not stop.is_set():
        games = list(out["games"]) or [None]
        gid = games[len(out["watched"]) % len(games)]
        out["watched"].append(gid)
        if gid is None:
            time.sleep(0.2)
            continue
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        try:
            conn.request("GET", f"/api/games/{gid}/events")
            response = conn.getresponse()
            if response.status >= 500:
                out["errors"].append(response.status)
            end = time.monotonic() + 5
            while time.monotonic() < end and not stop.is_set() and response.fp.readline():
                pass
        except OSError:
            out["dropped"].append(gid)
        finally:
            conn.close()
        start = time.perf_counter()
        try:
            status, _ = server.call("GET", f"/api/games/{gid}")
        except OSError:
            out["dropped"].append(gid)
            continue
        out["reads"].append(time.perf_counter() - start)
        if status != 200:
            out["errors"].append(status)


def analyse(server: Server, out: dict, stop: threading.Event) -> None:
    """Ask for 1-second evaluations of the start position again and again, until ``stop``."""
    import http.client
    while not stop.is_set():
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        try:
            conn.request("POST", "/api/analysis/evaluate", '{"seconds": 1}', {"Content-Type": "application/json"})
            response = conn.getresponse()
            text = response.read()
        finally:
            conn.close()
        done = response.status == 200 and b"event: done" in text
        out["analyses" if done else "errors"].append(response.status)
        if not done:
            time.sleep(0.5)


def peak_memory(pid: int, out: dict, stop: threading.Event) -> None:
    """The largest sum of resident memory of the server and its worker processes, sampled twice a second."""
    while not stop.wait(0.5):
        pids = [pid] + [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        total = 0
        for one in pids:
            try:
                status = Path(f"/proc/{one}/status").read_text()
            except OSError:
                continue
            total += next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:"))
        out["peak_mb"] = max(out.get("peak_mb", 0), total / 1024)


def cpu_seconds(pid: int) -> float:
    """The CPU time of a process and its descendants, those ended included (once their parent has
    waited for them); 0 for a process that has ended."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        children = " ".join(Path(t, "children").read_text() for t in Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return 0.0
    ticks = sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
    return ticks / os.sysconf("SC_CLK_TCK") + sum(cpu_seconds(int(c)) for c in children.split())


def postmaster(url: str) -> int | None:
    """The process id of the PostgreSQL server started here for ``url`` (found by its port)."""
    port = f" -p {url.rsplit(':', 1)[1].split('/')[0]} "
    for path in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            text = path.read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text.split(" ")[0].endswith("bin/postgres") and port in text:
            return int(path.parent.name)
    return None


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
    parser.add_argument("--spectators", type=int, default=0, help="event streams following the games")
    parser.add_argument("--analyses", type=int, default=0, help="threads asking for evaluations")
    args = parser.parse_args()
    stop_pg = None
    if args.db == "sqlite":
        url = f"sqlite:///{tempfile.mkdtemp(prefix='morphchess-bench-')}/games.db"
    elif args.db == "postgresql":
        url, stop_pg = start_postgres()
    else:
        url = args.db
    server = Server(url, workers=args.workers).start()
    out: dict = {"latency": [], "errors": [], "games": {}, "watched": [], "reads": [], "analyses": [], "dropped": [],
                 "variants": ["chess", "crossroads", "morphomania", "polymorph", "snappy-chess", "morphing-chess"]}
    stop = threading.Event()
    try:
        warm_up(server, out["variants"], 3 * args.workers)
        others = [threading.Thread(target=peak_memory, args=(server.proc.pid, out, stop), daemon=True)]
        others += [threading.Thread(target=watch, args=(server, out, stop), daemon=True)
                   for _ in range(args.spectators)]
        others += [threading.Thread(target=analyse, args=(server, out, stop), daemon=True)
                   for _ in range(args.analyses)]
        for t in others:
            t.start()
        threads = [threading.Thread(target=play_game, args=(server, i, args.moves, out)) for i in range(args.games)]
        pg = postmaster(url) if stop_pg else None
        cpu = [cpu_seconds(server.proc.pid), cpu_seconds(pg) if pg else 0.0]
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        seconds = time.perf_counter() - start
        cpu = [cpu_seconds(server.proc.pid) - cpu[0], cpu_seconds(pg) - cpu[1] if pg else 0.0]
        stop.set()
        lost = lost_moves(server, out["games"])
    finally:
        server.stop()
        if stop_pg:
            stop_pg()
    lat = sorted(out["latency"])
    reads = sorted(out["reads"]) or [float("nan")]
    errors = out["errors"]
    print(f"{args.db}, {args.workers} worker(s), {args.games} games ({2 * args.games} players), "
          f"{args.spectators} spectators, {args.analyses} analysts: {len(lat)} moves in {seconds:.1f} s = "
          f"{len(lat) / seconds:.0f} moves/s; move p50 {statistics.median(lat) * 1000:.0f} ms, "
          f"p99 {percentile(lat, 0.99) * 1000:.0f} ms; spectator GET p50 {statistics.median(reads) * 1000:.0f} ms, "
          f"p99 {percentile(reads, 0.99) * 1000:.0f} ms; CPU a move: server {cpu[0] / len(lat) * 1000:.1f} ms"
          + (f", PostgreSQL {cpu[1] / len(lat) * 1000:.1f} ms" if pg else "") + f"; "
          f"evaluations {len(out['analyses'])}; peak memory "
          f"{out.get('peak_mb', 0):.0f} MB; 5xx {sum(e >= 500 for e in errors)}, refused "
          f"{sorted({e for e in errors if e < 500})} x{sum(e < 500 for e in errors)}; spectators' connections "
          f"dropped {len(out['dropped'])}; lost moves {lost}")


def percentile(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(len(values) * q))]


if __name__ == "__main__":
    main()
