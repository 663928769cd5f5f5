"""A campaign's slow work in progress (issue 15, "Feedback for slow work"): a selector.

The work is read from the rows that are its source of truth, whoever flies it
(a Celery worker, or a background thread of the web process without a broker,
:mod:`angels.background`):

* the campaign's engine battles (``source_key`` ``campaign:<id>:...``) still
  waiting, being flown (the game turn the computer pilots have reached,
  ``Battle.progress_turn``, of the battle's ``max_turns``) or flown and having
  their result entered into the campaign;
* odds previews of its battles (batches with purpose ``odds:<battle id>``)
  without a summary yet: battles done of those asked for.

The campaign page shows it (``templates/campaign/_work.html``, from the battles the
page has read once, ``campaign.selectors.campaign_battles``) and polls
``GET /api/campaigns/<id>/work/`` while anything is under way; it reloads when a
piece of work is done.
"""

from __future__ import annotations

from typing import Any, TypedDict

from django.db.models import Q

from battles.models import Battle, BattleBatch, BattleStatus


class WorkItem(TypedDict):
    key: str
    kind: str
    text: str
    done: int
    total: int | None
    url: str


def _mission(battle: Battle) -> str:
    """The mission in words (its card's name) as the battle's settings name it, else as the
    page's read of the battles annotated its scenario's name; the id only for a battle
    stored before either."""
    mission = (battle.settings or {}).get("mission")
    if isinstance(mission, dict) and mission.get("name"):
        return str(mission["name"])
    scenario = str(getattr(battle, "scenario_name", "") or "")
    if " (turn " in scenario:  # "<campaign>: <mission> (turn n)"
        return scenario.rsplit(" (turn ", 1)[0].split(": ", 1)[-1]
    return battle.source_key.rsplit(":", 1)[-1]


def _max_turns(battle: Battle) -> int | None:
    """The battle's last game turn (an engagement's settings name it, from its scenario's rules)."""
    turns = (battle.settings or {}).get("max_turns")
    return turns if isinstance(turns, int) and turns > 0 else None


def _battle_item(battle: Battle) -> WorkItem:
    total = _max_turns(battle)
    done = min(battle.progress_turn, total) if total else battle.progress_turn
    if battle.status == BattleStatus.PENDING:
        text, done = "waiting to be flown", 0
    elif battle.status == BattleStatus.RUNNING:
        text = (
            f"game turn {max(done, 1)} of at most {total}" if total else f"game turn {max(done, 1)}"
        )
    else:  # finished, its result not yet entered into the campaign
        text, done = "flown; its result is being entered", total or done
    return {
        "key": f"battle:{battle.pk}",
        "kind": "engine battle",
        "text": f"engine battle for {_mission(battle)}: {text}",
        "done": done,
        "total": total,
        "url": f"/battles/{battle.pk}/",
    }


def _batch_item(batch: BattleBatch, battle_id: int) -> WorkItem:
    done = min(batch.done, batch.runs)
    return {
        "key": f"batch:{batch.pk}",
        "kind": "odds preview",
        "text": f"odds preview of Battle {battle_id}: battles {done} of {batch.runs}",
        "done": done,
        "total": batch.runs,
        "url": f"/battles/batches/{batch.pk}/",
    }


def _under_way(battle: Battle) -> bool:
    """Waiting, being flown, or flown with its result not yet entered (nor failed to be)."""
    if battle.status in (BattleStatus.PENDING, BattleStatus.RUNNING):
        return True
    return (
        battle.status == BattleStatus.FINISHED
        and battle.applied_at is None
        and battle.apply_error == ""
    )


def campaign_work(*, campaign_id: int, battles: list[Battle] | None = None) -> list[WorkItem]:
    """The campaign's work under way, oldest first.

    ``battles``: the campaign's, oldest first, already read (the campaign page's
    ``campaign.selectors.campaign_battles``): one query more for the odds previews.
    Without them, at most three; either way, whatever the campaign's size."""
    prefix = f"campaign:{campaign_id}:"
    if battles is None:
        under_way = Q(status__in=[BattleStatus.PENDING, BattleStatus.RUNNING]) | Q(
            status=BattleStatus.FINISHED, applied_at__isnull=True, apply_error=""
        )
        flying = list(
            Battle.objects.filter(under_way, source_key__startswith=prefix)
            .only("pk", "status", "source_key", "settings", "progress_turn")
            .order_by("created_at", "pk")
        )
    else:
        flying = [b for b in battles if _under_way(b)]
    items: list[WorkItem] = [_battle_item(b) for b in flying]
    odds = list(
        BattleBatch.objects.filter(purpose__startswith="odds:", summary__isnull=True).order_by(
            "created_at", "pk"
        )
    )
    ids = {int(b.purpose.removeprefix("odds:")) for b in odds if b.purpose[5:].isdigit()}
    if battles is not None:
        ours = {b.pk for b in battles} & ids
    elif ids:
        ours = set(
            Battle.objects.filter(pk__in=ids, source_key__startswith=prefix).values_list(
                "pk", flat=True
            )
        )
    else:
        ours = set()
    for batch in odds:
        battle_id = int(batch.purpose[5:]) if batch.purpose[5:].isdigit() else None
        if battle_id in ours:
            items.append(_batch_item(batch, battle_id))
    return items


def work_json(*, campaign_id: int) -> dict[str, Any]:
    items = campaign_work(campaign_id=campaign_id)
    return {"busy": bool(items), "items": items}
