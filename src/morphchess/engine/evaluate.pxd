# Cython declarations for evaluate.py (the compiled engine: setup.py, docs/architecture.md).
# The evaluation's tables stay in the instance dictionary; the per-code tables the search reads at
# every node are typed views of arrays, the methods it calls are C calls over typed locals, and
# Position.reach_marks is called as a C function.

cimport cython
from morphchess.position cimport Position

cdef Py_ssize_t PAWN, ROYAL, PIECE, BOUND, GUARDED, NEAR, ATTACK_UNITS  # C constants: compared at every square

cdef class EvalTables:
    cdef dict __dict__
    cdef public object variant, square_eg, white_pairs
    cdef public list pst, value, order_value, counts, pawnlike, gainers, pair_bit
    cdef public list zone, ring, front, pawn_attacks, royal_eg
    cdef public const int[::1] kind, colour, phase_value, square_colour
    cdef public const double[::1] mobility_weight, mobility_unsafe
    cdef public dict pawn_cache, term_values
    cdef public Py_ssize_t phase_start
    cdef public bint unsafe_apart

    @cython.locals(weight="const double[::1]", unsafe="const double[::1]", colour="const int[::1]",
                   kind="const int[::1]", board="const int[::1]", size=Py_ssize_t, marks=tuple, side=Py_ssize_t,
                   mark=list, r=Py_ssize_t, s=Py_ssize_t, sq=Py_ssize_t, p=Py_ssize_t, units=list, attackers=list,
                   score=double, mine=Py_ssize_t, n=Py_ssize_t, tags=Py_ssize_t, bad=Py_ssize_t, worth=double,
                   near=Py_ssize_t)
    cpdef tuple mobility(self, Position pos)
    @cython.locals(kind="const int[::1]", pv="const int[::1]", side_of="const int[::1]", pair_bit=list,
                   size=Py_ssize_t, pawns=bytearray, royals=list, light=object, dark=object, heavy=Py_ssize_t,
                   sq=Py_ssize_t, p=Py_ssize_t, k=Py_ssize_t, phase=double, mg=double, eg=double,
                   attackers=double, shelters=double, colour=Py_ssize_t, sign=Py_ssize_t, near=Py_ssize_t,
                   shelter=Py_ssize_t, both=object, pairs=Py_ssize_t, score=double)
    cpdef object dynamic(self, const int[::1] board, bint root_phase=*)
    @cython.locals(kind="const int[::1]", side_of="const int[::1]", n=Py_ssize_t, s=Py_ssize_t, p=Py_ssize_t)
    cpdef Py_ssize_t _near_pieces(self, const int[::1] board, Py_ssize_t sq, Py_ssize_t them) except -1
    @cython.locals(cached=tuple)
    cpdef tuple _pawn_terms(self, bytes pawns)
    @cython.locals(count=tuple, most_white=list, most_black=list, sq=Py_ssize_t, f=Py_ssize_t, r=Py_ssize_t,
                   top=Py_ssize_t, colour=Py_ssize_t, sign=Py_ssize_t, behind=Py_ssize_t, cnt=list,
                   free=bint, progress=double, back=Py_ssize_t, mark=Py_ssize_t, extra=Py_ssize_t, c=Py_ssize_t, mg=double,
                   eg=double, s_mg=double, s_eg=double, passed_mg=double, passed_eg=double, doubled=double,
                   isolated=double, supported=double)
    cpdef tuple _pawn_structure(self, bytes pawns, Py_ssize_t files, Py_ssize_t ranks)
    @cython.locals(b="const int[::1]", pst=list, sign=Py_ssize_t, best=Py_ssize_t, g=Py_ssize_t)
    cpdef Py_ssize_t morph_gain(self, Position pos, bint safe=*) except? -1
    cpdef object evaluate(self, const int[::1] board)

@cython.locals(out=list, colour=Py_ssize_t)
cpdef list attack_units(list units, list attackers)
cpdef bint _marked(bytes marks, Py_ssize_t sq, Py_ssize_t mark)
@cython.locals(n=Py_ssize_t, x=Py_ssize_t)
cpdef Py_ssize_t _count_marked(tuple squares, bytearray marks, Py_ssize_t mark) except -1
@cython.locals(sq=Py_ssize_t, p=Py_ssize_t)
cpdef object _table_sum(list rows, const int[::1] board)
