"""The rulebooks as pure Python: the ground floor of Angels (no Django import).

- ``rules.dice``: the one seeded, recorded dice source and ``derive_seed``.
- ``rules.angels20``: the *Angels 20* tactical engine (000) and its computer pilots.
- ``rules.cardgame``: the strategic card game (003).
- ``rules.careers``: pilot careers: progression, survival, kill credit, awards.
- ``rules.catalog``: the shipped aircraft data every layer reads.
"""
