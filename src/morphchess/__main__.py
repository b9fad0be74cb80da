"""``python -m morphchess``: the same as the ``morphchess`` command."""

import sys

from .cli import main

sys.exit(main())
