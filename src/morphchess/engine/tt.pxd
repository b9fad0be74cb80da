# Cython declarations for tt.py (the compiled engine: setup.py, docs/architecture.md).

cimport cython

cdef class TranspositionTable:
    cdef public list slots
    cdef public unsigned long long mask
    cdef public Py_ssize_t age
    cdef public dict evals
    cdef public tuple gains

    @cython.locals(i=Py_ssize_t, slots=list)
    cpdef object get(self, unsigned long long h)
    @cython.locals(i=Py_ssize_t, slots=list)
    cpdef put(self, unsigned long long h, Py_ssize_t depth, Py_ssize_t bound, Py_ssize_t score, move)
