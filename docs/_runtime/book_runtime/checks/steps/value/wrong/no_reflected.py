class Value(Value):
    # None is how a class says it has no such method: a number on the left is a TypeError.
    __radd__ = None
    __rmul__ = None
