"""Career writes: the career log, engagement results, table-mode claims,
replacements, the organiser's acts on pilots, career settings and awards.

Callers import from here (``from careers.services import engagement_apply``);
the modules hold one kind of write each:

- :mod:`.log` -- the career log and enlisting a pilot;
- :mod:`.progress` -- what every write shares: its context, seeds, a pilot's
  progress (quality, experience, ace status, awards);
- :mod:`.results` -- applying an engagement result, exactly once;
- :mod:`.claims` -- table battles and the kill claims the organiser decides;
- :mod:`.turns` -- the turn hook: return to duty and replacements (and taking them back);
- :mod:`.acts` -- the organiser's acts on pilots (add, transfer, retire, revive);
- :mod:`.career_settings` -- a campaign's career settings;
- :mod:`.awards` -- a campaign's awards;
- :mod:`.carry` -- card-mode missions and kills carried to the pilot at once;
- :mod:`.undo` -- taking back what a campaign action's results did.
"""

from .acts import pilot_add, pilot_retire, pilot_revive, pilot_transfer
from .awards import award_define
from .career_settings import career_settings_for, career_settings_update
from .carry import pilot_counts_carry
from .claims import claim_confirm, claim_deny, table_battle_record
from .log import pilot_enlist, pilot_log
from .naming import pilot_rename
from .results import engagement_apply
from .turns import (
    campaign_turn_begin,
    campaign_turn_begin_revert,
    pilots_return_to_duty,
    replacements_draft,
)
from .undo import applied_result_revert, campaign_action_revert

__all__ = [
    "applied_result_revert",
    "award_define",
    "campaign_action_revert",
    "campaign_turn_begin",
    "campaign_turn_begin_revert",
    "career_settings_for",
    "career_settings_update",
    "claim_confirm",
    "claim_deny",
    "engagement_apply",
    "pilot_add",
    "pilot_counts_carry",
    "pilot_enlist",
    "pilot_log",
    "pilot_rename",
    "pilot_retire",
    "pilot_revive",
    "pilot_transfer",
    "pilots_return_to_duty",
    "replacements_draft",
    "table_battle_record",
]
