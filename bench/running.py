"""How a bench script ends, shared by them all: its exit status, 130 on Ctrl-C, and quietly when the
reader of its output stops early (``python bench/engine.py | head -3``), as `belot` does, instead of a
BrokenPipeError traceback."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import NoReturn


def run(main: Callable[[], int | None]) -> NoReturn:
    try:
        code = main()
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        # Python would meet the closed pipe again when it flushes stdout on the way out
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 0
    sys.exit(code or 0)
