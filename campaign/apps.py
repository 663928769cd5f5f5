from django.apps import AppConfig


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Campaign"

    def ready(self) -> None:
        from battles.services import BATTLE_FINISHED_HOOKS

        from .engagements import engagement_battle_finished, register_modes

        register_modes()
        if engagement_battle_finished not in BATTLE_FINISHED_HOOKS:
            BATTLE_FINISHED_HOOKS.append(engagement_battle_finished)
