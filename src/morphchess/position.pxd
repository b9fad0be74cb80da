# Cython declarations for position.py (the compiled core: setup.py, docs/architecture.md).
# The attributes hold C values where the walker and make/unmake read them on every move, and
# the methods the walker calls on every move are called as C functions.

cimport cython
from morphchess.tables cimport Tables

@cython.freelist(64)
@cython.no_gc
cdef class Undo:
    cdef public object move, taken, ep, royals, rights, hands, blasted
    cdef public Py_ssize_t piece, halfmove
    cdef public unsigned long long hash

@cython.final
cdef class Position:
    cdef public Tables t
    cdef public object variant, ep, royals, rights, hands, checks
    cdef public object board
    cdef public list _stack, _checks_saved
    cdef public Py_ssize_t turn, halfmove, fullmove
    cdef public unsigned long long hash
    cdef const unsigned long long[::1] _zob
    cdef int[::1] _b

    cdef Undo _saved(self, m, Py_ssize_t piece, taken)
    cpdef Py_ssize_t code_at(self, Py_ssize_t sq)
    cpdef castle_key(self)
    cpdef list castling_pieces(self, Py_ssize_t colour)
    cpdef unsigned long long ep_key(self, tuple squares, Py_ssize_t capturer)
    cpdef set _pinned(self, Py_ssize_t us)
    cpdef tuple _legality(self, tuple royals)
    cdef bint _unexposing(self, m, set risky, set onto)
    cpdef _move_royals(self, Py_ssize_t frm, Py_ssize_t to, Py_ssize_t piece, Py_ssize_t new, Py_ssize_t cap,
                       Py_ssize_t us)
    cpdef _castlings(self, Py_ssize_t k, Py_ssize_t king, list out, safe)
    cdef bint _occupied(self, Py_ssize_t start, Py_ssize_t stop, Py_ssize_t step)
    cpdef bint _passage_safe(self, Py_ssize_t k, Py_ssize_t king, Py_ssize_t dest)
    cpdef bint attacked(self, Py_ssize_t sq, Py_ssize_t by)
    @cython.locals(i=Py_ssize_t, s=Py_ssize_t, p=Py_ssize_t, hurdle=Py_ssize_t, rng=Py_ssize_t, after=Py_ssize_t,
                   ray=tuple, specs=tuple)
    cdef bint _hopped(self, Py_ssize_t sq, tuple hops)
    cpdef bint in_check(self)
    cpdef bint checked(self, Py_ssize_t colour)
    cpdef tuple guarded(self, Py_ssize_t colour)
    cpdef list _walk(self, quiet_from)
    @cython.locals(us=Py_ssize_t, to=Py_ssize_t, q=Py_ssize_t, rides=tuple, hops=tuple, paths=tuple, ray=tuple)
    cdef _more(self, Py_ssize_t p, Py_ssize_t sq, tuple more, bint quiet, list out)
    @cython.locals(ray=tuple, rng=Py_ssize_t, after=Py_ssize_t, n=Py_ssize_t, limit=Py_ssize_t, i=Py_ssize_t,
                   to=Py_ssize_t, q=Py_ssize_t)
    cdef _hop(self, tuple hop, Py_ssize_t us, bint quiet, list out)
    cpdef list legal_moves(self)
    cpdef list _legal(self)
    cpdef bint is_safe(self, m)
    @cython.locals(p=Py_ssize_t, mine=Py_ssize_t, q=Py_ssize_t, to=Py_ssize_t, n=Py_ssize_t,
                   total=Py_ssize_t, entry=tuple, leaps=tuple, slides=tuple)
    cpdef tuple reach_marks(self, Py_ssize_t sq, list marks)
    cpdef object capture_square(self, m)
    cpdef bint is_pseudo_legal(self, m)
    @cython.locals(sq=object)
    cpdef Py_ssize_t captured(self, m) except? -1
    cpdef make(self, m)
    cpdef unmake(self)
    cpdef perft(self, Py_ssize_t depth)
