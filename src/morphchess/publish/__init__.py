"""The designer's publishing kit: rules pages, pictures and animations made from a definition.

``morphchess page VARIANT --out DIR`` (:func:`page.write_page`), ``morphchess picture``
(:func:`pictures.position_picture`) and ``morphchess gif`` (:mod:`gif`).  Pictures are SVG
text (:mod:`svg`), rendered to PNG by the ``publish`` extra.
"""
