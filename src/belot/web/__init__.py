"""The browser UI of `belot serve`: static files only (``static/``: index.html, ES modules, CSS, SVG).

No build step: the server serves ``static/`` at ``/static`` and ``index.html`` for the client-side
routes ``/``, ``/t/{table_id}`` and ``/replay/{table_id}``.  All text comes from the translation
catalogs (``belot/i18n/<lang>/web.json`` and ``game.json``) through ``GET /api/i18n/{lang}``.
"""

from __future__ import annotations

from pathlib import Path

STATIC_DIR = Path(__file__).resolve().parent / "static"
