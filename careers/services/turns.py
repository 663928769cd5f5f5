"""The campaign turn's hook: wounded pilots due back return to duty, then
squadrons below strength draft replacements; and taking both back when the
organiser undoes the action that began the turn."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any, TypedDict, cast

from django.db import IntegrityError, transaction
from django.db.models import Count, Q

from angels.errors import RuleViolation
from angels.numbers import MAX_TURN
from roster.models import Airframe, Pilot, PilotStatus, Squadron
from rules.careers import get_rule_set, roll_characteristics
from rules.dice import Dice

from ..hooks import campaign_pilot_needs
from ..models import AppliedResult, Claim, PilotAward, PilotEvent, PilotEventKind, ResultMode
from ..tallies import tallies_batched
from ..types import CampaignLike, CampaignModel
from .career_settings import career_settings_for
from .log import pilot_enlist, pilot_log
from .progress import _seed_for

if TYPE_CHECKING:
    from django.db.models import QuerySet
    from django_stubs_ext import WithAnnotations

    class _OnStrength(TypedDict):
        on_strength: int


_REPLACEMENT_NAMES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "Germany": (("Hans", "Karl", "Fritz", "Werner", "Heinz", "Kurt", "Otto", "Ernst"),
                ("Becker", "Schulz", "Hoffmann", "Krüger", "Wolf", "Neumann", "Brandt", "Vogel")),
    "United Kingdom": (("John", "Peter", "Colin", "Alan", "Derek", "Ian", "Roy", "Eric"),
                       ("Smith", "Taylor", "Brown", "Wilson", "Hughes", "Wright", "Clarke", "Walker")),
    "Poland": (("Jan", "Stanisław", "Tadeusz", "Marian", "Józef", "Bolesław", "Henryk", "Wacław"),
               ("Nowak", "Kowalski", "Wiśniewski", "Lewandowski", "Kamiński", "Zieliński", "Szymański", "Dąbrowski")),
    "United States": (("Bill", "Jack", "Bob", "Frank", "Joe", "Harry", "Walt", "Eddie"),
                      ("Miller", "Davis", "Anderson", "Jackson", "Harris", "Martin", "Thompson", "Moore")),
}  # fmt: skip
_ANY_NAMES = (("Alex", "Max", "Leo", "Paul"), ("Novak", "Marin", "Berg", "Roux"))


def _replacement_name(nation: str, dice: Dice, taken: Collection[str]) -> str:
    """A drafted pilot's name, never one already in ``taken`` (the squadron's names,
    issue 24): the dice pick a first name and a surname; if that name is taken, the
    next free pairing after it in the nation's lists (in order, wrapping round);
    when every pairing is taken, the rolled name with the lowest free numeral
    ("Bob Davis II"). Deterministic from the seeded dice, which roll twice either way."""
    first, last = _REPLACEMENT_NAMES.get(nation, _ANY_NAMES)
    i = dice.roll(len(first), "replacement first name") - 1
    j = dice.roll(len(last), "replacement surname") - 1
    pairings = len(first) * len(last)
    start = i * len(last) + j
    for step in range(pairings):
        k = (start + step) % pairings
        name = f"{first[k // len(last)]} {last[k % len(last)]}"
        if name not in taken:
            return name
    base, n = f"{first[i]} {last[j]}", 2
    while _numbered(base, n) in taken:
        n += 1
    return _numbered(base, n)


_NUMERALS = ("", "", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")


def _numbered(name: str, n: int) -> str:
    return f"{name} {_NUMERALS[n] if n < len(_NUMERALS) else n}"


@transaction.atomic
def pilots_return_to_duty(
    *, campaign_turn: int, campaign: CampaignLike | None = None, recorded_by: str = ""
) -> list[Pilot]:
    """Wounded pilots whose return turn has come are back on duty (logged).
    With a campaign, only the pilots enrolled in it: "returns on turn N" is the
    turn clock of the campaign he was wounded in (issue 12). Without one, the
    pilots of the free roster. Idempotent."""
    qs = Pilot.objects.select_for_update(of=("self",)).filter(
        status=PilotStatus.WOUNDED, wounded_until_turn__lte=campaign_turn,
        enrolled_in=cast(CampaignModel, campaign),
    )  # fmt: skip
    returned = []
    for pilot in qs:
        pilot_log(pilot=pilot, kind=PilotEventKind.RETURNED, campaign_turn=campaign_turn, campaign=campaign,
                  details={"was_due": pilot.wounded_until_turn}, recorded_by=recorded_by)  # fmt: skip
        pilot.status, pilot.wounded_until_turn = PilotStatus.ACTIVE, None
        pilot.save(update_fields=["status", "wounded_until_turn"])
        returned.append(pilot)
    return returned


def replacements_draft(
    *, campaign: CampaignLike, campaign_turn: int, recorded_by: str = ""
) -> list[Pilot]:
    """Squadrons of the campaign short of pilots receive new pilots, at most the
    campaign's replacement rate each, once per campaign turn (a unique
    ``AppliedResult`` key). Short: in a campaign flying plane cards, the pilots its
    planes in play lack (``hooks.campaign_pilot_needs``, issue 24: replacements fill
    airframes, ruling "Replacements fill the campaign's planes"); otherwise the target
    strength less the pilots on strength (active and wounded, enrolled in the
    campaign: not the free roster, not another campaign's). New pilots
    enter at the rule set's replacement entry quality; with characteristics on,
    Vision/Reflex/Training/Experience are rolled by nation and the campaign year
    (001 XIX), an Experience or Ace roll changing the entry quality."""
    key = f"replacements:{campaign.pk}:{campaign_turn}"
    settings = career_settings_for(campaign)
    rules = get_rule_set(campaign.progression_rule)
    drafted: list[Pilot] = []
    with transaction.atomic():
        try:
            with transaction.atomic():
                applied = AppliedResult.objects.create(
                    source_key=key, campaign=cast(CampaignModel, campaign), mode=ResultMode.ROSTER, campaign_turn=campaign_turn,
                    battle_ref=f"Replacements, turn {campaign_turn}", seed=_seed_for(key, campaign), record={},
                    recorded_by=recorded_by,
                )  # fmt: skip
        except IntegrityError:
            return []
        dice = Dice(applied.seed)
        # (annotated through CampaignLike's manager, which cannot say with what)
        squadrons = cast(
            "QuerySet[WithAnnotations[Squadron, _OnStrength]]",
            campaign.squadrons.annotate(
                # issue 24: on a campaign's strength are its own enrolled pilots only
                on_strength=Count(
                    "pilots",
                    filter=Q(pilots__status__in=[PilotStatus.ACTIVE, PilotStatus.WOUNDED])
                    & Q(pilots__enrolled_in=cast(CampaignModel, campaign)),
                )
            ).order_by("name"),
        )
        needs = campaign_pilot_needs(campaign)  # None: the campaign flies no planes
        summary: dict[str, Any] = {}
        for squadron in squadrons:
            short = (
                max(0, squadron.target_strength - squadron.on_strength)
                if needs is None
                else needs.get(squadron.pk, 0)
            )
            count = min(settings.replacement_rate, short)
            # every name the squadron has ever had on its roll (any campaign, any status)
            taken = (
                set(Pilot.objects.filter(squadron=squadron).values_list("name", flat=True))
                if count
                else set()
            )
            for _ in range(count):
                name = _replacement_name(squadron.nation, dice, taken)
                taken.add(name)
                extra: dict[str, Any] = {}
                rolls: list[Any] = []
                chars = None
                if settings.characteristics:
                    chars = roll_characteristics(squadron.nation, settings.year, dice=dice)
                    rolls = chars.rolls_json
                    c = chars.characteristics
                    extra = {
                        "vision": c.vision,
                        "reflex": c.reflex,
                        "training": c.training,
                        "experience": c.experience,
                    }
                quality = rules.entry_quality(replacement=True, characteristics=chars)
                pilot = pilot_enlist(
                    squadron=squadron, name=name, rank="", quality=quality, quality_scale=rules.name,
                    campaign_turn=campaign_turn, recorded_by=recorded_by, campaign=campaign, entry_quality=quality,
                    details={"replacement": True, "rule_set": rules.name,
                             "characteristics": chars.explanation if chars else ""},
                    dice=rolls, **extra,
                )  # fmt: skip
                # a replacement joins the campaign he was drafted for (issue 12)
                pilot.enrolled_in = cast(CampaignModel, campaign)
                pilot.save(update_fields=["enrolled_in"])
                summary.setdefault(squadron.name, []).append(pilot.pk)
                drafted.append(pilot)
        applied.summary = summary
        applied.save(update_fields=["summary"])
    return drafted


def campaign_turn_begin(
    *, campaign: CampaignLike, campaign_turn: int, recorded_by: str = ""
) -> dict[str, list[Pilot]]:
    """The roster's hook for the start of a campaign turn: wounded pilots due
    back return to duty, then squadrons below strength draft replacements.
    Idempotent per (campaign, turn); the campaign layer calls it when its turn
    number rises (see docs/rulings.md "Careers: the turn hook")."""
    if not 0 <= campaign_turn <= MAX_TURN:
        raise RuleViolation(
            f"campaign_turn must be between 0 and {MAX_TURN}", field="campaign_turn", code="range"
        )
    returned = pilots_return_to_duty(
        campaign_turn=campaign_turn, campaign=campaign, recorded_by=recorded_by
    )
    drafted = replacements_draft(
        campaign=campaign, campaign_turn=campaign_turn, recorded_by=recorded_by
    )
    return {"returned": returned, "drafted": drafted}


# entries a replacement may have besides his JOINED entry and still be taken back:
# notes (an assignment to a plane of an action since undone) count in no figure
_NOTHING_ELSE = (PilotEventKind.JOINED, PilotEventKind.NOTE)


@transaction.atomic
def campaign_turn_begin_revert(
    *, campaign: CampaignLike, campaign_turn: int, in_play: Collection[int] = ()
) -> dict[str, list[Any]]:
    """Take back what :func:`campaign_turn_begin` did for ``campaign_turn`` (an organiser
    undoes the action that began it), all or nothing: the pilots who returned to duty
    are wounded again as they were (their RETURNED entries gone), the replacements
    drafted leave the roster (deleted with their JOINED entries) and the draft's
    ``AppliedResult`` goes, so the turn may begin again and draft the same pilots
    (its dice come from its key). Refuses (a 400, code ``state``), changing nothing,
    when a returned pilot changed since (wounded again, a career entry other than a
    note, flying a plane in ``in_play``) or a replacement served (any entry but his
    JOINED one and notes, a claim, an award, an airframe, a plane in ``in_play``):
    that must be taken back first. Locks the pilots concerned (``select_for_update``).
    Returns the returned pilots' ids and the replacements' names."""
    returns = [
        event
        for event in PilotEvent.objects.filter(
            campaign=cast(CampaignModel, campaign), kind=PilotEventKind.RETURNED,
            campaign_turn=campaign_turn,
        ).order_by("id")  # (not the campaign's end releasing its wounded: never taken back)
        if not (isinstance(event.details, dict) and event.details.get("enrolment") == "released")
    ]  # fmt: skip
    key = f"replacements:{campaign.pk}:{campaign_turn}"
    draft = AppliedResult.objects.filter(source_key=key).first()
    drafted_ids = [int(pk) for ids in (draft.summary if draft else {}).values() for pk in ids]
    pilots = Pilot.objects.select_for_update(of=("self",)).in_bulk(
        [e.pilot_id for e in returns] + drafted_ids
    )
    playing = set(in_play)
    for event in returns:
        pilot = pilots[event.pilot_id]
        since = (
            PilotEvent.objects.filter(pilot_id=pilot.pk, pk__gt=event.pk)
            .exclude(kind=PilotEventKind.NOTE)
            .values_list("kind", flat=True)
            .first()
        )
        if pilot.status != PilotStatus.ACTIVE or since is not None or pilot.pk in playing:
            what = since or ("a plane in play" if pilot.pk in playing else pilot.status)
            raise RuleViolation(
                f"{pilot} returned to duty on turn {campaign_turn} and has changed since "
                f"({what}): take that back first",
                field="pilot",
                code="state",
            )
    replacements = [pilots[pk] for pk in drafted_ids if pk in pilots]  # (deleted since: gone)
    served = _served(replacements, playing)
    if served:
        pilot, what = served
        raise RuleViolation(
            f"{pilot} was drafted as a replacement on turn {campaign_turn} and has served "
            f"since ({what}): take that back first",
            field="pilot",
            code="state",
        )
    why = f"organiser undo: the start of campaign turn {campaign_turn} taken back"
    with tallies_batched():  # (entries of no figure: the block keeps it so if one ever is)
        for event in returns:
            pilot = pilots[event.pilot_id]
            was_due = event.details.get("was_due") if isinstance(event.details, dict) else None
            pilot.status, pilot.wounded_until_turn = PilotStatus.WOUNDED, was_due
            pilot._change_reason = why  # type: ignore[attr-defined]  # issue 16 history
            pilot.save(update_fields=["status", "wounded_until_turn"])
        PilotEvent.objects.filter(pk__in=[e.pk for e in returns]).delete()
        names = [p.name for p in replacements]
        for pilot in replacements:
            pilot._change_reason = why  # type: ignore[attr-defined]  # issue 16 history
            pilot.delete()  # with his JOINED entry and notes (cascade)
    if draft is not None:
        draft.delete()  # the turn may come again
    return {"returned": [e.pilot_id for e in returns], "drafted": names}


def _served(pilots: list[Pilot], in_play: set[int]) -> tuple[Pilot, str] | None:
    """The first of ``pilots`` with a career beyond joining, and what it is."""
    ids = [p.pk for p in pilots]
    by_id = {p.pk: p for p in pilots}
    for pk, kind in (
        PilotEvent.objects.filter(pilot_id__in=ids)
        .exclude(kind__in=_NOTHING_ELSE)
        .values_list("pilot_id", "kind")[:1]
    ):
        return by_id[pk], PilotEventKind(kind).label.lower()
    checks: tuple[tuple[str, Any], ...] = (
        ("a kill claim", Claim.objects.filter(Q(pilot_id__in=ids) | Q(victim_id__in=ids))),
        ("an award", PilotAward.objects.filter(pilot_id__in=ids)),
        ("an airframe", Airframe.objects.filter(pilot_id__in=ids)),
    )
    for what, rows in checks:
        for pilot_id, victim_id in rows.values_list(
            "pilot_id", "victim_id" if what == "a kill claim" else "pilot_id"
        )[:1]:
            return by_id.get(pilot_id) or by_id[victim_id], what
    playing = next((pk for pk in ids if pk in in_play), None)
    return (by_id[playing], "a plane in play") if playing is not None else None
