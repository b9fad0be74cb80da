"""The publishing kit: move diagrams against legal moves, morph tables against the definitions'
texts, rules pages of the built-ins and of pasted real definitions, pictures, GIFs, and inert markup."""

from __future__ import annotations

import re
import warnings
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from PIL import Image

from morphchess import builtin, variant_names
from morphchess.cli import main
from morphchess.diagrams import centre_square, move_diagram
from morphchess.idiagram import load
from morphchess.move import Kind
from morphchess.pieces import code
from morphchess.position import Position
from morphchess.publish.page import PASTE_TAGS, build_page, write_page
from morphchess.publish.pictures import MARK_WORDS, morph_picture, morph_tables, move_picture
from morphchess.publish.rules import rule_sentences
from morphchess.variant import BLACK, WHITE

DEFINITIONS = Path(__file__).parent / "definitions"
REAL = ["chak.txt", "elven-chess.txt", "metamachy.txt"]  # a hopper, a multi-leg mover, hoppers and paths
SVG = "{http://www.w3.org/2000/svg}"


def real(name: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load((DEFINITIONS / name).read_text(), name)


ALL = [builtin(n) for n in variant_names()] + [real(n) for n in REAL]


def tips(svg_text: str) -> dict[str, str]:
    """The squares of a board picture: square name -> the words of its tooltip."""
    out = {}
    for rect in ET.fromstring(svg_text).iter(f"{SVG}rect"):
        title = rect.find(f"{SVG}title")
        if title is not None and re.match(r"[a-z]\d+", title.text or ""):
            name, _, words = title.text.partition(": ")
            out[name] = words
    return out


def fills(svg_text: str) -> dict[str, str]:
    out = {}
    for rect in ET.fromstring(svg_text).iter(f"{SVG}rect"):
        title = rect.find(f"{SVG}title")
        if title is not None and re.match(r"[a-z]\d+", title.text or ""):
            out[title.text.partition(":")[0]] = rect.get("fill")
    return out


# -- move diagrams: what the picture marks is what a lone piece may legally do -------------------------------
def lone_moves(v, t, black=()):
    """Legal moves of a lone White piece (never moved) on the diagram square, Black pieces on ``black``."""
    board = [0] * v.size
    victim = next(u for u in v.types if not u.royal and u.index not in v.iron)
    for s in black:
        board[s] = code(victim.index, BLACK)
    sq = centre_square(v)
    board[sq] = code(t.index, WHITE, v.tables.tracks_virgin[t.index])
    pos = Position.from_board(v, board)
    return pos, [m for m in pos.legal_moves() if m.origin == sq and m.kind not in (Kind.CASTLE, Kind.TRANSFORM)]


@pytest.mark.parametrize("v", ALL, ids=lambda v: v.name)
def test_move_diagrams_show_the_quiet_moves_and_captures_of_a_lone_piece(v):
    for t in v.types:
        drawn = tips(move_picture(v, t).svg())
        _pos, moves = lone_moves(v, t)
        quiet = {v.square_name(m.target) for m in moves if m.target != centre_square(v)}
        assert quiet == {s for s, w in drawn.items() if "move" in w.split(", ")}, t.name
        for sq in range(v.size):
            if sq == centre_square(v) or sq in v.holes:
                continue
            pos, moves = lone_moves(v, t, (sq,))
            takes = any(pos.capture_square(m) == sq for m in moves)
            assert takes == ("capture" in drawn.get(v.square_name(sq), "").split(", ")), (t.name, sq)


def test_hand_derived_diagrams():
    chess = builtin("chess")
    knight, pawn = chess.type_by_letter("N"), chess.type_by_letter("P")
    assert move_diagram(chess, knight).squares("move") == move_diagram(chess, knight).squares("capture")
    assert sorted(map(chess.square_name, move_diagram(chess, knight).squares("move"))) == sorted(
        ["c4", "c6", "d3", "d7", "f3", "f7", "g4", "g6"])
    d = move_diagram(chess, pawn)
    assert [chess.square_name(s) for s in d.squares("initial")] == ["e7"]  # the double step, from e5
    assert [chess.square_name(s) for s in d.squares("capture")] == ["d6", "f6"]
    cross = builtin("crossroads")
    assert len(move_diagram(cross, cross.type_by_letter("Z")).marks) == 32 + 8  # queen from e5 on 9x9, knight
    chak = real("chak.txt")  # the quetzal pQ: moves and captures only over a hurdle
    hops = move_diagram(chak, chak.type_by_letter("Q"))
    assert set(hops.squares("hop-move")) == set(hops.squares("hop-capture")) == set(hops.marks)
    assert {chak.square_name(s) for s in hops.marks} >= {"e3", "e1", "c3", "a1", "g7", "i9"}
    assert not {"e4", "d4", "f6"} & {chak.square_name(s) for s in hops.marks}  # next to it: nothing to hop
    meta = real("metamachy.txt")  # the cannon mRcpR: moves like a rook, captures only over a hurdle
    cannon = move_diagram(meta, meta.type_by_letter("C"))
    assert set(cannon.squares("move")) - set(cannon.squares("hop-capture")) == {
        meta.square("g6"), meta.square("f7"), meta.square("h7"), meta.square("g8")}  # the four next to g7
    elven = real("elven-chess.txt")  # the warlock's cabK: takes next to it and steps back to its square
    warlock = move_diagram(elven, elven.type_by_letter("W"))
    assert warlock.squares("legs") == [centre_square(elven)]


def test_move_picture_draws_a_legend_of_the_signs_it_uses():
    v = real("chak.txt")
    lines = list(ET.fromstring(move_picture(v, v.type_by_letter("Q")).svg()).itertext())
    assert MARK_WORDS["hop-move"] in lines and MARK_WORDS["hop-capture"] in lines
    assert MARK_WORDS["move"] not in lines and MARK_WORDS["capture"] not in lines


# -- morph tables: the colours are the definition's letters -------------------------------------------------
def written_tables(text: str, files: int, ranks: int) -> list[list[str]]:
    """The morph= tables of a definition text as letters per square (a1 first), read here from the text."""
    out = []
    for value in re.findall(r"morph=(\S+)", text):
        letters = ["."] * (files * ranks)
        for i, seg in enumerate(value.split("/")):
            for f, ch in enumerate(seg):
                letters[(ranks - 1 - i) * files + f] = ch
        out.append(letters)
    return out


@pytest.mark.parametrize("name", ["crossroads", "morphomania", "snappy-chess", "morphing-chess"])
def test_morph_table_colours_are_the_definitions_tables(name):
    v = builtin(name)
    texts = {tuple(t) for t in written_tables(v.text, v.files, v.ranks)}
    drawn = set()
    for n, (table, users) in enumerate(morph_tables(v), 1):
        picture = morph_picture(v, table, users, f"t{n}").svg()
        legend = {}  # colour -> letter, from the legend lines beside their swatches
        root = ET.fromstring(picture)
        swatches = [r.get("fill") for r in root.iter(f"{SVG}rect") if r.get("width") == "16"]
        labels = [t.text for t in root.iter(f"{SVG}text") if t.text and t.text.startswith(("becomes", "keeps"))]
        for colour, label in zip(swatches, labels, strict=True):
            legend[colour] = re.search(r"\((.+)\)$", label)[1] if label.startswith("becomes") else "."
        assert len(set(legend)) == len(legend)  # one colour per type
        colours = fills(picture)
        drawn.add(tuple(legend[colours[v.square_name(sq)]] for sq in range(v.size)))
    assert drawn == texts


# -- rules pages ----------------------------------------------------------------------------------------------
class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, list]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))


