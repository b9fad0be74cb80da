"""An animated GIF of a game: one frame per position, the last move shown by an arrow.

Each frame is the SVG of :func:`~morphchess.publish.pictures.position_picture`
rendered to PNG (:func:`~morphchess.publish.svg.png`) and put together by Pillow.
"""

from __future__ import annotations

import io

from ..board import Board
from ..errors import OptionError
from .pictures import position_picture
from .svg import MissingExtra, png

__all__ = ["game_frames", "write_gif", "MAX_FRAMES"]

MAX_FRAMES = 1000  # a GIF of a longer game is refused (about 25 MB of frames)


def game_frames(board: Board) -> list[str]:
    """The SVG of every position of the game on ``board``, from its start, the last move marked."""
    if len(board.move_stack) + 1 > MAX_FRAMES:
        raise OptionError(f"the game has {len(board.move_stack)} plies; a GIF holds at most {MAX_FRAMES - 1}")
    replay, frames = board.root(), []
    v = board.variant
    frames.append(position_picture(v, replay.position.board, "start", uid="f").svg())
    for n, move in enumerate(board.move_stack, 1):
        replay.push(move)
        arrow = [] if move.from_square == move.to_square else [(move.from_square, move.to_square)]
        frames.append(position_picture(v, replay.position.board, f"ply {n}: {move.uci()}", arrows=arrow,
                                       highlights=[move.to_square], uid="f").svg())
    return frames


def write_gif(board: Board, delay_ms: int = 800) -> bytes:
    """The game on ``board`` as an animated GIF (the last frame held 3 times as long)."""
    if not 20 <= delay_ms <= 60000:
        raise OptionError(f"--delay {delay_ms}: give 20 to 60000 milliseconds")
    try:
        from PIL import Image
    except ImportError:
        raise MissingExtra("GIFs need Pillow: pip install 'morphchess[publish]'") from None
    images = [Image.open(io.BytesIO(png(svg))).convert("RGB") for svg in game_frames(board)]
    durations = [delay_ms] * (len(images) - 1) + [delay_ms * 3]
    out = io.BytesIO()
    images[0].save(out, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0)
    return out.getvalue()
