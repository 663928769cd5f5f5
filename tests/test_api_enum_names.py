"""The API schema names each choice set for what it is (issue 23, item 11): a generated
client inherits these names, so none is a hash (``Side0deEnum``) and generating the
schema warns of no name collision."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from django.core.management import call_command
from drf_spectacular.drainage import GENERATOR_STATS

# drf-spectacular's fallback: field name + the choice set's hash, first character capitalised
# ("Bf9", "0de"); a word that happens to end in hex letters ("PaceEnum") is no hash.
HASHED = re.compile(r"[A-Za-z]+[0-9A-F][0-9a-f]{2}Enum")


def test_schema_enums_have_the_names_a_client_would_choose(tmp_path: Path, capsys):
    GENERATOR_STATS.reset()  # warnings already shown in this process are not printed twice
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--file", str(out), "--validate")
    printed = capsys.readouterr().err
    assert "enum naming" not in printed and "same choice set" not in printed, printed

    schemas = yaml.safe_load(out.read_text())["components"]["schemas"]
    enums = {name for name, schema in schemas.items() if "enum" in schema}
    assert HASHED.fullmatch("Side0deEnum") and HASHED.fullmatch("StatusBf9Enum")
    assert not {name for name in enums if HASHED.fullmatch(name)}
    assert {
        "SideEnum",
        "CampaignSideEnum",
        "BattleStatusEnum",
        "PilotStatusEnum",
        "InvitationStatusEnum",
        "PilotEventKindEnum",
        "TableBattleTerritoryEnum",
        "EngagementTerritoryEnum",
        "QualityEnum",
    } <= enums

    def enum_of(component: str, field: str) -> str:
        prop = schemas[component]["properties"][field]
        refs = [prop.get("$ref"), *(p.get("$ref") for p in prop.get("allOf", []))]
        return next(r for r in refs if r).rsplit("/", 1)[1]

    assert enum_of("BattleOutput", "status") == "BattleStatusEnum"
    assert enum_of("SquadronOutput", "side") == "SideEnum"
    assert enum_of("PilotOutput", "status") == "PilotStatusEnum"
    assert enum_of("TableBattleInput", "territory") == "TableBattleTerritoryEnum"
