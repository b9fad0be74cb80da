"""Compare morphchess's perft with the Interactive Diagram's (tools/idperft/idperft.js under node).

    python tools/idperft/compare.py --script ID.js DEFINITION DEPTH [--moves "e2e4 e7e5"]

Both sides' root moves are counted by the key the ID harness uses (origin, target and the new
type's ID when the piece changes type; a multi-leg move counts under its first origin and last
target).  Where the counts of a key differ and each side has exactly one move of that key, the
comparison descends into it, down to depth 1, and prints the moves one side has and the other
lacks.  Exit status 0 when the counts agree, 1 when they differ.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

from morphchess import Position, load_variant
from morphchess.notation import move_to_coord, parse_coord

HARNESS = Path(__file__).with_name("idperft.js")


def id_divide(script: str, definition: str, depth: int, moves: list[str]) -> Counter:
    """The ID's divide at ``depth`` after ``moves`` (keys): {key: count}; key '' holds the total."""
    cmd = ["node", str(HARNESS), "--script", script, "--moves", " ".join(moves), "--divide", definition, str(depth)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    if done.returncode:
        raise SystemExit(f"ID harness failed: {done.stderr.strip()}")
    out: Counter = Counter()
    for line in done.stdout.splitlines():
        key, _, n = line.rpartition(": ")
        out[key] += int(n)
    return out


def key_of(text: str) -> str:
    """The ID harness's key of a morphchess coordinate move text (``e4f5,f5e6`` -> ``e4e6``)."""
    squares = re.findall(r"[a-z]\d+", text)
    suffix = re.search(r"[a-z+]*$", text)[0] if text[-1].isalpha() else ""
    return squares[0] + squares[-1] + suffix


def ours(pos: Position, depth: int) -> tuple[Counter, dict[str, list[str]]]:
    counts: Counter = Counter()
    texts: dict[str, list[str]] = {}
    for m in pos.legal_moves():
        text = move_to_coord(pos, m)
        pos.make(m)
        n = pos.perft(depth - 1)
        pos.unmake()
        key = key_of(text)
        counts[key] += n
        counts[""] += n
        texts.setdefault(key, []).append(text)
    return counts, texts


def compare(script: str, definition: str, depth: int, moves: list[str]) -> bool:
    pos = Position(load_variant(definition))
    for key in moves:
        pos.make(parse_coord(pos, key))
    path = list(moves)
    while True:
        theirs = id_divide(script, definition, depth, path)
        mine, texts = ours(pos, depth)
        print(f"after {' '.join(path) or 'the start'}: depth {depth}: ID {theirs['']}, morphchess {mine['']}")
        if theirs == mine:
            return not path[len(moves):]
        keys = sorted(k for k in set(theirs) | set(mine) if k and theirs[k] != mine[k])
        if depth == 1:
            print("  only in the ID:", " ".join(k for k in keys if theirs[k] > mine[k]))
            print("  only in morphchess:", " ".join(k for k in keys if mine[k] > theirs[k]))
            return False
        single = [k for k in keys if len(texts.get(k, [])) == 1 and theirs[k]]
        if not single:
            print("  differing keys:", ", ".join(f"{k} ID {theirs[k]} ours {mine[k]}" for k in keys))
            return False
        key = single[0]
        print(f"  {key}: ID {theirs[key]}, morphchess {mine[key]}; descending")
        pos.make(parse_coord(pos, texts[key][0]))
        path.append(key)
        depth -= 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--script", required=True, help="a copy of the Interactive Diagram's script")
    ap.add_argument("--moves", default="", help="moves (harness keys) played first")
    ap.add_argument("definition")
    ap.add_argument("depth", type=int)
    args = ap.parse_args()
    same = compare(args.script, args.definition, args.depth, args.moves.split())
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
