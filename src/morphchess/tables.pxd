# Cython declarations for tables.py (the compiled core: setup.py, docs/architecture.md).
# The tables that Position reads on every move are typed attributes (C struct fields); the
# rest live in the instance dictionary.

cdef class Tables:
    cdef dict __dict__
    cdef public Py_ssize_t files, ranks, size, ncodes
    cdef public list moves, transforms, castle, valid, type_of, att, hand_of
    cdef public signed char[::1] royal, resets, castle_square
    cdef public bint special_make, check_counting, walk_rules, complex_attacks, path_attacks, check_all, succession
    cdef public bint no_checks, ends_early, counter_strike, to_hand, free_castlers, capture_rules, drops_allowed, blast
    cdef public bint wall_or_move
    cdef public str walling
    cdef public set capture_only, from_hand
    cdef public tuple castle_rights
    cdef public dict fischer, partner_of
    cdef public list zob_ep, ep_sources
    cdef public unsigned long long zob_side, zob_strike
