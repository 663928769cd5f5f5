"""The campaign's clock (issue 15): deadlines, phases that move on by themselves, and
the computer commander for absent sides, sides on holiday and solo play.

After every change of the game (:func:`after_change`, called by the services inside
the campaign's locked transaction):

1. **Automatic actions.** While the side to act is played by the computer (the
   organiser marked it so for solo play, or its commander is on holiday), the
   computer commander decides for it; while the side to act has *nothing to
   decide* -- its only legal action is Advance (003 "TURN SEQUENCE": a phase ends
   when the side with priority advances) -- and the campaign advances by itself
   (``auto_advance``), it advances. Each is an ordinary action of the record
   (actor none, ``reason`` says why), so :func:`campaign.services.campaign_replay`
   gives the stored state.
2. **The decision awaited.** The side to act, turn and phase are stored on the
   campaign row with the deadline the organiser's pace gives (hours per decision,
   or the next weekly turn day in the organiser's time zone). A new decision sends
   ``MUST_ACT``; the end of the game ``CAMPAIGN_END`` (:mod:`angels.events`).

The beat task ``campaign.watch_deadlines`` (:func:`watch_deadlines`, every minute)
sends ``DEADLINE_SOON`` once per deadline, and when a deadline passes sends
``DEADLINE_PASSED`` and either lets the computer commander decide for the absent
side until its decision is made, or notes it and waits. Campaign rows are taken
with ``select_for_update(skip_locked=True)`` and the conditions re-read under
the lock, so two runs never do anything twice.
"""

from __future__ import annotations

import logging
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from angels.errors import RuleViolation
from angels.events import (
    DEADLINE_PASSED,
    DEADLINE_SOON,
    MUST_ACT,
    send_campaign_event,
)
from angels.secrets import seed_key
from rules.cardgame import Action, Advance, GameState
from rules.cardgame.commander import choose_action
from rules.dice import Dice, derive_seed

from . import recording, services
from .models import (
    Campaign,
    CampaignMember,
    CampaignStatus,
    OnDeadline,
    Pace,
    Role,
)

log = logging.getLogger(__name__)

# One call never plays more automatic actions than this (a whole solo game is
# a few hundred); a computer commander's turn for one decision at most this many.
MAX_AUTOMATIC = 5000
MAX_ONE_DECISION = 200
# A weekly turn day closer than this is skipped for the next one.
WEEKLY_MIN_NOTICE = timedelta(hours=1)
MAX_PACE_HOURS = 24 * 30
MAX_HOLIDAY = timedelta(days=90)

REASON_AUTO = "automatic: nothing to decide"
REASON_SOLO = "computer commander (solo play)"
REASON_HOLIDAY = "computer commander (holiday)"
REASON_DEADLINE = "computer commander (deadline passed)"


# -- the computer commander ---------------------------------------------------------
def computer_choice(state: GameState, side: str, dice: Dice) -> Action:
    """The computer commander's decision for ``side`` (:mod:`rules.cardgame.commander`),
    on a copy of the game so nothing it tries can touch the stored one."""
    return choose_action(state.clone(), side, dice)


def _computer_dice(campaign: Campaign) -> Dice:
    """Dice of the computer's next decision: from the campaign's seed and the position
    of the action in the record (the record keeps the decision, so replay needs no dice)."""
    position = recording.next_sequence(campaign)
    seed = derive_seed(
        campaign.seed, f"computer commander {position}", key=seed_key("computer commander")
    )
    return Dice(seed)


# -- automatic actions ------------------------------------------------------------
def _play(campaign: Campaign, state: GameState, action: Action, *, reason: str) -> None:
    """Apply and record one action the product takes (as the services record a player's)."""
    recording.action_record(campaign, state, action, user=None, actor=reason, reason=reason)


def _fresh(campaign: Campaign, state: GameState | None) -> GameState:
    """The game as stored now (a nested umpire action may have moved the row on)."""
    stored = Campaign.objects.filter(pk=campaign.pk).values_list("version", flat=True).get()
    if state is not None and stored == campaign.version:
        return state
    campaign.refresh_from_db()
    return services.game_state(campaign)


def on_holiday(campaign: Campaign, side: str, now: datetime) -> bool:
    return CampaignMember.objects.filter(
        campaign=campaign, role=Role.COMMANDER, side=side, holiday_until__gt=now
    ).exists()


