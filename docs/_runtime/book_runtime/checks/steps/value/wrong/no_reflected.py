# Mistake: No __radd__ or __rmul__
# In: Value.__radd__, Value.__rmul__
# Why: For `2 * a` Python asks int's __mul__ first, which does not know your Value, and then
#   Value.__rmul__: without it, a plain number on the left is a TypeError.


class Value(Value):
    # None is how a class says it has no such method: a number on the left is a TypeError.
    __radd__ = None
    __rmul__ = None
