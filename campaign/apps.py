from django.apps import AppConfig


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Campaign"

    def ready(self) -> None:
        from roster.campaign_hooks import CampaignHooks, install

        from .access import (
            battle_organised_by,
            campaign_pilots,
            campaign_squadrons,
            organised_campaigns,
        )
        from .engagements import battle_seed_hidden, engagement_battle_finished
        from .plane_needs import squadron_pilot_needs
        from .row_access import may_edit
        from .selectors import battle_plane_pilots, plane_crews, squadron_aircraft
        from .services import is_organiser

        # What the apps below ask the campaign app, in one typed extension point
        # (roster.campaign_hooks): careers and battles never import campaign.
        # The card game's engagement modes are the pure game's own (Resolution).
        install(
            CampaignHooks(
                # career writes are open to a campaign's organiser
                is_organiser=is_organiser,
                organised_campaigns=organised_campaigns,
                # an organiser's writes reach only the campaign's own pilots and squadrons
                campaign_pilots=campaign_pilots,
                campaign_squadrons=campaign_squadrons,
                # replacements fill the campaign's planes (issue 24)
                pilot_needs=squadron_pilot_needs,
                # shared roster rows are staff's
                may_edit_row=may_edit,
                # a kill on a card-game plane ("allied-8") names who flew it
                plane_crews=plane_crews,
                # a squadron's aircraft in a campaign are the planes its pilots fly there
                campaign_aircraft=squadron_aircraft,
                # a finished engine battle goes back to its campaign
                battle_finished=engagement_battle_finished,
                # a running campaign's battle seeds are its organiser's
                battle_seed_hidden=battle_seed_hidden,
                # a campaign battle is its organiser's to resolve, ask odds of, retry
                battle_organised_by=battle_organised_by,
                # a battle report names the roster pilots of an engagement's planes
                battle_plane_pilots=battle_plane_pilots,
            )
        )