def nothing_to_decide(state: GameState, side: str) -> bool:
    """The side to act may only advance (no event card to play, no plane to assign, ...)."""
    return state.legal_actions() == [Advance(side)]


def _automatic_reason(campaign: Campaign, state: GameState, side: str, now: datetime) -> str | None:
    if side in (campaign.computer_sides or []):
        return REASON_SOLO
    if on_holiday(campaign, side, now):
        return REASON_HOLIDAY
    if campaign.auto_advance and nothing_to_decide(state, side):
        return REASON_AUTO
    return None


def after_change(
    campaign: Campaign,
    state: GameState | None = None,
    *,
    now: datetime | None = None,
    autoplay: bool = True,
) -> None:
    """Play the automatic actions and store the decision awaited (inside the row's lock).

    A campaign still gathering its commanders waits for nothing (issue 24)."""
    if campaign.status == CampaignStatus.GATHERING:
        return
    now = now or timezone.now()
    state = _fresh(campaign, state)
    for _ in range(MAX_AUTOMATIC if autoplay else 0):
        side = state.current_side()
        if side is None or state.is_over():
            break
        reason = _automatic_reason(campaign, state, side, now)
        if reason is None:
            break
        if reason == REASON_AUTO:
            action: Action = Advance(side)
        else:
            action = computer_choice(state, side, _computer_dice(campaign))
        _play(campaign, state, action, reason=reason)
        state = _fresh(campaign, state)
    _decision_store(campaign, state, now)


# -- the decision awaited and its deadline ------------------------------------------
def due_at(campaign: Campaign, now: datetime) -> datetime | None:
    """When a decision that begins ``now`` is due under the campaign's pace (None: no deadline)."""
    if campaign.pace == Pace.HOURS:
        return now + timedelta(hours=campaign.pace_hours)
    if campaign.pace == Pace.WEEKLY and campaign.turn_weekdays and campaign.turn_time:
        zone = ZoneInfo(campaign.pace_timezone)
        local = now.astimezone(zone)
        for days in range(15):
            day = local.date() + timedelta(days=days)
            if day.weekday() not in campaign.turn_weekdays:
                continue
            candidate = datetime.combine(day, campaign.turn_time, tzinfo=zone)
            if candidate > now + WEEKLY_MIN_NOTICE:
                return candidate.astimezone(ZoneInfo("UTC"))
    return None


def _url(campaign: Campaign) -> str:
    return reverse("campaign-detail", args=[campaign.pk])


def _decision_store(campaign: Campaign, state: GameState, now: datetime) -> None:
    side = None if state.is_over() else state.current_side()
    if side is None:
        over = "over" if state.is_over() else ""
        values: dict[str, Any] = {"decision_due_at": None, "decision_side": "",
                                  "decision_turn": None, "decision_phase": over, "remind_at": None}  # fmt: skip
    elif (campaign.decision_side, campaign.decision_turn, campaign.decision_phase) == (
        side, campaign.turn, campaign.phase,
    ):  # fmt: skip
        return  # the same decision goes on (a side assigning plane after plane)
    else:
        due = due_at(campaign, now)
        remind = due - timedelta(hours=campaign.remind_hours) if due else None
        values = {"decision_due_at": due, "decision_side": side, "decision_turn": campaign.turn,
                  "decision_phase": campaign.phase, "deadline_noted": False,
                  "remind_at": remind if remind and campaign.remind_hours and remind > now else None}  # fmt: skip
        by = f", due {due:%a %d %b %H:%M} UTC" if due else ""
        send_campaign_event(
            campaign_id=campaign.pk, kind=MUST_ACT, side=side,
            key=f"must_act:campaign:{campaign.pk}:v{campaign.version}:{side}",
            text=f"{campaign.name}: the {side} side must act (turn {campaign.turn}, {campaign.phase}){by}.",
            url=_url(campaign),
        )  # fmt: skip
    Campaign.objects.filter(pk=campaign.pk).update(**values)
    for name, value in values.items():
        setattr(campaign, name, value)


