"""A Griffe extension for the API reference: the package's docstrings are reStructuredText in
python-chess's style (``:class:`~morphchess.Board` ``, ````code````), and mkdocstrings renders
them as Markdown. Each role becomes a code span of its target (the last dotted part with ``~``),
and double backticks single ones, so the reference shows names instead of markup."""

import re

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|data|attr|mod|exc|obj|const):`(~?)([^`]+)`")
LITERAL = re.compile(r"``([^`]+)``")


def _name(match: re.Match) -> str:
    target = match.group(2).lstrip(".")
    return f"`{target.rsplit('.', 1)[-1] if match.group(1) else target}`"


def markdown(text: str) -> str:
    """``text`` with its reST roles and literals written as Markdown code spans."""
    return LITERAL.sub(r"`\1`", ROLE.sub(_name, text))


class RstToMarkdown(griffe.Extension):
    """Rewrites every docstring as it is loaded."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: object) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
