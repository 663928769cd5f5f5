"""Campaign writes: create a campaign, invite players, act, correct, undo.

Every write that changes the game takes the campaign row's lock
(``select_for_update``) inside one short transaction, checks the version the
player acted on, applies the action to the pure game core
(:mod:`rules.cardgame`), and stores the new state, the action record and the
roster's consequences together. A rejected action raises
:class:`~angels.errors.RuleViolation` and changes nothing.
"""

from __future__ import annotations

import json
import secrets
import unicodedata
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction

from angels.errors import RuleViolation
from battles.rules_settings import rules_options
from careers.models import PilotEvent
from careers.services import (
    campaign_action_revert,
    campaign_turn_begin_revert,
)
from roster.models import AircraftType
from rules.cardgame import (
    GameSetup,
    GameState,
    action_from_json,
    default_setup,
    new_game,
)
from rules.dice import Dice
from rules.sides import ALLIED_FIRST

from . import clock
from .enrolment import enrolment_add, enrolment_chosen
from .game import game_checked, survival_of_game
from .models import (
    ActionKind,
    Campaign,
    CampaignAction,
    CampaignMember,
    CampaignStatus,
    ResolutionMode,
    Role,
)
from .pilot_experience import bound_action, markers_taken_back
from .planes import sync_planes
from .recording import action_record, campaign_locked, denormalise, next_sequence, state_save

SIDES = ALLIED_FIRST  # the card game's order (rules.sides)


# -- reading the game back --------------------------------------------------------
def game_state(campaign: Campaign) -> GameState:
    """The game as stored on ``campaign``.

    The game adopts the row's parsed state without copying it (the copy would
    cost more than the rest of a request): applying actions to the returned
    game changes ``campaign.state`` too, so only act on a game whose campaign
    instance is saved from it (as :func:`campaign_act` does) or thrown away.
    """
    return GameState.from_json(campaign.state, copy=False)


def _setup_from_catalog(*, engagement_mode: str = "card") -> GameSetup:
    """The plane decks as the catalog holds them now (organisers may have edited them)."""
    planes = [
        {
            "name": t.name,
            "side": "allied" if t.deck == "allied" else "axis",
            "card_type": t.card_type,
            "copies": t.deck_copies,
            "af": t.card_af,
            "sf": t.card_sf,
            "gf": t.card_gf,
            "night_fighter": t.night_fighter,
        }
        for t in AircraftType.objects.exclude(deck="").order_by("deck", "name")
    ]
    if not planes:
        raise RuleViolation(
            "the aircraft catalog has no plane decks: run load_catalog first", code="state"
        )
    return default_setup(planes, engagement_mode=engagement_mode)


# -- permissions ------------------------------------------------------------------
def membership(campaign: Campaign, user: User | AnonymousUser | None) -> CampaignMember | None:
    """The user's membership of the campaign (one query, remembered on the user for the request)."""
    if user is None or not user.is_authenticated:
        return None
    cache = user.__dict__.setdefault("_campaign_memberships", {})
    if campaign.pk not in cache:
        cache[campaign.pk] = CampaignMember.objects.filter(campaign=campaign, user=user).first()
    return cache[campaign.pk]


def viewer_side(campaign: Campaign, user: User | AnonymousUser | None) -> str | None:
    """The side whose hand ``user`` may see: a commander's own side, else none."""
    member = membership(campaign, user)
    return member.side if member is not None and member.role == Role.COMMANDER else None


def is_organiser(campaign: Campaign, user: User | AnonymousUser | None) -> bool:
    if user is not None and getattr(user, "is_superuser", False):
        return True
    member = membership(campaign, user)
    return member is not None and member.role == Role.ORGANISER


UMPIRE_REASON_MAX = 300


