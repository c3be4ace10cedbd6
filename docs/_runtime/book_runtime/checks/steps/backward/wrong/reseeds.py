class Value(Value):
    def backward(self):
        # Each Value seeds itself and asks its inputs to do the same.
        self.grad = 1.0
        self._backward()
        for child in self._prev:
            child.backward()
