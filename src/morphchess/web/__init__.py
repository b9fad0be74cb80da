"""The web board (``morphchess serve``): a FastAPI app, its page, and games in a database.

Needs the ``web`` extra (``pip install 'morphchess[web]'``); ``import morphchess``
never imports this package, and importing it loads the web stack only when
:func:`create_app` is used.
"""

from __future__ import annotations

__all__ = ["create_app"]


def __getattr__(name: str):
    if name == "create_app":
        from .app import create_app
        return create_app
    raise AttributeError(name)