def tags_of(html: str) -> list[tuple[str, list]]:
    parser = _Tags()
    parser.feed(html)
    return parser.tags


PNG_FAST = ("crossroads", "chak.txt")  # the PNGs of the other pages are rendered in the slow run only


@pytest.mark.parametrize("v", [v if v.name in PNG_FAST else pytest.param(v, marks=pytest.mark.slow) for v in ALL],
                         ids=lambda v: v.name)
def test_page_of_every_builtin_and_pasted_definition(v, tmp_path):
    written = write_page(v, tmp_path)
    page = build_page(v)
    html = (tmp_path / "rules.html").read_text()
    assert html.count("<svg ") >= len(page.figures) and "<img" not in html
    assert len([f for f in page.figures if f.name.startswith("moves-")]) == len(v.types)
    paste = (tmp_path / "paste.html").read_text()
    for tag, attrs in tags_of(paste):
        assert tag in PASTE_TAGS and all(a in PASTE_TAGS[tag] for a, _ in attrs), (tag, attrs)
    images = [dict(attrs)["src"] for tag, attrs in tags_of(paste) if tag == "img"]
    assert sorted(images) == sorted(f"{f.name}.png" for f in page.figures)
    for f in page.figures:
        root = ET.fromstring((tmp_path / f"{f.name}.svg").read_text())
        with Image.open(tmp_path / f"{f.name}.png") as png:
            assert png.size == (int(root.get("width")), int(root.get("height")))
    assert len(written) == 2 + 2 * len(page.figures)


