"""The errors the rules core raises: every refusal names the rule it applies."""

from __future__ import annotations


class RuleError(ValueError):
    """An action that the rules forbid, e.g. ``QS is not legal: must follow spades (R5.2)``."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.detail = message


class RecordError(ValueError):
    """An invalid record: names the deal, the action (``auction[i]``/``play[i]``) and the rule."""

    def __init__(self, message: str, deal: int | None = None, where: str | None = None) -> None:
        prefix = ""
        if deal is not None:
            prefix = f"deal {deal}, {where}: " if where else f"deal {deal}: "
        super().__init__(prefix + message)
        self.deal = deal
        self.where = where
