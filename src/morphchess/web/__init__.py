"""The web board (``morphchess serve``): a FastAPI app and its page.

Needs the ``web`` extra (``pip install 'morphchess[web]'``); ``import morphchess``
never imports this package.
"""

from .app import create_app

__all__ = ["create_app"]
