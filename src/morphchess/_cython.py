"""The names of Cython's pure-Python mode that the core uses, for the pure-Python path without Cython."""

compiled = False
Py_ssize_t = int
ulonglong = int


def locals(**types):
    """``@cython.locals(...)``: types for the compiler, nothing when the source runs."""
    return lambda function: function


def declare(kind, value=None):
    """``cython.declare(type, value)``: a typed local for the compiler; the value when the source runs."""
    return value


def cast(kind, value):
    """``cython.cast(type, value)``: the value seen as that type by the compiler; itself when the source runs."""
    return value
