"""Rewrite every golden playthrough (tests/<package>/golden/case-<k>.txt) from the reference engines.

Run on purpose after an intended change of a reference engine or its log, then review the diff:
    python -m tests.golden.regenerate            # every registered game
    python -m tests.golden.regenerate daifugo    # one game
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("CARDLAB_GAMES", "toy=tests.toy_game,toy-step=tests.toy_step")  # as tests/conftest.py

from sim.games import available, get_game  # noqa: E402
from tests.golden import cases, path, render  # noqa: E402


def main(names: list[str]) -> None:
    for name in names or available():
        game = get_game(name)
        for file_name, cfg, index in cases(game):
            target = path(game, file_name)
            target.parent.mkdir(parents=True, exist_ok=True)
            text = render(game, cfg, index)
            changed = not target.exists() or target.read_text() != text
            target.write_text(text)
            print(f"{'wrote' if changed else 'unchanged'} {target}")


if __name__ == "__main__":
    main(sys.argv[1:])
