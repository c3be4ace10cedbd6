# Check: not-yours MLP
import micrograd


class MLP(micrograd.MLP):
    pass
