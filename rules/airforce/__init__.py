"""*Air Force* (001): the aircraft data card and its estimates; the engine comes later.

Stands alone: imports neither ``rules.airpirates`` nor ``rules.angels20`` (import-linter)."""
