# Mistake: No {method}
# In: Value.__radd__, Value.__rmul__
# Why: For `2 {op} a` Python asks int's {own} first, which does not know your Value, and then
#   Value.{method}: without it, a plain number on the left is a TypeError.
# Says: No {method}: `{expression}` raised TypeError ({error}). Python asks the number on the left
#   first, and float's {op} knows nothing of your Value; then it asks the Value on the right,
#   through its {method}, which your Value does not have. Add it: `def {method}(self, other): return
#   self {op} other` ({op} commutes).


class Value(Value):
    # None is how a class says it has no such method: a number on the left is a TypeError.
    __radd__ = None
    __rmul__ = None
