class Value(Value):
    def backward(self):
        """Fill in grad for every Value this one was made from, near or far."""
        # 1. Order the graph: every Value after the Values it was made from.
        #    It must work on a chain of 5,000 links too, deeper than Python lets
        #    a function call itself.
        # 2. Seed: d(self)/d(self) = 1.
        # 3. Run each Value's _backward() once, from self back to the leaves.
        raise NotImplementedError("backward: the order, the seed, the rules")
