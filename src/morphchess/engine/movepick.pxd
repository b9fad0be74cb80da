# Cython declarations for movepick.py (the compiled engine: setup.py, docs/architecture.md).

cimport cython
from morphchess.position cimport Position

@cython.locals(frm=Py_ssize_t, to=Py_ssize_t, new=Py_ssize_t, piece=Py_ssize_t, cap=Py_ssize_t,
               gain=Py_ssize_t)
cpdef Py_ssize_t order_key(Position pos, m, list pst, list order_value, list killers, dict history) except? -100000000

@cython.locals(keyed=list)
cpdef list ordered(Position pos, list moves, list pst, list order_value, list killers, dict history)