def _require_can_act(campaign: Campaign, user: User, side: str, umpire_reason: str = "") -> str:
    """Refuse ``user`` acting for ``side`` unless they command it, or organise the campaign
    and act as umpire with a reason; the reason to record (``"umpire: ..."``, or none)."""
    member = membership(campaign, user)
    if member is not None and member.role == Role.COMMANDER and member.side == side:
        return ""  # a side's commander acts as its commander, organiser or not
    if is_organiser(campaign, user):
        reason = " ".join(str(umpire_reason or "").split())
        if side not in SIDES and not reason:
            return ""  # an umpire's own action (a result, a mode): the organiser's job
        if not reason:
            raise RuleViolation(
                f"the organiser acts for {side} only as umpire, with a reason: give umpire_reason",
                field="umpire_reason",
                code="required",
            )
        if len(reason) > UMPIRE_REASON_MAX:
            raise RuleViolation(
                f"umpire_reason is at most {UMPIRE_REASON_MAX} characters",
                field="umpire_reason",
                code="range",
            )
        return f"umpire: {reason}"
    if member is None or member.role != Role.COMMANDER:
        raise RuleViolation(
            "only the organiser or a side's commander may act", field="side", code="permission"
        )
    raise RuleViolation(
        f"you command the {member.side} side, not {side}", field="side", code="permission"
    )


def can_act(campaign: Campaign, user: User, side: str) -> bool:
    """May ``user`` act for ``side``: as its commander, or as the organiser acting as umpire?"""
    try:
        _require_can_act(campaign, user, side, umpire_reason="(asked)")
    except RuleViolation:
        return False
    return True


def require_organiser(campaign: Campaign, user: User) -> None:
    if not is_organiser(campaign, user):
        raise RuleViolation("only the campaign's organiser may do this", code="permission")


# -- creating and inviting --------------------------------------------------------
@transaction.atomic
def campaign_open(
    *,
    name: str,
    created_by: User,
    seed: int | None = None,
    resolution_mode: str = ResolutionMode.CARD,
    progression_rule: str = "card_game",
    survival_rule: str | None = None,
    squadrons: list[Any] | None = None,
    pilots: list[int] | None = None,
    engine_rules: dict[str, Any] | None = None,
    engine_territory: bool = True,
    auto_advance: bool = True,
    tactical_system: str = "angels20",
) -> Campaign:
    """A new campaign, gathering its commanders (issue 24): 003 "SETUP" is dealt -- both
    plane decks, the common decks, 10 PP each, the d10 roll-off -- but nothing is played,
    nothing advances by itself and no deadline runs until the organiser starts it
    (:func:`campaign_start`). Meanwhile the organiser invites commanders and enrols
    squadrons and pilots.

    ``squadrons`` join the campaign; ``pilots`` (ids) are those of their pilots who
    enlist (issue 24: any pilot not serving elsewhere, aces included), each of one of
    ``squadrons`` (else a 400 naming ``pilots[i]``). Without ``pilots`` every free pilot
    of the squadrons enlists; with an empty list none does (replacements then fill the
    planes, ruling "Replacements fill the campaign's planes").

    ``auto_advance`` (on unless said): once started, phases with nothing to decide move
    on by themselves, from the first one (:mod:`campaign.clock`).

    ``engine_rules`` are the optional rules engine engagements are flown with
    (the shape of a battle's ``settings.rules``); ``engine_territory`` flies
    them over the defender's ground (see :func:`campaign_engine_rules_set`).

    ``tactical_system`` is the game its engine and web engagements are flown under
    (issue 25, :mod:`campaign.game`); ``survival_rule`` follows it unless given.
    """
    campaign_name_check(name)
    if resolution_mode not in ResolutionMode.values:
        raise RuleViolation(
            f"{resolution_mode!r} is not one of {ResolutionMode.values}",
            field="resolution_mode",
            code="invalid",
        )
    tactical_system = game_checked(tactical_system).name  # issue 25: the game it flies
    survival_rule = survival_rule or survival_of_game(tactical_system)
    engine_rules = engine_rules or {}
    _check_engine_settings(engine_rules, engine_territory)
    engine_rules = one_survival_roll(engine_rules, survival_rule)
    seed = secrets.randbits(48) if seed is None else seed
    setup = _setup_from_catalog(engagement_mode=resolution_mode)
    state = new_game(setup, Dice(seed))
    campaign = Campaign.objects.create(
        name=name,
        seed=seed,
        resolution_mode=resolution_mode,
        progression_rule=progression_rule,
        survival_rule=survival_rule,
        tactical_system=tactical_system,
        engine_rules=engine_rules,
        engine_territory=engine_territory,
        auto_advance=auto_advance,
        setup=setup.to_json(),
        state=state.to_json(),
        created_by=created_by,
        status=CampaignStatus.GATHERING,
    )
    denormalise(campaign, state)
    campaign.save()
    if squadrons:
        campaign.squadrons.set(squadrons)
    if pilots is not None:  # the organiser's choice of who enlists (issue 24)
        enrolment_chosen(campaign=campaign, pilots=pilots, actor=created_by.username)
    elif squadrons:
        # the squadrons' free pilots serve in it (issue 12); pilots serving elsewhere stay there
        enrolment_add(
            campaign=campaign, squadrons=[getattr(s, "pk", s) for s in squadrons],
            actor=created_by.username,
        )  # fmt: skip
    CampaignMember.objects.create(campaign=campaign, user=created_by, role=Role.ORGANISER)
    sync_planes(campaign, state, actor="")
    return campaign


