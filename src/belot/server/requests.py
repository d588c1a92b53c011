"""The bodies of the HTTP requests (docs/protocol.md) as pydantic models that refuse unknown fields.

`parse` turns a decoded JSON body into its model, or into a `TableError` (HTTP 400) whose message
names the faulty field, so that no malformed request reaches a table (and none ends in a 500).
Whether a valid request may be granted (a free seat, the seat to move) is the table's business.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

from fastapi.exceptions import RequestValidationError
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from ..bots import bot_names
from ..contracts import Rules
from ..errors import shown
from .errors import TableError
from .names import BadName, clean_name
from .settings import HUMAN, MAX_TARGET, Settings, default_bot, seat_kind


class Body(BaseModel):
    """A request body: a JSON object of exactly the fields its model names, of exactly their types."""

    model_config = ConfigDict(extra="forbid", strict=True)


class CreateTable(Body):
    """``POST /api/tables``: the table's settings, and optionally a seat to join at once."""

    target: int = Field(151, ge=1, le=MAX_TARGET)
    # each seat checked on its own, so a refusal names it (``seats.1``), as a seat of the wrong type is
    seats: list[Annotated[str, AfterValidator(seat_kind)]] | None = Field(None, min_length=4, max_length=4)
    names: list[str | None] | None = Field(None, min_length=4, max_length=4)
    substitute: str | None = None
    turn_timer: float | None = Field(None, ge=1, le=3600)
    seat: int | None = Field(None, ge=0, le=3)
    name: str | None = None
    options: list[str] | None = Field(None, max_length=32)

    @field_validator("options")
    @classmethod
    def _options(cls, v: list[str] | None) -> list[str] | None:
        # UnsupportedOption is a ValueError: unknown, refused (OPT-LATE-DECLARE) or exclusive options -> 400
        return None if v is None else list(Rules.from_options(v).options)

    @field_validator("names")
    @classmethod
    def _names(cls, v: list[str | None] | None) -> list[str | None] | None:
        return None if v is None else [None if n is None else clean_name(n, f"names[{i}]") for i, n in enumerate(v)]

    @field_validator("name")
    @classmethod
    def _name(cls, v: str | None) -> str | None:
        return None if v is None else clean_name(v, "name")

    @field_validator("substitute")
    @classmethod
    def _substitute(cls, v: str | None) -> str | None:
        if v is not None and seat_kind(v) == HUMAN:
            raise ValueError("substitute must be a bot level such as \"bot:random\"")
        return None if v is None else seat_kind(v)

    @model_validator(mode="after")
    def _seat_is_human(self) -> CreateTable:
        if self.seat is not None and self.settings().seats[self.seat] != HUMAN:
            raise ValueError(f"seat {self.seat} is not a human seat")
        return self

    def settings(self) -> Settings:
        s = Settings(target=self.target, turn_timer=self.turn_timer)
        if self.seats is not None:
            s.seats = list(self.seats)
        if self.names is not None:
            s.names = list(self.names)
        s.substitute = self.substitute or default_bot()
        s.options = list(self.options or [])
        return s


def rematch_request(settings: Settings) -> CreateTable:
    """The request that creates the rematch of a finished table played under ``settings``, as stored.

    A stored table may name what this server no longer offers: a bot level removed since it was
    played (or any name that is no bot level here), a bound tightened since.  The rematch is then
    refused with 409 ``not_offered`` naming the setting (``detail.field``, and ``detail.bot`` for a
    bot), and nothing is created: the players create a new table instead.
    """
    for field, kind in [*((f"seats[{i}]", k) for i, k in enumerate(settings.seats)), ("substitute", settings.substitute)]:
        if kind == HUMAN and field != "substitute":
            continue
        try:
            seat_kind(kind)
        except ValueError:
            known = ", ".join(f"bot:{n}" for n in bot_names())
            raise TableError("not_offered", f"{field}: {shown(kind)} is not a bot level of this server any more "
                             f"({known}); create a new table", 409,
                             detail={"field": field, "bot": kind if isinstance(kind, str) else None}) from None
    try:
        return CreateTable.model_validate(settings.to_json())
    except ValidationError as e:  # a setting stored under older bounds
        raise TableError("not_offered", f"this server no longer takes the finished table's {describe(e)}; "
                         "create a new table", 409, detail=detail_of(e)) from None


