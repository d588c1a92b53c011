"""The one error a request to the server can end in: `TableError`, a code of docs/protocol.md."""

from __future__ import annotations

from typing import Any


class TableError(Exception):
    """A refused request: ``code`` from docs/protocol.md, an English ``message``, the HTTP status.

    ``detail`` holds the refusal's particulars as fields (docs/protocol.md, "detail"), so that a client
    can say them in its own language: ``retry_after`` (whole seconds until trying again may succeed),
    ``limit``, ``field``, ``reason``, ``char`` ... The ``message`` says the same in English.
    """

    def __init__(self, code: str, message: str, status: int = 409, rule: str | None = None,
                 detail: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.rule = rule
        # A field may quote the client's input: a lone surrogate in it would fail the reply's encoding.
        self.detail = {k: _encodable(v) for k, v in (detail or {}).items()}

    def to_json(self, seq: int | None = None) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "message": self.message, "rule": self.rule,
                "detail": self.detail, "seq": seq}

    def http_json(self) -> dict[str, Any]:
        """The body of the HTTP answer refusing a request (docs/protocol.md, "Errors")."""
        return {"error": {"code": self.code, "message": _encodable(self.message), "rule": self.rule,
                          "detail": self.detail}}


def body_too_large(limit: int) -> TableError:
    """A request body over ``limit`` bytes, refused alike by the app and by a worker forwarding it."""
    return TableError("too_large", f"a request body has at most {limit} bytes", 413, detail={"limit": limit})


def _encodable(value: Any) -> Any:
    return value.encode("utf-8", "backslashreplace").decode("utf-8") if isinstance(value, str) else value


__all__ = ["TableError", "body_too_large"]
