"""Training the expert's learned card policy (``atout.bots.policy``), outside play time.

``python -m atout.training.generate`` plays deals with the expert and keeps, for each card it
searched, the features of every candidate and the search's mean score for it; ``python -m
atout.training.train`` (the ``[train]`` extra: PyTorch on CPU) fits the policy to them and writes
the weights the package ships.  Both are reproducible from their seeds.
"""
