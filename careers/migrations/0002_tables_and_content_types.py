"""The career tables take the careers app's names (``roster_pilotevent`` ->
``careers_pilotevent`` ...): a table rename, every row kept. The content types
of the moved models follow them to the careers app, so admin history
(``LogEntry``) and permissions stay attached."""

from django.db import migrations

MOVED = (
    "appliedresult",
    "awarddefinition",
    "careersettings",
    "claim",
    "pilotaward",
    "pilotevent",
    "tablebattle",
)


def _relabel(apps, source: str, target: str) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in MOVED:
        if ContentType.objects.filter(app_label=target, model=model).exists():
            continue  # already there (e.g. made by a migrate run since): leave it
        ContentType.objects.filter(app_label=source, model=model).update(app_label=target)


def forwards(apps, schema_editor):
    _relabel(apps, "roster", "careers")


def backwards(apps, schema_editor):
    _relabel(apps, "careers", "roster")


class Migration(migrations.Migration):
    dependencies = [
        ("careers", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        *(migrations.AlterModelTable(name=model, table=None) for model in MOVED),
        migrations.RunPython(forwards, backwards),
    ]
