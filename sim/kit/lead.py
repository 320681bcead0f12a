"""Game feel: who leads, how often the lead changes, how far each seat fell behind (each game's
rules page, "Game feel measures", says what its score is and when it is observed). ``Lead``
counts them in the reference engines; a fast engine keeps them in its buffer's ``LeadFields``
and counts the same with ``sim.kit.kernel_util``'s ``start_lead``, ``observe_lead`` and
``record_lead``."""

from __future__ import annotations


class Lead:
    """The sole leader (the strictly lowest score), the lead changes and each seat's largest
    deficit, over the observations made so far."""

    def __init__(self, n: int):
        self.leader = -1  # the last sole leader
        self.now = -1  # the sole leader at the last observation, or -1
        self.since = -1  # the turn from which ``now`` has led without a break
        self.changes = 0
        self.max_behind = [0] * n

    def observe(self, turn: int, scores: dict[int, int]) -> None:
        """One observation at ``turn``; ``scores``: seat -> score of the seats in the race."""
        least = min(scores.values(), default=0)
        lowest = [s for s, x in scores.items() if x == least]
        lead = lowest[0] if len(lowest) == 1 else -1
        for s, x in scores.items():
            self.max_behind[s] = max(self.max_behind[s], x - least)
        if lead != self.now:
            self.now = lead
            if lead >= 0:
                self.since = turn
                self.changes += self.leader >= 0 and lead != self.leader
                self.leader = lead

    def leads_from(self, winner: int) -> int:
        """The turn from which ``winner`` has led without a break, or -1."""
        return self.since if winner >= 0 and self.now == winner else -1

    def columns(self, winner: int) -> dict[str, int]:
        """The games columns for a game won by ``winner`` (-1: none)."""
        return {"lead_changes": self.changes, "leader_from_turn": self.leads_from(winner),
                "winner_max_behind": self.max_behind[winner] if winner >= 0 else -1}


class LeadFields:
    """The game-feel fields of a fast engine's buffer (``sim.kit.layout.Layout``), the state of a
    ``Lead``: the same names, docs and order in every game that has them, declared one after
    another (``NAMES``), so that the compiled functions take the offset of the first (``at``).
    ``score``: what the game's score counts (the fewest leads); ``turn``: what the observations
    are numbered by. They belong to the engine state (a unit's snapshot holds them). Each
    field's offset is the attribute of its name."""

    NAMES = ("leader", "lead_now", "lead_since", "max_behind")
    DOCS = {
        "leader": "game feel: the last sole leader (the fewest {score}), or -1",
        "lead_now": "game feel: the sole leader at the last observation, or -1",
        "lead_since": "game feel: the {turn} from which lead_now has led without a break",
        "max_behind": "game feel: each seat's largest excess of {score} over the fewest",
    }

    def __init__(self, layout, seats: int, score: str, turn: str = "turn"):
        for name in self.NAMES:
            size = seats if name == "max_behind" else 1
            setattr(self, name, layout.block(name, size, self.DOCS[name].format(score=score, turn=turn)))
        self.at = self.leader
