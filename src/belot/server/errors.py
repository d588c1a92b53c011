"""The one error a request to the server can end in: `TableError`, a code of docs/protocol.md."""

from __future__ import annotations

from typing import Any


class TableError(Exception):
    """A refused request: ``code`` from docs/protocol.md, an English ``message``, the HTTP status."""

    def __init__(self, code: str, message: str, status: int = 409, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.rule = rule

    def to_json(self, seq: int | None = None) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "message": self.message, "rule": self.rule, "seq": seq}


__all__ = ["TableError"]
