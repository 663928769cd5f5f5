"""Moving a campaign between databases (issue 16, "Export and import"): one versioned JSON
document with file-local refs instead of ids (``document``), written by ``exports`` and
loaded, all or nothing, by ``imports``."""

from .document import FORMAT, dumps, seal
from .exports import campaign_export, collect
from .imports import ImportRefused, ImportReport, campaign_import

__all__ = [
    "FORMAT",
    "ImportRefused",
    "ImportReport",
    "campaign_export",
    "campaign_import",
    "collect",
    "dumps",
    "seal",
]
