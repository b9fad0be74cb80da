# Cython declarations for search.py (the compiled engine: setup.py, docs/architecture.md).
# The searcher's per-node state is typed fields, its node, capture search and helpers are C
# calls, and the position's make, unmake, attacked and in_check are called as C functions.

cimport cython
from morphchess.position cimport Position
from morphchess.tables cimport Tables
from morphchess.engine.tt cimport TranspositionTable
from morphchess.engine.evaluate cimport EvalTables
from morphchess.engine.movepick cimport order_key
from morphchess.engine.see cimport see, Exchange

cpdef _keep(dict cache, unsigned long long h, value)

@cython.final
cdef class _Searcher:
    cdef dict __dict__
    cdef public Position pos
    cdef public Tables t
    cdef public TranspositionTable tt
    cdef public EvalTables et
    cdef public object config, stop, node_limit
    cdef public Py_ssize_t nodes, dynamic, mobility, attack, tempo, safe, rfp, razor, fifty, extend_limit
    cdef public Py_ssize_t mated_sign, stalemated_sign
    cdef public bint qtt, lazy, exact, baring, bare_immediate, extinction, succession, kings_only_draw
    cdef public bint win_rules, repetition, root_phase
    cdef public list pst, value, order_value, counts_code, pawnlike, colour, count, heavy
    cdef public Exchange exchange
    cdef public list killers, path
    cdef public dict history

    @cython.locals(pos=Position, b="const int[::1]", pst=list, frm=Py_ssize_t, to=Py_ssize_t, new=Py_ssize_t, d=Py_ssize_t,
                   cap=Py_ssize_t, pfrom=Py_ssize_t, pto=Py_ssize_t, pnew=Py_ssize_t, unloaded=Py_ssize_t)
    cpdef tuple _make(self, m)
    cpdef _unmake(self, Py_ssize_t cap)
    cpdef _tick(self)
    @cython.locals(us=Py_ssize_t, mine=Py_ssize_t, theirs=Py_ssize_t, path=list, h=object, stop=Py_ssize_t,
                   i=Py_ssize_t)
    cpdef object _terminal(self, Py_ssize_t ply)
    cpdef Py_ssize_t _no_moves(self, bint in_check, Py_ssize_t ply)
    cpdef Py_ssize_t _decided(self, Py_ssize_t ply)
    @cython.locals(pos=Position, in_check=bint, pv_node=bint, static=Py_ssize_t, rfp=Py_ssize_t,
                   razor=Py_ssize_t, captures=Py_ssize_t, futile=bint, best=Py_ssize_t)
    cpdef Py_ssize_t _node(self, Py_ssize_t depth, Py_ssize_t alpha, Py_ssize_t beta, Py_ssize_t ply, Py_ssize_t ev,
                           bint null_ok)
    @cython.locals(s=Py_ssize_t, flag=Py_ssize_t)
    cpdef tuple _probe(self, Py_ssize_t depth, Py_ssize_t alpha, Py_ssize_t beta, Py_ssize_t ply, bint pv_node)
    @cython.locals(stored=Py_ssize_t, flag=Py_ssize_t)
    cpdef _store(self, unsigned long long h, Py_ssize_t depth, Py_ssize_t best, best_move, Py_ssize_t alpha,
                 Py_ssize_t beta, Py_ssize_t ply)
    @cython.locals(pos=Position, us=Py_ssize_t, r=Py_ssize_t, score=Py_ssize_t)
    cpdef object _null_move(self, Py_ssize_t depth, Py_ssize_t beta, Py_ssize_t ply, Py_ssize_t ev)
    @cython.locals(pos=Position, pv_node=bint, best=Py_ssize_t, b="const int[::1]", type_of=list, killers=list,
                   lmp=Py_ssize_t, late=Py_ssize_t, prune_depth=Py_ssize_t, quiets=Py_ssize_t, morphs=bint,
                   pst=list, sign=Py_ssize_t, i=Py_ssize_t, quiet=bint, d_ev=Py_ssize_t, cap=Py_ssize_t,
                   score=Py_ssize_t, reduce=Py_ssize_t)
    cpdef tuple _move_loop(self, moves, Py_ssize_t depth, Py_ssize_t alpha, Py_ssize_t beta, Py_ssize_t ply,
                           Py_ssize_t ev, bint in_check, bint futile)
    @cython.locals(pos=Position, us=Py_ssize_t, mine=Py_ssize_t, theirs=Py_ssize_t, stand=Py_ssize_t,
                   low=Py_ssize_t, cands=list, them=Py_ssize_t, value=list, gain=Py_ssize_t, d_ev=Py_ssize_t,
                   cap=Py_ssize_t, ok=bint, score=Py_ssize_t)
    cpdef Py_ssize_t _quiesce(self, Py_ssize_t alpha, Py_ssize_t beta, Py_ssize_t ply, Py_ssize_t ev,
                              Py_ssize_t qply)
    cpdef Py_ssize_t _static(self, Py_ssize_t ev)
    cpdef object _terms(self, const int[::1] board)
    cpdef object _morph_gain(self)
    cpdef bint _exchange_loses(self, m, bint quiet, Py_ssize_t depth)
    cpdef bint _loses(self, m, Py_ssize_t them)
    @cython.locals(pos=Position, b="const int[::1]", pst=list, order_value=list, sign=Py_ssize_t, out=list,
                   frm=Py_ssize_t, to=Py_ssize_t, new=Py_ssize_t, piece=Py_ssize_t, gain=Py_ssize_t,
                   victim=Py_ssize_t)
    cpdef list _tactical_moves(self, bint with_gains)
