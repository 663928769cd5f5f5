"""Pure rules of pilot careers: quality progression, survival, characteristics,
kill credit and awards.

No Django here: the roster services call these functions with plain values and
a :class:`rules.dice.Dice`, then store what they return. Every
interpretation of the rulebooks is written down in ``docs/rulings.md`` under
"Pilot careers (`roster/`)".
"""

from rules.careers.awards import Award, awards_due
from rules.careers.characteristics import (
    Characteristics,
    CharacteristicsRoll,
    roll_characteristics,
    table_column,
)
from rules.careers.credit import Attack, KillCredit, credit_kill
from rules.careers.progression import (
    RULE_SETS,
    PilotRecord,
    QualityEffects,
    RuleSet,
    force_bonus,
    get_rule_set,
    is_ace,
    kill_credits,
    markers_of_quality,
)
from rules.careers.survival import (
    OUTCOMES,
    SURVIVAL_RULE_SETS,
    TERRITORIES,
    SurvivalOutcome,
    roll_survival,
)

__all__ = [
    "OUTCOMES",
    "RULE_SETS",
    "SURVIVAL_RULE_SETS",
    "TERRITORIES",
    "Attack",
    "Award",
    "Characteristics",
    "CharacteristicsRoll",
    "KillCredit",
    "PilotRecord",
    "QualityEffects",
    "RuleSet",
    "SurvivalOutcome",
    "awards_due",
    "credit_kill",
    "force_bonus",
    "get_rule_set",
    "is_ace",
    "kill_credits",
    "markers_of_quality",
    "roll_characteristics",
    "roll_survival",
    "table_column",
]
