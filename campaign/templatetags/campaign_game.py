"""``{% campaign_game campaign as game %}``: the game its engagements are flown under (issue 25)."""

from typing import Any

from django import template

from campaign.game import game_view, games_listed

register = template.Library()


@register.simple_tag
def campaign_game(campaign: Any) -> dict[str, Any]:
    return game_view(campaign)


@register.simple_tag
def campaign_games() -> list[dict[str, Any]]:
    """The games a new campaign may choose: name and title."""
    return games_listed()
