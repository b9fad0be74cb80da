"""Games played as Ray tasks (one task per batch of games), locally or on a Ray cluster."""

from __future__ import annotations

from collections.abc import Iterator

from ..errors import OptionError
from .selfplay import LabSettings, play_batch

__all__ = ["play_ray"]


def _ray():
    try:
        import ray
    except ImportError:
        raise OptionError("--ray needs the ray package: pip install 'morphchess[lab]'") from None
    return ray


def play_ray(settings: LabSettings, indices: list[int], address: str, jobs: int = 1) -> Iterator[dict]:
    """Yield the records of games ``indices`` as their batches finish.

    ``address`` is a Ray cluster's address (every node needs morphchess installed)
    or ``local`` to start a local instance with ``jobs`` CPUs; an instance already
    started in this process (``ray.init``) is used as it is.  Batches hold up to
    eight games, fewer when that gives each CPU at least four tasks.
    """
    ray = _ray()
    started = not ray.is_initialized()
    if started:
        try:
            if address == "local":
                ray.init(num_cpus=jobs, include_dashboard=False, logging_level="warning")
            else:
                ray.init(address=address, include_dashboard=False, logging_level="warning")
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise OptionError(f"--ray {address}: cannot connect ({e})") from None
    try:
        task = ray.remote(play_batch)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        batch = max(1, min(8, len(indices) // (4 * cpus)))
        pending = [task.remote(settings, indices[i:i + batch]) for i in range(0, len(indices), batch)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield from ray.get(done[0])
    finally:
        if started:
            ray.shutdown()
