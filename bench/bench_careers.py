"""Career pages under load: a campaign of 1,000 pilots and 5,000 battles.

Builds its own database (SQLite file in a temporary directory by default;
``DATABASE_URL`` to use PostgreSQL -- the database is created if missing and
must hold no bench campaign yet), bulk-creates the campaign's pilots, one
AppliedResult per battle spread over ``--turns`` campaign turns and their career
events (a mission for each pilot who flew, kills, shoot-downs with survival
rolls), recounts the campaign's and pilots' tallies (a bulk load sends no
signal), runs ANALYZE, then times the leaderboard, pilot, squadron, statistics
and home pages with the Django test client: median ms over ``--requests``
requests each, and the query count of each page.

    .venv/bin/python bench/bench_careers.py --pilots 1000 --battles 5000 --requests 30

``--sizes 1000,10000`` runs one such bench per size (5 battles a pilot), each in
its own process and database (PostgreSQL: ``<name>_p<pilots>``, dropped and
created afresh): all are built first, then timed in alternating rounds (one
request per page per round), and it prints each page's median at every size and
the ratio of the largest to the smallest. ``--baseline PATH`` times another
checkout (e.g. ``git archive`` of an older commit) the same way beside it.
``--reuse`` keeps this tree's databases (SQLite: a file per size in the
temporary directory; PostgreSQL: ``<name>_p<pilots>``) and times them again on
the next run instead of building them afresh (10,000 pilots take minutes).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/angels_bench \
        .venv/bin/python bench/bench_careers.py --sizes 1000,10000
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pilots", type=int, default=1000)
    parser.add_argument("--battles", type=int, default=5000)
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument("--turns", type=int, default=50, help="campaign turns the battles span")
    parser.add_argument("--sizes", help="pilot counts to compare, e.g. 1000,10000")
    parser.add_argument("--baseline", help="another checkout timed alongside (with --sizes)")
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="keep the databases and time them again next run instead of building them afresh "
        "(SQLite: a file per size in the temporary directory; PostgreSQL: <name>_p<pilots>)",
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.sizes:
        _compare(args)
        return
    if args.reuse:
        kept = (
            Path(tempfile.gettempdir())
            / f"angels-bench-careers-{args.pilots}x{args.battles}x{args.turns}.sqlite3"
        )
        os.environ.setdefault("DATABASE_URL", f"sqlite:///{kept}")
    else:
        os.environ.setdefault(
            "DATABASE_URL", f"sqlite:///{tempfile.mkdtemp(prefix='angels-bench-')}/bench.sqlite3"
        )
    os.environ["DJANGO_SETTINGS_MODULE"] = "angels.settings.test"
    import django

    django.setup()
    from django.core import signals
    from django.core.management import call_command
    from django.db import close_old_connections, connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment

    setup_test_environment()
    # Keep one connection for the whole run, as the test suite does (query counts, no reconnects).
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    t0 = time.perf_counter()
    call_command("migrate", verbosity=0, interactive=False)
    ids = _built(args.pilots) if args.reuse else None
    if ids is None:
        ids = _build(args.pilots, args.battles, args.turns)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # planner statistics, as autovacuum would gather in time
    out = sys.stderr if args.serve else sys.stdout
    print(f"database: {connection.vendor}; {'reused' if ids.get('reused') else 'built'} {args.pilots} pilots, {args.battles} battles over "
          f"{args.turns} turns, {ids['events']} career events in {time.perf_counter() - t0:.1f} s",
          file=out)  # fmt: skip

    client = Client()
    pages = {
        "aces leaderboard (page 1)": "/aces/",
        "aces leaderboard, filtered (side, status)": "/aces/?side=axis&status=living",
        "aces leaderboard API": "/api/roster/aces/",
        "pilot page (top ace)": f"/pilots/{ids['top']}/",
        "pilot page (typical)": f"/pilots/{ids['typical']}/",
        "pilot API (top ace)": f"/api/roster/pilots/{ids['top']}/",
        "squadron page": f"/squadrons/{ids['squadron']}/",
        "campaign statistics": f"/statistics/{ids['campaign']}/",
        "home page": "/",
    }
    queries = {}
    for label, url in pages.items():
        connection.queries_log.clear()  # a full log (it is a bounded deque) would count nothing
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200, url
        queries[label] = len(ctx)  # read now: the next request resets the log
    if args.serve:  # one round of every page per line read (the --sizes driver alternates)
        print(json.dumps(queries), flush=True)
        for _ in sys.stdin:
            print(
                json.dumps({label: _timed(client, url) for label, url in pages.items()}), flush=True
            )
        return
    print(f"{'page':45} {'median ms':>10} {'p90 ms':>8} {'queries':>8}", file=out)
    for label, url in pages.items():
        times = sorted(_timed(client, url) for _ in range(args.requests))
        p90 = times[int(len(times) * 0.9) - 1]
        median = statistics.median(times)
        print(f"{label:45} {median:10.1f} {p90:8.1f} {queries[label]:8d}", file=out)


def _timed(client, url: str) -> float:
    start = time.perf_counter()
    client.get(url)
    return (time.perf_counter() - start) * 1000


def _compare(args: argparse.Namespace) -> None:
    """One bench per size (and per tree with --baseline), each in its own process
    and database, built first, then timed in alternating rounds so the machine's
    load falls on every size alike; a table of medians and ratios."""
    url = os.environ.get("DATABASE_URL", "")
    sizes = [int(n) for n in args.sizes.split(",")]
    trees = {"this tree": ROOT} | (
        {"baseline": Path(args.baseline).resolve()} if args.baseline else {}
    )
    runs = {}
    for tree_name, tree in trees.items():
        for pilots in sizes:
            env = dict(os.environ)
            reuse = args.reuse and tree == ROOT  # a baseline tree's bench may not know --reuse
            if url.startswith("postgres"):
                env["DATABASE_URL"] = _fresh_database(
                    url, f"_{'b' if tree != ROOT else 'p'}{pilots}", keep=reuse
                )
            cmd = [sys.executable, str(tree / "bench" / "bench_careers.py"), "--serve", "--pilots", str(pilots),
                   "--battles", str(5 * pilots), "--turns", str(args.turns)] + ["--reuse"] * reuse  # fmt: skip
            runs[(tree_name, pilots)] = subprocess.Popen(
                cmd, cwd=tree, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
            )  # built side by side
    queries = {key: json.loads(run.stdout.readline()) for key, run in runs.items()}  # type: ignore[union-attr]
    times: dict[tuple[str, int], dict[str, list[float]]] = {key: {} for key in runs}
    for i in range(args.requests):
        order = list(runs.items())
        for key, run in order[i % len(order) :] + order[: i % len(order)]:
            run.stdin.write("go\n")  # type: ignore[union-attr]
            run.stdin.flush()  # type: ignore[union-attr]
            for label, ms in json.loads(run.stdout.readline()).items():  # type: ignore[union-attr]
                times[key].setdefault(label, []).append(ms)
    for run in runs.values():
        run.stdin.close()  # type: ignore[union-attr]
        run.wait()
    small, large = sizes[0], sizes[-1]
    for tree_name in trees:
        head = "".join(f"{f'{n:,} ms':>11}" for n in sizes)
        print(f"{tree_name + ': page (median ms)':45}{head} {'ratio':>7} {'queries':>8}")
        for label in queries[(tree_name, small)]:
            med = {n: statistics.median(times[(tree_name, n)][label]) for n in sizes}
            row = "".join(f"{med[n]:11.1f}" for n in sizes)
            count = "/".join(str(queries[(tree_name, n)][label]) for n in sizes)
            print(f"{label:45}{row} {med[large] / med[small]:6.2f}x {count:>8}")


def _fresh_database(url: str, suffix: str, *, keep: bool = False) -> str:
    """``<name><suffix>``, dropped and made afresh (kept if it exists, with ``keep``)."""
    import psycopg

    base, _, name = url.rpartition("/")
    name = f"{name}{suffix}"
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if keep and exists:
            return f"{base}/{name}"
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')  # autovacuum may be in it
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{base}/{name}"


def _built(n_pilots: int) -> dict[str, int] | None:
    """The ids :func:`_build` returns, read from a database it built before
    (``--reuse``); None if it holds no complete bench campaign of this size."""
    from campaign.models import Campaign
    from careers.models import PilotEvent
    from roster.models import Pilot, Squadron

    campaign = Campaign.objects.filter(name="Bench campaign").first()
    pilots = Pilot.objects.filter(name__startswith="Pilot ", squadron__name__startswith="Bench ")
    if campaign is None or pilots.count() != n_pilots:
        return None
    ordered = list(pilots.order_by("pk").values_list("pk", "air_kills"))
    top = max(ordered, key=lambda p: p[1])  # the first of the most, as max() in _build
    return {"top": top[0], "typical": ordered[len(ordered) // 2][0],
            "squadron": Squadron.objects.filter(name__startswith="Bench ").order_by("pk")[0].pk,
            "campaign": campaign.pk, "events": PilotEvent.objects.count(), "reused": 1}  # fmt: skip


def _build(n_pilots: int, n_battles: int, n_turns: int) -> dict[str, int]:
    import random

    from django.contrib.auth import get_user_model
    from django.db import transaction

    from campaign.models import Campaign
    from careers.models import AppliedResult, PilotEvent
    from roster.catalog import catalog_load
    from roster.models import AircraftType, Pilot, Squadron
    from rules.dice import Dice

    catalog_load()
    rng = random.Random(1941)  # the bench's own data, not game dice
    with transaction.atomic():
        Campaign.objects.filter(name="Bench campaign").delete()
        if Squadron.objects.filter(name__startswith="Bench ").exists():
            raise SystemExit(
                "the bench database already holds a bench campaign: point DATABASE_URL at an empty one"
            )
        user, _ = get_user_model().objects.get_or_create(
            username="bench", defaults={"is_staff": True}
        )
        types = {"allied": AircraftType.objects.get(name="Supermarine Spitfire"),
                 "axis": AircraftType.objects.get(name="Messerschmitt Bf 109")}  # fmt: skip
        squadrons = [
            Squadron.objects.create(name=f"Bench {side} {i}", nation="United Kingdom" if side == "allied" else "Germany",
                                    side=side, aircraft_type=types[side], target_strength=50)
            for side in ("allied", "axis") for i in range(n_pilots // 50)
        ]  # fmt: skip
        campaign = Campaign.objects.create(name="Bench campaign", seed=1, created_by=user)
        campaign.squadrons.set(squadrons)
        pilots = Pilot.objects.bulk_create(
            [Pilot(name=f"Pilot {i:04d}", nation=squadrons[i % len(squadrons)].nation, squadron=squadrons[i % len(squadrons)],
                   quality="average", quality_scale="card_game") for i in range(n_pilots)]
        )  # fmt: skip
        by_side = {"allied": [p for p in pilots if p.squadron.side == "allied"],
                   "axis": [p for p in pilots if p.squadron.side == "axis"]}  # fmt: skip
        results = AppliedResult.objects.bulk_create(
            [AppliedResult(source_key=f"bench:{b}", campaign=campaign, mode="engine", battle_ref=f"Battle {b}",
                           campaign_turn=1 + b * n_turns // n_battles, seed=b, record={}) for b in range(n_battles)]
        )  # fmt: skip
        events: list[PilotEvent] = []
        missions: dict[int, int] = {}
        kills: dict[int, int] = {}
        for result in results:
            flown = rng.sample(by_side["allied"], 2) + rng.sample(by_side["axis"], 2)
            common = {"campaign": campaign, "applied_result": result, "campaign_turn": result.campaign_turn,
                      "battle_ref": result.battle_ref}  # fmt: skip
            for pilot in flown:
                missions[pilot.pk] = missions.get(pilot.pk, 0) + 1
                events.append(
                    PilotEvent(
                        pilot=pilot,
                        kind="mission",
                        details={"aircraft": pilot.squadron.aircraft_type.name},
                        **common,
                    )
                )
            if rng.random() < 0.6:
                shooter, victim = (
                    (flown[0], flown[2]) if rng.random() < 0.5 else (flown[2], flown[0])
                )
                kills[shooter.pk] = kills.get(shooter.pk, 0) + 1
                dice = Dice(result.seed)
                die = dice.roll(6, "pilot survival")
                events += [
                    PilotEvent(pilot=shooter, kind="kill", details={"victim": victim.name, "victim_aircraft": victim.squadron.aircraft_type.name, "turn": 3}, **common),
                    PilotEvent(pilot=victim, kind="shot_down", details={"aircraft": victim.squadron.aircraft_type.name}, **common),
                    PilotEvent(pilot=victim, kind="survival_roll", details={"outcome": "returned" if die >= 4 else "wounded"},
                               dice=[["pilot survival", 6, die]], **common),
                ]  # fmt: skip
        PilotEvent.objects.bulk_create(events, batch_size=2000)
        for pilot in pilots:
            pilot.experience_markers, pilot.air_kills = (
                missions.get(pilot.pk, 0),
                kills.get(pilot.pk, 0),
            )
        Pilot.objects.bulk_update(pilots, ["experience_markers", "air_kills"], batch_size=500)
        try:
            from careers import tallies
        except ImportError:  # a baseline tree from before the tallies
            pass
        else:
            tallies.campaign_tallies_rebuild(campaign)
            tallies.pilot_tallies_rebuild([p.pk for p in pilots])
    top = max(pilots, key=lambda p: p.air_kills)
    return {"top": top.pk, "typical": pilots[len(pilots) // 2].pk, "squadron": squadrons[0].pk,
            "campaign": campaign.pk, "events": len(events)}  # fmt: skip


if __name__ == "__main__":
    main()