def campaign_start(*, campaign_id: int, by: User) -> Campaign:
    """The organiser starts a gathering campaign: from now on it is played, moves on by
    itself where nothing is to decide, and its deadlines run. Locks the campaign's row."""
    with transaction.atomic():
        campaign = campaign_locked(campaign_id, None)
        require_organiser(campaign, by)
        if campaign.status != CampaignStatus.GATHERING:
            raise RuleViolation("the campaign has already started", code="state")
        campaign.status = CampaignStatus.ACTIVE
        Campaign.objects.filter(pk=campaign.pk).update(status=CampaignStatus.ACTIVE)
        clock.after_change(campaign, game_state(campaign))
    return campaign


def campaign_create(**values: Any) -> Campaign:
    """A campaign opened and started at once, for those who set one up whole (the demo,
    the admin, scripts): :func:`campaign_open`'s arguments."""
    campaign = campaign_open(**values)
    return campaign_start(campaign_id=campaign.pk, by=values["created_by"])


def require_started(campaign: Campaign) -> None:
    """Refuse (400, code ``state``) a game action before the organiser has started the
    campaign or after it is over."""
    if campaign.status == CampaignStatus.GATHERING:
        raise RuleViolation(
            "the campaign has not started yet: the organiser starts it once the commanders "
            "have joined",
            code="state",
        )
    if campaign.status == CampaignStatus.FINISHED:
        raise RuleViolation(f"the campaign is over: {campaign.winner} won", code="state")


def campaign_name_check(name: str) -> str:
    """A new campaign's name: given, no longer than the column holds (the same limit on
    every database: SQLite would store more, PostgreSQL refuses it), on one line with no
    control characters (it is a mail's subject: a line break there makes the mail
    unbuildable), and not taken."""
    if not name.strip():
        raise RuleViolation("a campaign needs a name", field="name", code="required")
    bad = next((c for c in name if unicodedata.category(c) in ("Cc", "Zl", "Zp")), None)
    if bad is not None:
        raise RuleViolation(
            "a campaign's name is one line of text: no line breaks, tabs or other control "
            f"characters (this one has U+{ord(bad):04X})",
            field="name",
        )
    limit = Campaign._meta.get_field("name").max_length or 0
    if len(name) > limit:
        raise RuleViolation(
            f"a campaign's name is at most {limit} characters (this one has {len(name)})",
            field="name",
            code="range",
        )
    if Campaign.objects.filter(name=name).exists():
        raise RuleViolation(
            f"a campaign called {name!r} already exists", field="name", code="conflict"
        )
    return name