class JoinSeat(Body):
    """``POST /api/tables/{id}/join``: a seat (None: the first free human seat) and a name."""

    seat: int | None = Field(None, ge=0, le=3)
    name: str | None = None

    @field_validator("name")
    @classmethod
    def _name(cls, v: str | None) -> str | None:
        return None if v is None else clean_name(v, "name")


class LeaveSeat(Body):
    """``POST /api/tables/{id}/leave``: the token of the seat given up."""

    token: str | None = None


class ActionRequest(Body):
    """``POST /api/tables/{id}/action``: the acting seat's token, the action, the seq it was chosen at."""

    token: str | None = None
    action: Any = Field(...)  # its shape is the protocol's (protocol.action_from_json), its legality the rules'
    seq: int | None = None


M = TypeVar("M", bound=Body)


def parse(model: type[M], body: Any, code: str = "bad_request") -> M:
    """``body`` as a ``model``; TableError ``code`` (400) naming the first faulty field otherwise."""
    if not isinstance(body, dict):
        raise TableError(code, "the request body must be a JSON object", 400, detail={"reason": "not_object"})
    try:
        return model.model_validate(body)
    except ValidationError as e:
        raise TableError(code, describe(e), 400, detail=detail_of(e)) from None


def describe(e: ValidationError) -> str:
    """The first error of ``e`` as one sentence that names the field: ``target: ...``."""
    first = e.errors()[0]
    where = ".".join(str(x) for x in first["loc"])
    if first["type"] == "extra_forbidden":
        return f"unknown field {where!r}"
    if first["type"] == "missing":
        return f"the body needs {where!r}"
    error = first.get("ctx", {}).get("error")
    if isinstance(error, BadName):  # its message names the field already
        return str(error)
    message = str(error) if first["type"] == "value_error" else first["msg"]
    return f"{where}: {message}" if where else message


# pydantic's error types by the ``reason`` a refusal's detail gives (docs/protocol.md); any other: "invalid".
_REASONS = {"extra_forbidden": "unknown_field", "missing": "missing", "greater_than": "range",
            "greater_than_equal": "range", "less_than": "range", "less_than_equal": "range",
            "too_short": "range", "too_long": "range",
            # a query parameter's text that is no number or yes/no ("?limit=x") is of the wrong type
            "int_parsing": "type", "int_from_float": "type", "float_parsing": "type", "bool_parsing": "type"}


def detail_of(e: ValidationError | RequestValidationError) -> dict[str, Any]:
    """The first error of ``e`` as the fields of a refusal's ``detail``: the ``field`` (as `describe`
    names it), the ``reason``, and the bounds (``min``, ``max``) of a number out of range."""
    first = e.errors()[0]
    error = first.get("ctx", {}).get("error")
    if isinstance(error, BadName):
        return dict(error.detail)
    kind = first["type"]
    reason = _REASONS.get(kind, "type" if kind.endswith("_type") else "invalid")
    detail: dict[str, Any] = {"field": ".".join(str(x) for x in first["loc"]) or None, "reason": reason}
    ctx = first.get("ctx", {})
    for bound, key in (("ge", "min"), ("le", "max")):
        if isinstance(ctx.get(bound), (int, float)):
            detail[key] = ctx[bound]
    return detail


__all__ = ["ActionRequest", "Body", "CreateTable", "JoinSeat", "LeaveSeat", "describe", "detail_of", "parse",
           "rematch_request"]
