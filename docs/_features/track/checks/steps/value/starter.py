class Value:
    """A number that remembers how it was made."""

    def __init__(self, data, _children=(), _op=""):
        # Keep the number (data), the Values it was made from (_prev) and the
        # name of the operation that made it (_op: "+", "*", or "" for a number you typed).
        raise NotImplementedError("store data, _prev and _op")

    def __add__(self, other):
        # self + other: a new Value, made from self and other by "+".
        raise NotImplementedError("self + other as a new Value")

    def __mul__(self, other):
        # self * other: a new Value, made from self and other by "*".
        raise NotImplementedError("self * other as a new Value")

    def __repr__(self):
        return f"Value(data={self.data})"