def one_survival_roll(engine_rules: dict[str, Any], survival_rule: str) -> dict[str, Any]:
    """The engine rules with the engine's 000 'PILOT SURVIVAL' roll only under the
    campaign's Angels 20 survival rule (ruling "One roll, one fate"): then careers
    takes the engine's die; under another rule the engine rolls none and careers
    rolls the campaign's rule, once."""
    if survival_rule == "angels20":
        return engine_rules
    if engine_rules.get("pilot_survival"):
        raise RuleViolation(
            f"this campaign rolls pilot survival by its {survival_rule} rule: the engine "
            "cannot roll the Angels 20 one as well (one roll, one fate)",
            field="engine_rules.pilot_survival",
            rule="000 'PILOT SURVIVAL'",
        )
    return {**engine_rules, "pilot_survival": False}


def _check_engine_settings(engine_rules: Any, engine_territory: Any) -> None:
    # The same validation as a battle's settings.rules (000 "OPTIONAL RULES",
    # "SPECIAL CONDITIONS"); the turn limit of engagements is the campaign's own.
    rules_options(engine_rules, field="engine_rules")
    if not isinstance(engine_territory, bool):
        raise RuleViolation(
            "engine_territory is true or false", field="engine_territory", code="format"
        )


def campaign_engine_rules_set(
    *,
    campaign_id: int,
    by: User,
    engine_rules: dict[str, Any],
    engine_territory: bool | None = None,
) -> Campaign:
    """The organiser sets the optional rules of engine engagements (and whether territory applies).

    Battles already created keep the rules they were created with (they are
    recorded on each battle); the next engagements are flown with these.
    """
    campaign = Campaign.objects.get(pk=campaign_id)
    require_organiser(campaign, by)
    territory = campaign.engine_territory if engine_territory is None else engine_territory
    _check_engine_settings(engine_rules, territory)
    campaign.engine_rules = one_survival_roll(engine_rules, campaign.survival_rule)
    campaign.engine_territory = territory
    campaign._change_reason = "engine rules set by the organiser"  # type: ignore[attr-defined]  # issue 16 history
    campaign.save(update_fields=["engine_rules", "engine_territory", "updated_at"])
    return campaign


def campaign_member_set(
    *, campaign: Campaign, by: User, user: User, role: str, side: str = ""
) -> CampaignMember:
    """``user`` gets a part: commander of a side, organiser, or spectator (``by``: an organiser).

    Trusted code only (the demo, the admin, tests, an invitation's acceptance:
    ``accounts.offers``, ``accounts.services.invitation_accept``): no user-facing path
    calls it for another user; nobody becomes a commander except by accepting."""
    require_organiser(campaign, by)
    if role not in Role.values:
        raise RuleViolation(f"{role!r} is not one of {Role.values}", field="role", code="invalid")
    if role == Role.COMMANDER:
        if side not in SIDES:
            raise RuleViolation(
                "a commander commands the allied or the axis side", field="side", code="invalid"
            )
        if (
            CampaignMember.objects.filter(campaign=campaign, role=Role.COMMANDER, side=side)
            .exclude(user=user)
            .exists()
        ):
            raise RuleViolation(
                f"the {side} side already has a commander",
                field="side",
                code="conflict",
            )
    else:
        side = ""
    member, _ = CampaignMember.objects.update_or_create(
        campaign=campaign, user=user, defaults={"role": role, "side": side}
    )
    user.__dict__.pop("_campaign_memberships", None)
    return member


