"""The API's pages (its own module: DRF's settings import it while angels.api loads)."""

from rest_framework.pagination import LimitOffsetPagination


class Pagination(LimitOffsetPagination):
    """Limit/offset pages of at most ``max_limit`` rows: an unbounded ``?limit=10**25``
    reached the database as an integer it cannot hold (a 500); now it is capped."""

    max_limit = 500
