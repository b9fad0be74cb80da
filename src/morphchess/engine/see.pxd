# Cython declarations for see.py (the compiled engine: setup.py, docs/architecture.md).
# The exchange values, landings and attack lists are typed views of arrays, read as C integers.

cimport cython
from morphchess.position cimport Position

@cython.final
cdef class Exchange:
    cdef public const int[::1] value, landing, start, lists
    cdef public const unsigned char[::1] members
    cdef public Py_ssize_t size, ncodes

    @cython.locals(lists="const int[::1]", value="const int[::1]", members="const unsigned char[::1]",
                   ncodes=Py_ssize_t, best=Py_ssize_t, best_value=Py_ssize_t, i=Py_ssize_t, end=Py_ssize_t,
                   p=Py_ssize_t, _ray=Py_ssize_t, _leap=Py_ssize_t)
    cpdef Py_ssize_t least_attacker(self, const int[::1] b, Py_ssize_t colour, Py_ssize_t sq) except? -2

@cython.locals(j=Py_ssize_t)
cpdef bint _empty(const int[::1] b, const int[::1] lists, Py_ssize_t i, Py_ssize_t n)

@cython.locals(codes=tuple, best=Py_ssize_t, c=Py_ssize_t)
cpdef Py_ssize_t _landing(t, Py_ssize_t p, Py_ssize_t to, const int[::1] value) except? -1

@cython.locals(value="const int[::1]", landing="const int[::1]", b="int[::1]", to=Py_ssize_t, on=Py_ssize_t,
               side=Py_ssize_t, src=Py_ssize_t, p=Py_ssize_t, new=Py_ssize_t, gains=list, d=Py_ssize_t)
cpdef Py_ssize_t see(Position pos, m, Exchange ex) except? -100000000
