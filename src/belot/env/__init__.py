"""Environments for learning agents: the PettingZoo AEC environment `belot_v0`, the observation
encoding (`encoding`) and an OpenSpiel game (`openspiel`).

These modules need the ``belot[env]`` extra (numpy, pettingzoo, gymnasium; ``open_spiel`` for the
pyspiel registration); the rules core never imports them.  Import the submodule you need::

    from belot.env import belot_v0
    env = belot_v0.env(mode="deal", seed=1)
"""
