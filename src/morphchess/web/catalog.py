"""The variants a server plays: built-in ones by name, pasted definitions stored once by hash.

Compiled variants are kept in a cache bounded in entries and in bytes (a pasted
definition's move tables cost up to hundreds of megabytes once the engine has
walked them: its :mod:`~morphchess.web.cost` says how many); the definition text
itself lives in the database.  A definition is compiled, and its cost estimated,
within a budget (:func:`~morphchess.web.limits.within`) before it is stored, and
one refused is remembered and refused again at once.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict

from sqlalchemy import select

from ..loader import load
from ..variant import Variant
from ..variants import builtin, names
from .caches import MB, ByteLRU
from .cost import cost_of
from .db import Database, definitions, now
from .errors import BadInput, NotFound
from .limits import COMPILE_SECONDS, MAX_DEFINITION, MAX_SIDE, within

__all__ = ["Catalog", "describe", "check_size", "MAX_SETUP_NAME"]

REFUSED_KEPT = 256  # refused definitions remembered (by hash) and refused again without compiling
MAX_SETUP_NAME = 200  # characters of a setup's name
MAX_AUTHOR = 200  # characters of an author line; a longer one is cut (it is only shown)
# "# Crossroads (9x9) by Gerd Degens. More words." -> title, size, author, the rest
_HEADLINE = re.compile(r"#\s*(?P<title>[^(:.,]*[^(:.,\s])(?:\s*\((?P<size>[^)]*)\))?(?:\s+by\s+(?P<author>[^.:,]+))?"
                       r"\s*[.:,]?\s*(?P<rest>.*)")


def _headline(text: str) -> str:
    """The comment lines that open a definition, as one line."""
    words = []
    for line in text.lstrip().splitlines():
        if not line.strip().startswith("#"):
            break
        words.append(line.strip().lstrip("#").strip())
    return "# " + " ".join(words) if words else ""


def describe(v: Variant, text: str | None = None) -> dict:
    """A variant's title, author and one-line description, from its definition where it says them."""
    text = v.text if text is None else text
    head = _HEADLINE.match(_headline(text))
    title = v.params.get("title") or v.params.get("name") or (head["title"] if head else None) or _piece_title(v)
    rest = head["rest"].split(". ")[0].rstrip(".") if head else ""
    usable = rest and not rest.lower().startswith("the definition")
    summary = f"{v.files}x{v.ranks}, {len(v.types)} piece types"
    author = head["author"].strip() if head and head["author"] else None
    if author is not None and len(author) > MAX_AUTHOR:
        author = author[:MAX_AUTHOR - 1] + "…"
    return {"title": title.strip()[:80], "author": author,
            "description": (rest[0].upper() + rest[1:] + ".")[:200] if usable else summary}


def _piece_title(v: Variant) -> str:
    """A name for a definition without a title: its board and first pieces."""
    first = ", ".join(t.name for t in v.types[:3]) + (", ..." if len(v.types) > 3 else "")
    return f"{v.files}x{v.ranks}: {first}"


