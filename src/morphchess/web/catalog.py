"""The variants a server plays: built-in ones by name, pasted definitions stored once by hash.

Compiled variants are kept in a bounded cache (a pasted definition costs
megabytes once compiled); the definition text itself lives in the database.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict

from sqlalchemy import select

from ..betza import BetzaError
from ..loader import load
from ..variant import Variant, VariantError
from ..variants import builtin, names
from .db import Database, definitions, now
from .errors import BadInput, NotFound

__all__ = ["Catalog", "describe", "MAX_DEFINITION", "MAX_SIDE"]

MAX_DEFINITION = 64 * 1024  # characters of definition text
MAX_SIDE = 16  # files and ranks
CACHE_SIZE = 16  # compiled pasted definitions kept in memory
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
    return {"title": title.strip()[:80], "author": head["author"].strip() if head and head["author"] else None,
            "description": (rest[0].upper() + rest[1:] + ".")[:200] if usable else summary}


def _piece_title(v: Variant) -> str:
    """A name for a definition without a title: its board and first pieces."""
    first = ", ".join(t.name for t in v.types[:3]) + (", ..." if len(v.types) > 3 else "")
    return f"{v.files}x{v.ranks}: {first}"


class Catalog:
    """Variants by key: built-in names, and ``def-...`` keys of definitions in the database."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._builtin = {n: builtin(n) for n in names()}
        self._cache: OrderedDict[str, Variant] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> Variant:
        if key in self._builtin:
            return self._builtin[key]
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        with self.db.read() as conn:
            row = conn.execute(select(definitions.c.text, definitions.c.title)
                               .where(definitions.c.key == key)).first()
        if row is None:
            raise NotFound(f"unknown variant {key[:40]!r}; built-in variants: {', '.join(names())}")
        return self._remember(key, _compile(row.text, row.title))

    def _remember(self, key: str, v: Variant) -> Variant:
        with self._lock:
            self._cache[key] = v
            self._cache.move_to_end(key)
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        return v

    def add(self, text: str) -> str:
        """Store definition text (once: its key comes from its hash) and return its key."""
        if len(text) > MAX_DEFINITION:
            raise BadInput(f"definition: {len(text)} characters; at most {MAX_DEFINITION}")
        digest = hashlib.sha256(text.encode()).hexdigest()
        key = "def-" + digest[:16]
        with self.db.read() as conn:
            known = conn.execute(select(definitions.c.key).where(definitions.c.key == key)).first()
        if known:
            return key
        about = describe(_compile(text, None))
        v = _compile(text, about["title"])  # compiled again under its title (a variant is frozen)
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


def _compile(text: str, title: str | None) -> Variant:
    try:
        v = load(text, title or "custom")
    except (VariantError, BetzaError) as e:
        raise BadInput(f"definition: {str(e)[:300]}") from None
    if v.files > MAX_SIDE or v.ranks > MAX_SIDE:
        raise BadInput(f"definition: a {v.files}x{v.ranks} board; at most {MAX_SIDE}x{MAX_SIDE}")
    return v
