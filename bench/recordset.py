"""Reading a folder of tournament records, shared by the bench scripts that analyse them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from belot import record
from belot.contracts import AT, NT
from belot.game import Match


def kind(contract: int) -> str:
    """The contract kind's name: suit, NT or AT."""
    return "NT" if contract == NT else "AT" if contract == AT else "suit"


def record_files(folder: Path, limit: int = 0) -> list[Path]:
    """The record files (*.json) of ``folder`` in name order, the first ``limit`` (0: all); none
    stops the script with a message."""
    files = sorted(folder.glob("*.json"))[: limit or None]
    if not files:
        raise SystemExit(f"no records (*.json) in {folder}")
    return files


def read(path: Path) -> tuple[dict[str, Any], Match]:
    """A record and its replay; a file that is not a valid record stops the script, naming it."""
    try:
        doc = json.loads(path.read_text())
        return doc, record.replay(doc)
    except ValueError as e:  # bad JSON, or a RecordError naming what is wrong
        raise SystemExit(f"{path}: {e}") from None


def read_all(files: list[Path]) -> Iterator[tuple[dict[str, Any], Match]]:
    """``read`` for each file in turn."""
    for path in files:
        yield read(path)