class Catalog:
    """Variants by key: built-in names, and ``def-...`` keys of definitions in the database."""

    def __init__(self, db: Database, cached: int = 16, max_bytes: int = 256 * MB) -> None:
        self.db = db
        self.cached = cached  # compiled pasted definitions kept in memory, at most
        self._builtin = {n: builtin(n) for n in names()}
        self._cache: ByteLRU[str, Variant] = ByteLRU(max_bytes, cached)  # compiled pasted definitions
        self._refused: OrderedDict[str, str] = OrderedDict()  # SHA-256 of a text -> why it was refused
        self._lock = threading.Lock()

    def get(self, key: str) -> Variant:
        if key in self._builtin:
            return self._builtin[key]
        known = self._cache.get(key)
        if known is not None:
            return known
        with self.db.read() as conn:
            row = conn.execute(select(definitions.c.text, definitions.c.title)
                               .where(definitions.c.key == key)).first()
        if row is None:
            raise NotFound(f"unknown variant {key[:40]!r}; built-in variants: {', '.join(names())}")
        return self._remember(key, self.compile(row.text, row.title))

    def _remember(self, key: str, v: Variant) -> Variant:
        self._cache.put(key, v, cost_of(v).table_bytes)
        return v

    def kept(self) -> list[str]:
        """The keys of the compiled definitions kept, least recently used first."""
        return self._cache.keys()

    def compile(self, text: str, title: str | None) -> Variant:
        """Compile definition text within the budget; BadInput (and remembered) if it cannot be."""
        check_size(text)
        digest = hashlib.sha256(text.encode()).hexdigest()
        with self._lock:
            refused = self._refused.get(digest)
        if refused is not None:
            raise BadInput(refused)
        try:
            return within(COMPILE_SECONDS, _compile, text, title)
        except BadInput as e:
            with self._lock:
                self._refused[digest] = str(e)
                while len(self._refused) > REFUSED_KEPT:
                    self._refused.popitem(last=False)
            raise

    def add(self, text: str) -> str:
        """Store definition text (once: its key comes from its hash) and return its key."""
        check_size(text)
        digest = hashlib.sha256(text.encode()).hexdigest()
        key = "def-" + digest[:16]
        with self.db.read() as conn:
            known = conn.execute(select(definitions.c.key).where(definitions.c.key == key)).first()
        if known:
            return key
        about = describe(self.compile(text, None))
        v = self.compile(text, about["title"])  # compiled again under its title (a variant is frozen)
        with self.db.write() as conn:
            if not conn.execute(select(definitions.c.key).where(definitions.c.key == key)).first():
                conn.execute(definitions.insert().values(key=key, sha256=digest, text=text, files=v.files,
                                                         ranks=v.ranks, created=now(), **about))
        self._remember(key, v)
        return key

    def key_of(self, v: Variant) -> str:
        """The key of a variant read from a record: its built-in name, else its stored definition."""
        if v.name in self._builtin and self._builtin[v.name].text == v.text:
            return v.name
        return self.add(v.text)

    def builtin_keys(self) -> list[str]:
        return list(self._builtin)

    def pasted(self, limit: int = 50) -> list[dict]:
        """The most recent pasted definitions: key, title, author, description, files, ranks."""
        cols = definitions.c
        with self.db.read() as conn:
            rows = conn.execute(select(cols.key, cols.title, cols.author, cols.description, cols.files, cols.ranks)
                                .order_by(cols.created.desc()).limit(limit)).mappings().all()
        return [dict(r) for r in rows]

    def titles(self, keys: set[str]) -> dict[str, str]:
        """The titles of variants by key (the lobby's lists)."""
        out = {k: describe(self._builtin[k])["title"] for k in keys if k in self._builtin}
        pasted = keys - set(out)
        if pasted:
            with self.db.read() as conn:
                rows = conn.execute(select(definitions.c.key, definitions.c.title)
                                    .where(definitions.c.key.in_(pasted))).all()
            out.update({r.key: r.title for r in rows})
        return out


def check_size(text: str) -> None:
    """Refuse definition text over the size limit (before any work on it)."""
    if len(text) > MAX_DEFINITION:
        raise BadInput(f"definition: {len(text)} characters; at most {MAX_DEFINITION}")


def _compile(text: str, title: str | None) -> Variant:
    try:
        v = load(text, title or "custom")
    except (ValueError, OverflowError, RecursionError, MemoryError) as e:  # InputError is a ValueError
        raise BadInput(f"definition: {str(e)[:300] or type(e).__name__}") from None
    if v.files > MAX_SIDE or v.ranks > MAX_SIDE:
        raise BadInput(f"definition: a {v.files}x{v.ranks} board; at most {MAX_SIDE}x{MAX_SIDE}")
    long = next((name for name in v.setups if len(name) > MAX_SETUP_NAME), None)
    if long is not None:
        raise BadInput(f"definition: setup name {long[:40]!r}...: over {MAX_SETUP_NAME} characters")
    cost_of(v)  # estimated within the budget: a definition too slow to estimate is refused
    return v
