"""The designer's lab: self-play statistics, piece values and pictures for a variant.

:func:`morphchess.lab.run.run_lab` plays and stores the games (``selfplay``,
``store``, ``distributed``), :func:`morphchess.lab.stats.summarize` turns them
into the report's figures (``values``), ``report`` and ``plots`` write them down,
``compare`` sets two variants side by side and ``cli`` is ``morphchess lab``.
The submodules are imported on use, since the statistics need numpy, scipy and
matplotlib (the ``lab`` extra).
"""
