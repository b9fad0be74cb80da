# Cython declarations for position.py (the compiled core: setup.py, docs/architecture.md).

cdef class Undo:
    cdef public object move, piece, taken, ep, halfmove, hash, royals, rights, hands