# -- acting ---------------------------------------------------------------------------
def campaign_act(
    *,
    campaign_id: int,
    user: User,
    action: dict[str, Any],
    version: int | None = None,
    umpire_reason: str = "",
) -> Campaign:
    """Apply one game action for a side. Two requests on the same version: one wins, one gets a 400.

    The side's commander acts for it; the organiser acts for a side they do not command
    only as umpire, with ``umpire_reason`` (recorded as ``"umpire: <reason>"``)."""
    with transaction.atomic():
        campaign = campaign_locked(campaign_id, version)
        require_started(campaign)
        try:
            parsed = action_from_json(action)
        except (KeyError, TypeError, ValueError) as exc:
            raise RuleViolation(f"not a game action: {exc}", field="action", code="format") from exc
        reason = _require_can_act(campaign, user, parsed.side, umpire_reason)
        state = game_state(campaign)
        error = state.check(parsed)
        if error is not None:
            raise RuleViolation(error.message, field="action", rule=error.rule)
        actor = getattr(user, "username", "")
        action_record(campaign, state, parsed, user=user, actor=actor, reason=reason)
        clock.after_change(campaign, state)  # issue 15: automatic actions, the next deadline
    return campaign


def campaign_umpire_act(*, campaign_id: int, action: dict[str, Any], actor: str) -> Campaign:
    """An umpire action taken by the product itself (the engine entering a battle's result)."""
    with transaction.atomic():
        campaign = campaign_locked(campaign_id, None)
        state = game_state(campaign)
        parsed = action_from_json(action)
        error = state.check(parsed)
        if error is not None:
            raise RuleViolation(error.message, field="action", rule=error.rule)
        action_record(campaign, state, parsed, user=None, actor=actor, reason=f"entered by {actor}")
        clock.after_change(campaign, state)
    return campaign


# -- corrections and undo --------------------------------------------------------
# 003 "PRODUCTION POINT SCORE" / "STRATEGY TOKENS" are running totals with no ceiling;
# a side starts with 10 PP (003 "SETUP") and gains a handful a turn, so an organiser's
# correction above this is a typing slip (one of 10**30 was once stored).
CORRECTION_MAX = 999


def _apply_correction(state: GameState, payload: dict[str, Any]) -> None:
    if "pilot_xm" in payload:  # the experience assigned pilots bring (campaign.pilot_experience)
        state.pilot_experience(payload["pilot_xm"])
        return
    state.correct(pp=payload.get("pp"), st=payload.get("st"))


def campaign_correct(
    *,
    campaign_id: int,
    by: User,
    reason: str,
    pp: dict[str, int] | None = None,
    st: dict[str, int] | None = None,
) -> Campaign:
    """The organiser sets a side's PP or ST; recorded with who and why, replayed in order."""
    if not reason.strip():
        raise RuleViolation("say why the correction is made", field="reason", code="required")
    payload: dict[str, Any] = {}
    for field, values in (("pp", pp), ("st", st)):
        if not values:
            continue
        for side, value in values.items():
            if side not in SIDES:
                raise RuleViolation(
                    f"unknown side {side!r}", field=f"{field}.{side}", code="invalid"
                )
            if not 0 <= int(value) <= CORRECTION_MAX:
                raise RuleViolation(
                    f"{field.upper()} is set between 0 and {CORRECTION_MAX}",
                    field=f"{field}.{side}",
                    code="range",
                )
        payload[field] = {side: int(v) for side, v in values.items()}
    if not payload:
        raise RuleViolation("nothing to correct: give pp or st", field="pp", code="required")
    with transaction.atomic():
        campaign = campaign_locked(campaign_id, None)
        require_organiser(campaign, by)
        state = game_state(campaign)
        before = campaign.version
        _apply_correction(state, payload)
        CampaignAction.objects.create(
            campaign=campaign, sequence=next_sequence(campaign), kind=ActionKind.CORRECTION, side="",
            payload=payload, reason=reason, actor=by, turn=state.turn, phase=state.phase,
        )  # fmt: skip
        state_save(campaign, state, before)
    return campaign


def campaign_replay(campaign: Campaign, *, upto: int | None = None) -> GameState:
    """Rebuild the game from its seed and its (not undone) actions."""
    state = new_game(GameSetup.from_json(campaign.setup), Dice(campaign.seed))
    actions = campaign.actions.filter(undone=False).order_by("sequence")
    if upto is not None:
        actions = actions.filter(sequence__lte=upto)
    for record in actions:
        if record.kind == ActionKind.CORRECTION:
            _apply_correction(state, record.payload)
        else:
            state.apply(action_from_json(record.payload))
    return state


