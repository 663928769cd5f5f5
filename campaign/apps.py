from django.apps import AppConfig


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Campaign"

    def ready(self) -> None:
        from battles.services import BATTLE_FINISHED_HOOKS
        from careers.hooks import ORGANISER_CHECKS

        from .engagements import engagement_battle_finished, register_modes
        from .services import is_organiser

        register_modes()
        if engagement_battle_finished not in BATTLE_FINISHED_HOOKS:
            BATTLE_FINISHED_HOOKS.append(engagement_battle_finished)
        # Career writes are open to a campaign's organiser; careers asks through this hook.
        if is_organiser not in ORGANISER_CHECKS:
            ORGANISER_CHECKS.append(is_organiser)
