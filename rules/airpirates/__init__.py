"""*Air Pirates* (002): the aircraft control card, its estimates, and the engine being built
(``state.AirPiratesBattle``; not yet a registered tactical system: docs/architecture.md).

Stands alone: imports neither ``rules.airforce`` nor ``rules.angels20`` (import-linter)."""
