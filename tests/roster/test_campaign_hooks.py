"""The one extension point through which the campaign app answers careers and
battles (roster.campaign_hooks): installed once by the campaign app, closed
answers without it."""

from types import SimpleNamespace

from battles.access import may_manage
from campaign.engagements import battle_seed_hidden, engagement_battle_finished
from campaign.services import is_organiser
from careers.hooks import (
    campaign_pilot_needs,
    campaigns_organised_by,
    is_campaign_organiser,
    may_write_row,
    pilots_outside_campaign,
)
from roster import campaign_hooks


def test_the_campaign_app_installs_its_answers_once_started():
    hooks = campaign_hooks.current()
    assert hooks.is_organiser is is_organiser
    assert hooks.battle_finished is engagement_battle_finished
    assert hooks.battle_seed_hidden is battle_seed_hidden


def test_without_the_campaign_app_every_answer_is_closed(monkeypatch):
    monkeypatch.setattr(campaign_hooks, "_installed", campaign_hooks.CLOSED)
    player = SimpleNamespace(is_staff=False, is_superuser=False, is_authenticated=True, pk=7)
    staff = SimpleNamespace(is_staff=True, is_superuser=False)
    campaign = object()
    assert not is_campaign_organiser(campaign, player)
    assert campaigns_organised_by(player) is None
    assert not may_write_row(player, object()) and may_write_row(staff, object())
    assert pilots_outside_campaign(campaign, [1, 2]) == {1, 2}  # no pilot is its own
    assert campaign_pilot_needs(campaign) is None
    battle = SimpleNamespace(requested_by_id=3)
    assert not may_manage(battle, player)  # not its creator, no campaign to organise it


def test_one_answer_changed_keeps_the_others(monkeypatch):
    monkeypatch.setattr(
        campaign_hooks, "_installed", campaign_hooks.with_answer(pilot_needs=lambda c: {4: 2})
    )
    assert campaign_pilot_needs(object()) == {4: 2}
    assert campaign_hooks.current().is_organiser is is_organiser