# -- the beat task's work -----------------------------------------------------------
def watch_deadlines(*, now: datetime | None = None) -> dict[str, int]:
    """Send the reminders due and handle the deadlines passed; each campaign in its own
    transaction, skipping rows another run holds. Returns what it did (counts)."""
    now = now or timezone.now()
    done = {"reminded": 0, "decided": 0, "waiting": 0, "failed": 0}
    soon = Campaign.objects.filter(
        status=CampaignStatus.ACTIVE, remind_at__lte=now, decision_due_at__gt=now
    )
    for pk in list(soon.values_list("pk", flat=True)):
        with transaction.atomic():
            campaign = soon.select_for_update(skip_locked=True).filter(pk=pk).first()
            if campaign is None:
                continue
            _remind(campaign, now)
            done["reminded"] += 1
    overdue = Campaign.objects.filter(
        status=CampaignStatus.ACTIVE, decision_due_at__lte=now, deadline_noted=False
    )
    for pk in list(overdue.values_list("pk", flat=True)):
        try:
            with transaction.atomic():
                campaign = overdue.select_for_update(skip_locked=True).filter(pk=pk).first()
                if campaign is None:
                    continue
                done[_deadline_passed(campaign, now)] += 1
        except Exception:  # one campaign's failure must not stop the others'
            log.exception("campaign %s: handling its passed deadline failed", pk)
            done["failed"] += 1
    return done


def _remind(campaign: Campaign, now: datetime) -> None:
    due = campaign.decision_due_at
    assert due is not None
    hours = max(1, round((due - now).total_seconds() / 3600))
    send_campaign_event(
        campaign_id=campaign.pk, kind=DEADLINE_SOON, side=campaign.decision_side,
        key=f"deadline_soon:campaign:{campaign.pk}:{due.isoformat()}:{campaign.decision_side}",
        text=f"{campaign.name}: the {campaign.decision_side} side's decision is due in {hours} hour(s).",
        url=_url(campaign),
    )  # fmt: skip
    Campaign.objects.filter(pk=campaign.pk).update(remind_at=None)


def _deadline_passed(campaign: Campaign, now: datetime) -> str:
    due, side = campaign.decision_due_at, campaign.decision_side
    assert due is not None
    waits = campaign.on_deadline == OnDeadline.WAIT
    then = "the campaign waits for it" if waits else "the computer commander decided for it"
    send_campaign_event(
        campaign_id=campaign.pk, kind=DEADLINE_PASSED, side=None,
        key=f"deadline_passed:campaign:{campaign.pk}:{due.isoformat()}:{side}",
        text=f"{campaign.name}: the {side} side's deadline passed; {then}.", url=_url(campaign),
    )  # fmt: skip
    if waits:
        Campaign.objects.filter(pk=campaign.pk).update(deadline_noted=True, remind_at=None)
        return "waiting"
    state = services.game_state(campaign)
    turn, phase = campaign.decision_turn, campaign.decision_phase
    for _ in range(MAX_ONE_DECISION):
        if state.current_side() != side or (campaign.turn, campaign.phase) != (turn, phase):
            break
        _play(campaign, state, computer_choice(state, side, _computer_dice(campaign)),
              reason=REASON_DEADLINE)  # fmt: skip
        state = _fresh(campaign, state)
    else:  # a commander that would not advance: the decision ends now
        if Advance(side) in state.legal_actions():
            _play(campaign, state, Advance(side), reason=REASON_DEADLINE)
            state = _fresh(campaign, state)
    after_change(campaign, state, now=now)
    return "decided"


# -- the organiser's pace and a commander's holiday ---------------------------------
PACE_FIELDS = ("pace", "pace_hours", "turn_weekdays", "turn_time", "pace_timezone",
               "on_deadline", "remind_hours", "auto_advance", "computer_sides")  # fmt: skip


