from django.apps import AppConfig


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Campaign"

    def ready(self) -> None:
        from battles.access import MANAGER_CHECKS
        from battles.selectors import PILOT_REF_NAMERS
        from battles.services import BATTLE_FINISHED_HOOKS, SEED_HIDDEN_CHECKS
        from careers.hooks import (
            CAMPAIGN_PILOT_NEEDS,
            CAMPAIGN_PILOTS,
            CAMPAIGN_SQUADRONS,
            ORGANISED_CAMPAIGNS,
            ORGANISER_CHECKS,
            ROW_WRITE_CHECKS,
        )
        from careers.selectors import PLANE_CREWS

        from .access import (
            battle_organised_by,
            campaign_pilots,
            campaign_squadrons,
            organised_campaigns,
        )
        from .engagements import battle_seed_hidden, engagement_battle_finished
        from .plane_needs import squadron_pilot_needs
        from .row_access import may_edit
        from .selectors import battle_plane_pilots, plane_crews
        from .services import is_organiser

        if engagement_battle_finished not in BATTLE_FINISHED_HOOKS:
            BATTLE_FINISHED_HOOKS.append(engagement_battle_finished)
        # Career writes are open to a campaign's organiser; careers asks through this hook.
        if is_organiser not in ORGANISER_CHECKS:
            ORGANISER_CHECKS.append(is_organiser)
        if organised_campaigns not in ORGANISED_CAMPAIGNS:
            ORGANISED_CAMPAIGNS.append(organised_campaigns)
        # A running campaign's battle seeds are its organiser's; battles asks through this hook.
        if battle_seed_hidden not in SEED_HIDDEN_CHECKS:
            SEED_HIDDEN_CHECKS.append(battle_seed_hidden)
        # An organiser's writes reach only the campaign's own pilots and squadrons,
        # and its battles (resolve, odds, retry); careers and battles ask through these.
        if campaign_pilots not in CAMPAIGN_PILOTS:
            CAMPAIGN_PILOTS.append(campaign_pilots)
        # Replacements fill the campaign's planes (issue 24); careers asks through this hook.
        if squadron_pilot_needs not in CAMPAIGN_PILOT_NEEDS:
            CAMPAIGN_PILOT_NEEDS.append(squadron_pilot_needs)
        if campaign_squadrons not in CAMPAIGN_SQUADRONS:
            CAMPAIGN_SQUADRONS.append(campaign_squadrons)
        # Shared roster rows are staff's; careers asks who may write a row through this hook.
        if may_edit not in ROW_WRITE_CHECKS:
            ROW_WRITE_CHECKS.append(may_edit)
        if battle_organised_by not in MANAGER_CHECKS:
            MANAGER_CHECKS.append(battle_organised_by)
        # A kill on a card-game plane ("allied-8") names who flew it; careers asks through this hook.
        if plane_crews not in PLANE_CREWS:
            PLANE_CREWS.append(plane_crews)
        # A battle report names the roster pilots of a campaign engagement's planes.
        if battle_plane_pilots not in PILOT_REF_NAMERS:
            PILOT_REF_NAMERS.append(battle_plane_pilots)