def campaign_undo_last(*, campaign_id: int, by: User) -> Campaign:
    """Take back the last action: it stays in the record, marked undone, and the state is replayed.

    Everything the action did to the roster comes back off it, or nothing is undone:
    its results (``campaign_action_revert``) and, when it began a new turn, that turn's
    start (pilots back to duty wounded again, replacements off the roster:
    ``campaign_turn_begin_revert``), so re-doing it begins the turn again alike."""
    with transaction.atomic():
        campaign = campaign_locked(campaign_id, None)
        require_organiser(campaign, by)
        last = campaign.actions.filter(undone=False).order_by("-sequence").first()
        if last is None:
            raise RuleViolation("there is nothing to undo", code="state")
        bound, brought = bound_action(last), None
        if bound is not None:  # the experience its pilots brought goes with the action
            brought, last = last, campaign.actions.get(sequence=bound)
        _undo_refusal(campaign, last)
        if campaign.turn > last.turn:  # the turn's start went after the action's results
            in_play = campaign.planes.filter(pilot__isnull=False, left_turn__isnull=True)
            campaign_turn_begin_revert(
                campaign=campaign, campaign_turn=campaign.turn,
                in_play=set(in_play.values_list("pilot_id", flat=True)),
            )  # fmt: skip
        reverted = campaign_action_revert(campaign=campaign, sequence=last.sequence)
        for record in (last, brought):
            if record is not None:
                record.undone, record.undone_by = True, by
                record.save(update_fields=["undone", "undone_by"])
        state = campaign_replay(campaign)
        if brought is not None:
            markers_taken_back(campaign, state, brought)
        if not state.is_over():
            campaign.status, campaign.winner = CampaignStatus.ACTIVE, ""
        state_save(campaign, state, campaign.version)
        quiet = _reverted_planes(campaign, state, reverted)
        sync_planes(campaign, state, actor=getattr(by, "username", ""), quiet=quiet)
        clock.after_change(campaign, state, autoplay=False)
    return campaign


def _undo_refusal(campaign: Campaign, last: CampaignAction) -> None:
    """Refuse (a 400, code ``state``) an undo whose consequences cannot be taken back:
    an engine battle's result (flown and applied to the roster) and the campaign's end
    (its pilots went back to the free roster). What else cannot be taken back (a pilot
    changed since by a later act) is refused by the reverts themselves."""
    payload = last.payload if isinstance(last.payload, dict) else {}
    if payload.get("type") == "result":
        try:
            mode = json.loads(payload.get("result", "{}")).get("mode")
        except (TypeError, ValueError, AttributeError):
            mode = None
        if mode in ("engine", "web"):  # (web: an engine battle flown by people)
            raise RuleViolation(
                "this is the result of an engine battle, flown and applied to the roster: "
                "it cannot be undone (correct PP/ST or the pilots instead)",
                code="state",
            )
    if PilotEvent.objects.filter(campaign=campaign, details__enrolment="released").exists():
        raise RuleViolation(
            "the campaign ended with this action and its pilots went back to the free roster: "
            "it cannot be undone",
            code="state",
        )


def _reverted_planes(
    campaign: Campaign, state: GameState, reverted: list[tuple[str, dict[str, Any]]]
) -> set[str]:
    """The planes whose carried counts or loss were taken back with the undone action:
    their records follow the replayed game, with nothing more to carry or log."""
    carried = {record.get("plane") for key, record in reverted if key.startswith("carry:")}
    for plane in campaign.planes.filter(plane_id__in=carried):
        current = state.planes.get(plane.plane_id) or state.lost.get(plane.plane_id)
        if current is not None:
            plane.xm_recorded, plane.kills_recorded = current["xm"], current["kills"]
            plane.save(update_fields=["xm_recorded", "kills_recorded"])
    return {key.split(":")[2] for key, _ in reverted if key.startswith("card:")}
