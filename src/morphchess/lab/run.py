"""Running a lab: the games still missing from the store, in worker processes or Ray tasks."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from functools import partial
from multiprocessing import get_context

from ..errors import OptionError
from .distributed import play_ray
from .selfplay import LabSettings, play_one
from .store import GameStore

__all__ = ["run_lab", "default_out", "play_local"]


def default_out(settings: LabSettings) -> str:
    """``lab-results/NAME-PLAYER-DIGEST``: the same settings find the same store again."""
    return os.path.join("lab-results", f"{settings.name}-{settings.player.replace(':', '')}-{settings.digest()}")


def play_local(settings: LabSettings, indices: list[int], jobs: int) -> Iterator[dict]:
    """Yield the records of games ``indices`` as they finish, ``jobs`` at a time."""
    if jobs == 1:
        for i in indices:
            yield play_one(settings, i)
        return
    # Workers start from a fresh process, never as forks of this one: a fork of a process with other
    # threads (Ray's, a web server's) or its signal handlers can hang on a lock that no thread will free.
    ctx = get_context("spawn" if sys.platform == "win32" else "forkserver")
    with ctx.Pool(jobs) as pool:
        yield from pool.imap_unordered(partial(play_one, settings), indices)


def run_lab(settings: LabSettings, games: int, out: str | None = None, jobs: int = 1, ray: str | None = None,
            progress: Callable[[int, int], Callable[[dict], None]] | None = None) -> list[dict]:
    """Play the games ``0 .. games-1`` not yet in the store at ``out``; return all their records.

    ``progress(total, already_done)`` makes the callback that sees each new record.
    """
    if games < 1:
        raise OptionError("--games must be at least 1")
    if jobs < 1:
        raise OptionError("--jobs must be at least 1")
    store = GameStore(out or default_out(settings), settings)
    stored = {r["index"] for r in store.records(games)}
    todo = [i for i in range(games) if i not in stored]
    if todo:
        show = progress(games, len(stored)) if progress else None
        if ray:
            source = play_ray(settings, todo, ray, jobs)
        else:
            source = play_local(settings, todo, jobs)
        for record in source:
            store.append(record)
            if show:
                show(record)
    return store.records(games)