def test_rules_in_words():
    said = {v.name: dict(rule_sentences(v)) for v in ALL}
    assert "loses" in said["crossroads"]["End of the game"] and "bare" in said["crossroads"]["End of the game"]
    assert said["crossroads"]["En passant"].startswith("There is no en-passant")
    assert "3 squares" in said["crossroads"]["Castling"] and "2 squares" in said["chess"]["Castling"]
    assert "draws" in said["chess"]["End of the game"] and "bare" not in said["chess"]["End of the game"]
    assert "knishop (A)" in said["polymorph"]["Transformation"]
    assert "Morphing" not in said["chess"] and "Morphing" in said["morphomania"]
    assert "warlock (W)" in said["elven-chess.txt"]["Captures"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        limited = load(builtin("chess").text.replace("promoChoice=QRBN", "promoChoice=!Q*RB2N"))
    assert "(queen (Q) not on the last rank; rook (R) only while one is in hand; bishop (B) only within 2 rank(s)" \
        in dict(rule_sentences(limited))["Promotion"]
    shogi = dict(rule_sentences(real("elven-shogi.txt")))
    assert shogi["Promotion"].startswith("Shogi style") and "pawn to dwarf" in shogi["Promotion"]


HOSTILE = """# <script>alert('headline')</script>
files=8 ranks=8 title=<script>alert(1)</script> <img>=1
</title><script>alert(2)</script>:P:ifmnDfmWfceF:pawn:a2-h2 morph=NNNNNNNN///////
"&'<b>x</b>:N:N:knight:b1,g1
<svg><g/onload>:K:KisO2:king:e1
"""


def test_markup_in_a_definition_stays_text(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        v = load(HOSTILE, "<i>hostile</i>")
    assert v.type_by_letter("P").name == "</title><script>alert(2)</script>"
    write_page(v, tmp_path, pngs=False)
    for path in tmp_path.iterdir():
        text = path.read_text()
        assert "<script" not in text.lower() and "<b>x" not in text and "<i>hostile" not in text, path.name
        if path.suffix == ".svg":
            ET.fromstring(text)  # well-formed: every name went in escaped
    pawn_picture = " ".join(ET.fromstring(next(tmp_path.glob("moves-1-*.svg")).read_text()).itertext())
    assert "</title><script>alert(2)</script> (P)" in pawn_picture
    html = (tmp_path / "rules.html").read_text()
    assert "&lt;/title&gt;&lt;script&gt;alert(2)&lt;/script&gt;" in html
    assert {tag for tag, _ in tags_of(html)} <= {"html", "head", "meta", "title", "body", "h1", "svg", *PASTE_TAGS,
                                                "rect", "circle", "line", "polygon", "text", "g", "path", "defs",
                                                "clippath", "br"}


# -- the command line ------------------------------------------------------------------------------------------
def test_picture_command_writes_svg_and_png(tmp_path, capsys):
    out = tmp_path / "x.svg"
    assert main(["picture", "chess", "--moves", "e2e4", "--arrows", "g1f3,e7e5", "--highlight", "e4",
                 "--out", str(out)]) == 0
    svg = out.read_text()
    assert fills(svg)["e4"] == "#f4d03f" and fills(svg)["e5"] != "#f4d03f"
    assert len(ET.fromstring(svg).findall(f"{SVG}polygon")) == 2  # two arrow heads
    assert main(["picture", "crossroads", "--out", str(tmp_path / "x.png")]) == 0
    with Image.open(tmp_path / "x.png") as png:
        assert png.format == "PNG" and png.size[0] > 9 * 40
    svg_out = ["--out", str(tmp_path / "y.svg")]
    for bad in (["--arrows", "e2", *svg_out], ["--highlight", "j9", *svg_out], ["--out", str(tmp_path / "x.jpg")]):
        assert main(["picture", "chess", *bad]) == 2
    assert not (tmp_path / "y.svg").exists()
    err = capsys.readouterr().err
    assert "not an arrow" in err and "off the 8x8 board" in err and ".svg or .png" in err


def test_gif_of_a_game(tmp_path):
    record = tmp_path / "game.txt"
    record.write_text("f2f3 e8e6 e2e4\n")
    out = tmp_path / "game.gif"
    assert main(["gif", str(record), "--variant", "crossroads", "--delay", "300", "--out", str(out)]) == 0
    with Image.open(out) as gif:
        assert gif.format == "GIF" and gif.n_frames == 4 and gif.info["duration"] == 300
        gif.seek(1)  # after f2f3 the pawn is an amazon on f3: a new piece shape, and the arrow
        first = gif.convert("RGB")
        gif.seek(0)
        assert first.tobytes() != gif.convert("RGB").tobytes()
    assert main(["gif", str(record), "--variant", "crossroads", "--delay", "5", "--out", str(out)]) == 2


def test_page_command(tmp_path, capsys):
    assert main(["page", "polymorph", "--out", str(tmp_path), "--no-png"]) == 0
    assert (tmp_path / "transform-1.svg").exists() and not list(tmp_path.glob("*.png"))
    assert len(list(tmp_path.glob("start-*.svg"))) == len(builtin("polymorph").setups)
    assert "rules.html" in capsys.readouterr().out
