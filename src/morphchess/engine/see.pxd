# Cython declarations for see.py (the compiled engine: setup.py, docs/architecture.md).
# The exchange values are a typed view of an int array, read as C integers.

cimport cython
from morphchess.position cimport Position
from morphchess.tables cimport Tables

@cython.locals(best=Py_ssize_t, best_value=Py_ssize_t, p=Py_ssize_t, src=Py_ssize_t, s=Py_ssize_t,
               near=tuple, rays=tuple, lame=tuple, ray=tuple)
cpdef Py_ssize_t _least_attacker(const int[::1] b, tuple att, const int[::1] value) except? -2

@cython.locals(codes=tuple, best=Py_ssize_t, c=Py_ssize_t)
cpdef Py_ssize_t _landing(t, Py_ssize_t p, Py_ssize_t to, const int[::1] value) except? -1

@cython.locals(t=Tables, b="int[::1]", to=Py_ssize_t, on=Py_ssize_t, side=Py_ssize_t, att=list, src=Py_ssize_t, p=Py_ssize_t,
               new=Py_ssize_t, gains=list, d=Py_ssize_t)
cpdef Py_ssize_t see(Position pos, m, const int[::1] value, const int[::1] landing) except? -100000000

cpdef bint _empty(const int[::1] b, squares)
