class Value(Value):
    def backward(self):
        def build(node):
            # Nothing remembers the nodes already placed: a node reached twice comes twice.
            return [*(n for child in node._prev for n in build(child)), node]

        self.grad = 1.0
        for node in reversed(build(self)):
            node._backward()
