"""Time and memory of the web server's bounded requests, each at its limit (figures for docs/security.md).

    python bench/web_budgets.py [--engine-seconds S]

Each case runs in a fresh process (the app on a new SQLite file, its built-in variants loaded), so
that the memory figure is that request's own: the growth of the process's peak resident size while
it is answered.  Printed per case: the answer's status, wall seconds and peak growth in MB; then
another client's latency with and without ten engine games thinking on the heavy definition.  Refused
cases show how soon a request over a limit is turned away; the others are the most a client can ask
within the limits (a 16x16 paste of many riders, 2000 moves, a level-8 engine search, ...).
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import tempfile
import time

# a 16x16 board, 16 piece types of long riders and compounds, the two first ranks full
_TYPES = ["QNN", "BNN", "RNN", "QN", "BN", "RN", "Q", "NN", "B", "R", "N", "FAD", "WDH", "KAD", "BW", "RF"]
HEAVY = "files=16 ranks=16 promoZone=0\n" + "\n".join(
    f"p{i}:{chr(66 + i) if chr(66 + i) != 'K' else 'Z'}:{betza}:p{i}:{chr(97 + i)}1,{chr(97 + i)}2"
    for i, betza in enumerate(_TYPES[:15])) + "\nking:K:K:king:p1"
ENDLESS = "files=8 ranks=8 fiftyMoves=0 repetitions=0\nking:K:K:king:e1\nknight:N:N:knight:g1"
SHUFFLE = ["g1f3", "g8f6", "f3g1", "f6g8"] * 500  # 2000 moves that never end the game


def _cases(engine_seconds: float) -> dict[str, tuple[str, str, dict | None]]:
    return {
        "paste at 64 KiB (comments) -> 200": ("POST", "/api/variants",
                                              {"definition": ENDLESS + "\n" + "#" * (64 * 1024 - 200)}),
        "paste over 64 KiB -> 422": ("POST", "/api/variants", {"definition": "#" * (64 * 1024 + 1)}),
        "paste 16x16, 15 rider types x 2 ranks": ("POST", "/api/variants", {"definition": HEAVY}),
        "new game on it (compile + first moves)": ("POST", "/api/games", {"definition": HEAVY, "black": "human"}),
        "new game with 2000 moves": ("POST", "/api/games", {"definition": ENDLESS, "moves": SHUFFLE[:1999],
                                                             "black": "human"}),
        "import of 1999 plies": ("POST", "/api/import", {"text": " ".join(SHUFFLE[:1999]), "format": "coord",
                                                         "definition": ENDLESS}),
        "import of 20000 plies -> 422": ("POST", "/api/import", {"text": " ".join(SHUFFLE * 10)}),
        f"engine level 8 on 16x16, capped at {engine_seconds:g} s": ("ENGINE", "", None),
        "state of a 1999-ply game": ("STATE", "", None),
    }


def _run(case: tuple[str, str, dict | None], engine_seconds: float, out) -> None:
    from fastapi.testclient import TestClient

    from morphchess.web import create_app
    from morphchess.web.limits import Limits
    method, path, body = case
    limits = Limits.every_rate(10**6)
    limits = Limits(**{**{f: getattr(limits, f) for f in limits.__dataclass_fields__},
                       "engine_seconds": engine_seconds})
    with tempfile.TemporaryDirectory() as folder, TestClient(create_app(f"sqlite:///{folder}/g.db", limits)) as c:
        c.get("/api/variants")
        if method == "ENGINE":
            g = c.post("/api/games", json={"definition": HEAVY, "black": "human"}).json()
            method, path, body = "POST", f"/api/games/{g['id']}/engine", {"level": 8, "wait": True}
            headers = {"Authorization": f"Bearer {g['seat']['token']}"}
        elif method == "STATE":
            g = c.post("/api/games", json={"definition": ENDLESS, "moves": SHUFFLE[:1999], "black": "human"}).json()
            method, path, body, headers = "GET", f"/api/games/{g['id']}", None, {}
        else:
            headers = {}
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start = time.perf_counter()
        r = c.request(method, path, json=body, headers=headers)
        seconds = time.perf_counter() - start
        grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
        out.put((r.status_code, seconds, grown, len(r.content)))


def _latency(engines: int, limits_games: int, out) -> None:
    """Median and 90th percentile of another client's GET while ``engines`` engine-vs-engine games of
    the heavy 16x16 definition think at level 3 (the server running ``limits_games`` searches at once)."""
    import statistics

    from fastapi.testclient import TestClient

    from morphchess.web import create_app
    from morphchess.web.limits import Limits
    limits = Limits.every_rate(10**6)
    limits = Limits(**{**{f: getattr(limits, f) for f in limits.__dataclass_fields__},
                       "engine_games": limits_games})
    with tempfile.TemporaryDirectory() as folder, TestClient(create_app(f"sqlite:///{folder}/g.db", limits)) as c:
        mine = c.post("/api/games", json={"black": "human"}).json()["id"]
        for _ in range(engines):
            c.post("/api/games", json={"definition": HEAVY, "white": "engine", "black": "engine", "level": 3})
        time.sleep(2 if engines else 0)
        times = []
        for _ in range(60):
            start = time.perf_counter()
            c.get(f"/api/games/{mine}")
            times.append(time.perf_counter() - start)
            time.sleep(0.05)
        times.sort()
        out.put((statistics.median(times) * 1000, times[int(len(times) * 0.9)] * 1000))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine-seconds", type=float, default=10.0, help="the server's engine cap (default 10)")
    args = parser.parse_args()
    ctx = multiprocessing.get_context("spawn")
    print(f"{'request':52} {'status':>6} {'seconds':>8} {'peak MB':>8} {'answer KB':>9}")
    for name, case in _cases(args.engine_seconds).items():
        out = ctx.Queue()
        child = ctx.Process(target=_run, args=(case, args.engine_seconds, out))
        child.start()
        status, seconds, grown, size = out.get(timeout=600)
        child.join()
        print(f"{name:52} {status:>6} {seconds:>8.2f} {grown:>8.1f} {size / 1024:>9.1f}", flush=True)
    print(f"\n{'another client GET /api/games/ID while':52} {'p50 ms':>8} {'p90 ms':>8}")
    for engines in (0, 10):
        out = ctx.Queue()
        child = ctx.Process(target=_latency, args=(engines, 2, out))
        child.start()
        p50, p90 = out.get(timeout=600)
        child.join()
        print(f"{f'{engines} engine games think (2 searches at once)':52} {p50:>8.0f} {p90:>8.0f}", flush=True)


if __name__ == "__main__":
    main()
