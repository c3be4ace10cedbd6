# Check: failed Value.__rsub__
class Value(Value):
    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):  # other - self, written the other way round
        return self - other
