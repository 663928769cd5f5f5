"""Cells of the CSVs the product writes, safe to open in a spreadsheet (issue 23).

A text cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return is read by Excel, LibreOffice and Google Sheets as a formula (a pilot
ranked ``=HYPERLINK(...)`` became a live link in ``/aces.csv``). Such a cell is
written with a single quote before it, the OWASP advice ("CSV Injection"): the
spreadsheet shows the text as written, quote hidden. Only text is touched: a
number (``-3``, ``0.5``) is written as the number it is, so sums still work.
Every CSV writer goes through :func:`csv_row` (``careers.print_views._csv``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """``value`` as a CSV cell: text that a spreadsheet would run as a formula gets a ``'``."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_row(values: Iterable[Any]) -> list[Any]:
    """Every cell of a row through :func:`csv_cell`."""
    return [csv_cell(value) for value in values]
