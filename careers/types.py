"""What the careers app needs of a campaign, without importing the campaign app
(which sits above it: ``rules <- roster <- careers <- campaign``)."""

from __future__ import annotations

from typing import Any, Protocol

from django.db.models import QuerySet

from roster.models import Squadron

#: A campaign as the ORM takes it: the value of a careers model's key to
#: ``campaign.Campaign`` or of a lookup on it. The django-stubs plugin types those keys
#: as ``campaign.models.Campaign``, which careers may not name (the layers contract),
#: so this is ``Any``; every ``CampaignLike`` is such a campaign at run time.
CampaignModel = Any


class SquadronsManager(Protocol):
    def all(self) -> QuerySet[Squadron]: ...
    def annotate(self, *args: Any, **kwargs: Any) -> QuerySet[Squadron]: ...


class CampaignLike(Protocol):
    """A ``campaign.models.Campaign`` as the career services and selectors read it."""

    pk: Any
    name: str
    seed: int  # the campaign's dice seed: its results and drafts replay from it
    turn: int
    progression_rule: str
    survival_rule: str

    @property
    def squadrons(self) -> SquadronsManager: ...
