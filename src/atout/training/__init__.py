"""Training the expert's learned parts (``atout.bots.policy``, ``atout.bots.value``), outside play time.

``python -m atout.training.generate`` plays deals with the expert and keeps, for each card it
searched, the features of every candidate and the search's mean score for it; ``python -m
atout.training.train`` (the ``[train]`` extra: PyTorch on CPU) fits the policy to them and writes
the weights the package ships.  ``python -m atout.training.value_data`` keeps the positions between
two tricks of deals the expert played, seen from each seat, with the deal's result, and ``python -m
atout.training.value_train`` fits the position value to them.  All are reproducible from their seeds.
"""