def _whole(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise RuleViolation(f"{field} is a whole number", field=field, code="format")
    try:
        number = int(value)
    except ValueError as exc:
        raise RuleViolation(f"{field} is a whole number", field=field, code="format") from exc
    if not low <= number <= high:
        raise RuleViolation(f"{field} is between {low} and {high}", field=field, code="range")
    return number


def _time(value: Any) -> time | None:
    if value in (None, ""):
        return None
    if isinstance(value, time):
        return value
    try:
        return time.fromisoformat(str(value))
    except ValueError as exc:
        raise RuleViolation(
            "turn_time is a time of day such as 18:00", field="turn_time", code="format"
        ) from exc


def pace_problems(
    campaign: Campaign, changes: dict[str, Any]
) -> tuple[dict[str, Any], list[RuleViolation]]:
    """The campaign's pace settings with ``changes``, and every rule they break.

    Each field is checked on its own, so a form can show all its errors at once;
    a rule between fields (weekly turns need days and a time) is checked when
    the fields it reads are valid."""
    problems: list[RuleViolation] = [
        RuleViolation(f"{field} is not a pace setting", field=field, code="invalid")
        for field in sorted(set(changes) - set(PACE_FIELDS))
    ]
    values = {name: getattr(campaign, name) for name in PACE_FIELDS} | {
        k: v for k, v in changes.items() if k in PACE_FIELDS
    }
    bad: set[str] = set()

    def check(field: str, read: Any) -> None:
        try:
            values[field] = read()
        except RuleViolation as exc:
            problems.append(exc)
            bad.add(field)

    def one_of(field: str, choices: list[str]) -> Any:
        if values[field] not in choices:
            raise RuleViolation(f"{field} is one of {choices}", field=field, code="invalid")
        return values[field]

    check("pace", lambda: one_of("pace", Pace.values))
    check("pace_hours", lambda: _whole(values["pace_hours"], "pace_hours", 1, MAX_PACE_HOURS))
    check("turn_weekdays", lambda: _weekdays(values["turn_weekdays"]))
    check("turn_time", lambda: _time(values["turn_time"]))
    if values["pace"] == Pace.WEEKLY and not bad & {"turn_weekdays", "turn_time"}:
        if not values["turn_weekdays"]:
            problems.append(RuleViolation("weekly turns need at least one turn day", field="turn_weekdays", code="required"))  # fmt: skip
        if values["turn_time"] is None:
            problems.append(RuleViolation("weekly turns need a time of day", field="turn_time", code="required"))  # fmt: skip
    check("pace_timezone", lambda: _zone(values["pace_timezone"]))
    check("on_deadline", lambda: one_of("on_deadline", OnDeadline.values))
    check("remind_hours", lambda: _whole(values["remind_hours"], "remind_hours", 0, MAX_PACE_HOURS))
    if not isinstance(values["auto_advance"], bool):
        problems.append(RuleViolation("auto_advance is true or false", field="auto_advance", code="format"))  # fmt: skip
    check("computer_sides", lambda: _computer_sides(values["computer_sides"]))
    if not bad & {"pace", "pace_hours", "remind_hours", "turn_weekdays"}:
        problems += _remind_problems(values)
    return values, problems


def _remind_problems(values: dict[str, Any]) -> list[RuleViolation]:
    """A reminder comes before the deadline: ``remind_hours`` shorter than a decision's time
    (``pace_hours``), or than the shortest gap between two weekly turn days."""
    remind = values["remind_hours"]
    if not remind:
        return []
    if values["pace"] == Pace.HOURS:
        limit, what = values["pace_hours"], f"the {values['pace_hours']}-hour deadline"
    elif values["pace"] == Pace.WEEKLY and values["turn_weekdays"]:
        days = sorted(values["turn_weekdays"])
        gaps = [(b - a) % 7 or 7 for a, b in zip(days, [*days[1:], days[0]], strict=True)]
        limit, what = 24 * min(gaps), "the time between two turn days"
    else:
        return []
    if remind < limit:
        return []
    return [
        RuleViolation(
            f"the reminder ({remind} hours before) must be shorter than {what} ({limit} hours)",
            field="remind_hours",
            code="range",
        )
    ]


def _weekdays(days: Any) -> list[int]:
    days = days or []
    if not isinstance(days, list):
        raise RuleViolation("turn_weekdays is a list of days 0-6", field="turn_weekdays", code="format")  # fmt: skip
    return sorted({_whole(d, "turn_weekdays", 0, 6) for d in days})


def _zone(value: Any) -> str:
    zone = str(value or "")
    try:
        if zone not in available_timezones():
            raise ZoneInfoNotFoundError(zone)
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise RuleViolation(
            f"{zone!r} is not a time zone (e.g. Europe/London)", field="pace_timezone", code="invalid"
        ) from exc  # fmt: skip
    return value


def _computer_sides(sides: Any) -> list[str]:
    sides = sides or []
    if not isinstance(sides, list) or any(s not in services.SIDES for s in sides):
        raise RuleViolation("computer_sides lists allied and/or axis", field="computer_sides", code="invalid")  # fmt: skip
    if len(set(sides)) == 2:
        raise RuleViolation("one side at least is played by a person", field="computer_sides", code="invalid")  # fmt: skip
    return sorted(set(sides))


class PaceRefused(RuleViolation):
    """Pace settings that break rules: every problem (``problems``, each naming its field),
    so a form shows them all at once; as a :class:`RuleViolation` it is the first of them
    (a 400 naming that field wherever only one is read)."""

    def __init__(self, problems: list[RuleViolation]) -> None:
        first = problems[0]
        super().__init__(first.message, field=first.field, rule=first.rule, code=first.code)
        self.problems = list(problems)

    @property
    def errors(self) -> dict[str, list[str]]:
        """The problems' messages by field (``""``: a problem of no one field)."""
        by_field: dict[str, list[str]] = {}
        for problem in self.problems:
            by_field.setdefault(problem.field or "", []).append(problem.message)
        return by_field


def pace_values(campaign: Campaign, changes: dict[str, Any]) -> dict[str, Any]:
    """The campaign's pace settings with ``changes``, checked once: :class:`PaceRefused`
    with every problem found."""
    values, problems = pace_problems(campaign, changes)
    if problems:
        raise PaceRefused(problems)
    return values


def campaign_pace_set(*, campaign_id: int, by: Any, changes: dict[str, Any]) -> Campaign:
    """The organiser sets the pace; the decision awaited now gets a deadline under it."""
    with transaction.atomic():
        campaign = recording.campaign_locked(campaign_id, None)
        services.require_organiser(campaign, by)
        values = pace_values(campaign, changes)
        for name, value in values.items():
            setattr(campaign, name, value)
        campaign._change_reason = "pace set by the organiser"  # type: ignore[attr-defined]  # issue 16 history
        campaign.save(update_fields=[*PACE_FIELDS, "updated_at"])
        Campaign.objects.filter(pk=campaign.pk).update(decision_side="")  # timed afresh
        campaign.decision_side = ""
        after_change(campaign)
    return campaign


def campaign_holiday_set(
    *, campaign_id: int, by: Any, until: datetime | None, now: datetime | None = None
) -> CampaignMember:
    """A commander hands their side to the computer commander until ``until`` (None: back)."""
    now = now or timezone.now()
    with transaction.atomic():
        campaign = recording.campaign_locked(campaign_id, None)
        member = services.membership(campaign, by)
        if member is None or member.role != Role.COMMANDER:
            raise RuleViolation("only a side's commander goes on holiday", field="until", code="permission")  # fmt: skip
        if until is not None and timezone.is_naive(until):
            until = timezone.make_aware(until)
        if until is not None and not now < until <= now + MAX_HOLIDAY:
            raise RuleViolation(
                f"a holiday ends in the future, within {MAX_HOLIDAY.days} days", field="until", code="range"
            )  # fmt: skip
        if campaign.status == CampaignStatus.FINISHED:
            raise RuleViolation("the campaign is over", code="state")
        if until is None and not (member.holiday_until and member.holiday_until > now):
            raise RuleViolation(
                "you are not on holiday: give the holiday's last day",
                field="until",
                code="required",
            )
        CampaignMember.objects.filter(pk=member.pk).update(holiday_until=until)
        member.holiday_until = until
        after_change(campaign, now=now)
    return member


def clock_view(campaign: Campaign, user: Any, *, now: datetime | None = None) -> dict[str, Any]:
    """What the campaign page's clock shows (times as aware datetimes; the page renders them
    in the viewer's time zone)."""
    now = now or timezone.now()
    due = campaign.decision_due_at
    member = services.membership(campaign, user)
    holidays = {
        m.side: m.holiday_until
        for m in campaign.members.filter(role=Role.COMMANDER, holiday_until__gt=now)
    }
    return {
        "turn": campaign.turn,
        "phase": campaign.phase,
        "side": campaign.decision_side or campaign.current_side,
        "due": due,
        "hours_left": None if due is None else round((due - now).total_seconds() / 3600),
        "overdue": due is not None and due <= now,
        "waiting": campaign.deadline_noted,
        "pace": campaign.get_pace_display(),
        "on_deadline": campaign.get_on_deadline_display(),
        "computer_sides": campaign.computer_sides,
        "holidays": holidays,
        "you": member,
        "is_organiser": services.is_organiser(campaign, user),
        "weekdays": ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
    }
