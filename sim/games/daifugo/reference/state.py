"""Reference engine, the game state and its queries (``GameState``): what a game holds, the
§4.0 predicate ``applies(c, p)`` and the rule predicates the other parts and the bots ask
(revolution size, the forbidden finish of §3.7 / DEC-27 and DEC-50, ...), and ``ask``, the one
door through which every decision reaches the agent. The fast engine's twin: ``kernel/state.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from math import comb

from .. import rules as R
from ..plays import JOKER_SINGLE, SET, Fusion, Play
from ..rules import JOKER

# card 20 (§4.20) in hand: the rank a card may also be led as (A as J, 2 as Q, 3 as K)
LEAD_AS = {R.RA: R.RJ, R.R2: R.RQ, R.R3: R.RK}


def param_vector(cfg) -> tuple[int, ...]:
    """``rules.param_vector`` of ``cfg``, worked out once for consecutive games of one
    configuration (a batch plays all its games with one frozen ``RunConfig``, kept here)."""
    if _LAST_CONFIG[0] is not cfg:
        _LAST_CONFIG[:] = [cfg, tuple(R.param_vector(cfg))]
    return _LAST_CONFIG[1]


_LAST_CONFIG: list = [None, ()]  # the configuration last asked for and its parameter vector


class StopRun(Exception):
    """Raised by scripted agents: decisions exhausted (``waiting``) or an illegal decision."""

    def __init__(self, kind: str, info: dict):
        super().__init__(kind)
        self.kind = kind
        self.info = info


@dataclass
class RoundStats:
    """Per-round counters (the ``rounds`` table)."""

    round: int = 0
    law: int = 0
    king: int = -1
    start_player: int = -1
    capital_falls: int = 0
    revolutions: int = 0
    jbacks: int = 0
    eight_cuts: int = 0
    suit_locks: int = 0
    number_locks: int = 0
    geki: int = 0
    forbidden: int = 0
    tricks: int = 0
    plays: int = 0
    passes: int = 0
    trimmed: int = 0
    guard_hit: bool = False
    slip_throughs: int = 0
    equal_plays: int = 0
    three_returns: int = 0
    three_threes: int = 0
    magician_hunts: int = 0
    pull_backs: int = 0
    pulled_cards: int = 0
    ten_discards: int = 0
    ten_discarded: int = 0
    substitutions: int = 0
    forced_jokers: int = 0
    exiled_revolutions: int = 0  # card 17
    af_claims: int = 0  # card 13
    af_fizzles: int = 0
    af_promotions: int = 0
    af_promotions_from_bottom: int = 0
    af_capital_falls: int = 0
    free_gifts: int = 0  # card 08: gifts to the king weaker than the giver's strongest card
    second_joker: int = 0  # card 05: 1 when the second joker is in the game this round
    collusion_swaps: int = 0  # card 12 law: cards given between commoners
    collusion_takes: int = 0  # card 12 precept: take-and-gives made
    flux_swaps: int = 0  # card 18
    fusions: int = 0  # card 02
    counter_revolutions: int = 0
    taboo_breaks: int = 0  # card 04: finishes that would have been forbidden
    recycles: int = 0  # card 01: cards taken from the discard pile
    loopholes: int = 0  # card 24: random discard cards drawn
    dobons: int = 0  # card 25: players who went out by a dobon
    ranking: list = field(default_factory=list)
    points: list = field(default_factory=list)
    bonus: list = field(default_factory=list)
    standing: list = field(default_factory=list)  # game points per seat after this round's scoring

    @property
    def king_kept(self) -> int:
        """The king of the round finished 1st (round >= 2)."""
        return int(self.king >= 0 and bool(self.ranking) and self.ranking[0] == self.king)

class GameState:
    """The state of one game (the round's zones and trick, the game's laws, precepts and
    points) and the queries of the rules; ``driver.Engine`` adds the rules that change it."""

    def __init__(self, cfg, rng, agent, log: list | None = None):
        self.cfg = cfg
        self.pv = param_vector(cfg)
        self.rng = rng
        self.agent = agent
        self.log = log
        self.stop_after_round: int | None = None  # scenarios stop at the end of their round
        self.winners: list[int] = []
        self.n = cfg.players
        self.rounds = self.pv[R.P_ROUNDS]
        self.madness = bool(self.pv[R.P_MADNESS])
        # game state
        self.rule_deck: list[int] = R.rule_deck(cfg)
        self.laws: list[int] = []
        self.owner = [-1] * (R.N_RULE_CARDS + 1)
        self.precept_round = [0] * (R.N_RULE_CARDS + 1)
        self.precept_pick = [0] * (R.N_RULE_CARDS + 1)  # pick position in its round's draft (0 none)
        self.scores = [0] * self.n
        self.rank_pts = [0] * self.n
        self.bonus_pts = [0] * self.n
        self.vp_pts = [0] * self.n
        self.prev_ranking: list[int] | None = None
        self.round_no = 0
        self.start_player = -1
        self.phase = "deal"
        self.history: list[RoundStats] = []
        self.revs_by_seat = [0] * self.n
        self.ff_by_seat = [0] * self.n
        self.total_plays = 0
        self.jokers = 1  # 2 once card 05 added the second joker
        self.trickster_done = False  # card 05 has resolved (once per game, QA-05.1)
        self.decisions = 0  # decisions with two or more options (tables.py: games.decisions)
        self._clear_round()

    def say(self, text: str) -> None:
        """A play-by-play line, kept when the game is logged (``log``; lines that take work to
        build are built only then)."""
        if self.log is not None:
            self.log.append(text)

    def _clear_round(self) -> None:
        self.hands: list[set[int]] = [set() for _ in range(self.n)]
        self.discard: set[int] = set()
        self.undealt: set[int] = set()
        self.removed: set[int] = set()
        self.field: set[int] = set()
        self.top: Play | None = None
        self.top_owner = -1
        self.rev = False
        self.jback = False
        self.suit_lock = 0
        self.num_lock = False
        self.geki_counted = False
        self.hunt = False  # card 11: the magician hunt is on until the field flows
        self.hunt_done: set[int] = set()  # players who played a joker during this hunt
        self.passed: set[int] = set()
        self.active = [True] * self.n
        self.top_list: list[int] = []
        self.bottom_list: list[int] = []
        self.turn = -1
        self.revealed: list[int] = []
        self.draft_left: list[int] = []
        self.exchange_left: list[int] = []
        self.king_give_left: list[int] = []
        self.trim_left: list[int] = []
        self.recycle_used: set[int] = set()  # card 01: players who recycled this round
        self.recycle_pending = False  # card 01: the W-flow / W-trim window opens before the next turn
        self.stats = RoundStats(bonus=[0] * self.n)
        self.af_claim = -1  # card 13: the revolution maker whose win is pending (-1 none)

    @property
    def king(self) -> int:
        """§2.1: 1st of the previous round (none in round 1)."""
        return self.prev_ranking[0] if self.prev_ranking else -1

    @property
    def reversed(self) -> bool:
        """§3.2 / DEC-25: effective reversal R = rev XOR jback."""
        return self.rev != self.jback

    def applies(self, c: int, p: int) -> bool:
        """§4.0 A(c, p): c is a law, or a precept owned by p."""
        return c in self.laws or self.owner[c] == p

    def taboo(self, p: int) -> bool:
        """Card 04 lifts the forbidden finish for p (§4.4): its precept held by p, or its law, which
        under ``taboo_law_scope = commoners`` spares not the reigning king (DEC-54)."""
        if self.owner[R.C04_TABOO] == p:
            return True
        return R.C04_TABOO in self.laws and not (self.pv[R.P_TABOO_COMMONERS] and self.king == p)

    def precept_holder(self, c: int, p: int) -> bool:
        """Precept-only privileges (§4.0): p holds c as a precept."""
        return self.owner[c] == p and c not in self.laws

    def card_in_play(self, c: int) -> bool:
        """Card c is a law or somebody's precept (its windows are open to someone)."""
        return c in self.laws or self.owner[c] >= 0

    def lead_forbidden(self, p: int, rank: int) -> bool:
        """§3.7 for a single of represented ``rank`` led now by p (no previous play)."""
        strongest = 0 if (self.reversed if self.pv[R.P_STRONG_EFF] else self.rev) else 12
        return (rank == strongest
                or (rank == R.R8 and self.pv[R.P_FF_09] and self.applies(R.C09_EIGHT_CUT, p))
                or (rank == R.RJ and self.pv[R.P_FF_19] and self.applies(R.C19_JBACK, p))
                or (rank == R.R10 and self.pv[R.P_FF_03] and self.applies(R.C03_TEN_DISCARD, p))
                or (rank == R.RK and self.pv[R.P_FF_10] and self.applies(R.C10_PULL_BACK, p))
                or (rank == R.RQ and self.pv[R.P_FF_11] and self.applies(R.C11_HUNT, p)))

    def forbidden_finish_card(self, p: int, c: int) -> bool:
        """DEC-50: every way p could lead c alone is a forbidden finish (a joker always; card 20
        lets an A, 2 or 3 be led as J, Q or K too)."""
        if c >= JOKER:
            return True
        r = c // 4
        if not self.lead_forbidden(p, r):
            return False
        return not (r in LEAD_AS and self.applies(R.C20_DESCENT, p)) or self.lead_forbidden(p, LEAD_AS[r])

    def exile_restricts(self, p: int) -> bool:
        """§4.0 / §4.17: card 17 restricts p as a law, or as a precept of another player."""
        c = R.C17_EXILE
        return c in self.laws or self.owner[c] not in (-1, p)

    def exiled(self, p: int, x: Play) -> bool:
        """§4.17 / DEC-44: x is a revolution-size play with a joker that card 17 denies p."""
        return bool(x.jokers) and self.revolution_size(p, x) and self.exile_restricts(p)

    def causes_revolution(self, p: int, x: Play) -> bool:
        """Whether x would toggle ``rev`` when p plays it (§3.5, 17 included)."""
        return self.revolution_size(p, x) and not self.exiled(p, x)

    def revolution_size(self, p: int, x: Play) -> bool:
        """§3.5: 4-card sets, stairs of 4+, and 3-card sets/stairs where card 07 applies (§4.7)."""
        if x.kind == JOKER_SINGLE:
            return False
        if x.count >= 4 or isinstance(x, Fusion):
            return True
        return x.count == 3 and self.applies(R.C07_THREE_REV, p)

    def contains_rank(self, x: Play, rank: int) -> bool:
        """DEC-24: represented rank, wild jokers included when ``wild_triggers_rank_effects``."""
        return rank in x.ranks(bool(self.pv[R.P_WILD_EFFECTS]))

    def rank_count(self, x: Play, rank: int) -> int:
        """Cards of x that represent ``rank`` (DEC-24: wild jokers when they trigger effects)."""
        return sum(1 for r in x.ranks(bool(self.pv[R.P_WILD_EFFECTS])) if r == rank)

    def is_hunt_trigger(self, p: int, x: Play) -> bool:
        """§4.11: a single of represented rank Q (DEC-24 for a wild joker) by a player 11 applies to."""
        return (x.kind == SET and x.count == 1 and not isinstance(x, Fusion) and self.applies(R.C11_HUNT, p)
                and self.contains_rank(x, R.RQ))

    def is_three_return(self, p: int, x: Play, t: Play | None) -> bool:
        """§4.22: a single of represented rank 3 onto a Joker single (not a joker played as a card)."""
        return (t is not None and t.kind == JOKER_SINGLE and x.kind == SET and x.count == 1
                and x.low == R.R3 and self.applies(R.C22_THREE_RETURN, p))

    def is_three_threes(self, p: int, x: Play) -> bool:
        """§4.23: exactly three cards of represented rank 3 (3+3+Joker counts, QA-23.2)."""
        return (x.kind == SET and x.count == 3 and x.low == R.R3 and not isinstance(x, Fusion)
                and self.applies(R.C23_WISDOM, p))

    def is_forbidden(self, p: int, x: Play, t: Play | None, r_before: bool, rev_before: bool, revolted: bool) -> bool:
        """§3.7 / DEC-27: joker; currently strongest rank; a rank effect applying to p (x played
        onto the previous top play t); (DEC-26) a revolution."""
        if x.jokers:
            return True
        strongest = 0 if (r_before if self.pv[R.P_STRONG_EFF] else rev_before) else 12
        if strongest in x.ranks():
            return True
        if self.pv[R.P_FF_09] and self.applies(R.C09_EIGHT_CUT, p) and self.contains_rank(x, R.R8):
            return True
        if self.pv[R.P_FF_19] and self.applies(R.C19_JBACK, p) and self.contains_rank(x, R.RJ):
            return True
        if self.pv[R.P_FF_03] and self.applies(R.C03_TEN_DISCARD, p) and self.contains_rank(x, R.R10):
            return True
        if self.pv[R.P_FF_10] and self.applies(R.C10_PULL_BACK, p) and self.contains_rank(x, R.RK):
            return True
        if self.pv[R.P_FF_11] and self.is_hunt_trigger(p, x):
            return True
        if self.pv[R.P_FF_22] and self.is_three_return(p, x, t):
            return True
        if self.pv[R.P_FF_23] and self.is_three_threes(p, x):
            return True
        return bool(self.pv[R.P_REV_FF]) and revolted

    def finish_forbidden(self, p: int, x: Play, t: Play | None, r_before: bool, rev_before: bool,
                         revolted: bool) -> bool:
        """Whether finishing with x would be forbidden for p: §3.7 unless card 04 applies (§4.4)."""
        return not self.taboo(p) and self.is_forbidden(p, x, t, r_before, rev_before, revolted)

    def next_active(self, seat: int) -> int:
        """Next seat clockwise after ``seat`` whose player still holds cards (-1 if none)."""
        for i in range(1, self.n + 1):
            q = (seat + i) % self.n
            if self.active[q]:
                return q
        return -1

    def n_active(self) -> int:
        return self.active.count(True)

    def ask(self, p: int, kind: str, options):
        """A decision of p: ``agent.decide(engine, seat, kind, legal) -> option``; a single option
        (a list of one) is asked too, but counts as no decision."""
        if not (isinstance(options, list) and len(options) == 1):
            self.decisions += 1
        return self.agent.decide(self, p, kind, options)

    def card_total(self) -> int:
        """Cards in the game: 53, or 54 once the second joker is in (card 05)."""
        return R.BASE_DECK + self.jokers - 1

    def check_invariants(self) -> None:
        """Card conservation (every card in exactly one zone: hands, field, discard, undealt,
        removed) and placements (each player placed at most once; active = not placed)."""
        zones = [*self.hands, self.field, self.discard, self.undealt, self.removed]
        seen: set[int] = set()
        total = 0
        for z in zones:
            total += len(z)
            seen |= z
        assert total == self.card_total() == len(seen), f"card conservation broken: {total} cards"
        placed = self.top_list + self.bottom_list
        assert len(set(placed)) == len(placed), "a player placed twice"
        if self.phase == "play":
            for q in range(self.n):
                assert self.active[q] == (q not in placed), f"P{q} active flag disagrees with placements"
                # a decision inside a play's resolution (the optional 3-card revolution) may come
                # after the player's last cards left the hand and before the finish check (§4.26)
                resolving = q == self.top_owner and q == self.turn
                assert bool(self.hands[q]) or not self.active[q] or resolving, "active player without cards"


class Subsets(Sequence):
    """The options of a decision that gives up or takes cards (trim, ten discard, pull-back):
    every subset of ``cards`` of one of the allowed ``sizes``, by size, then in the order of
    ``itertools.combinations`` over the ascending cards (the step contract's order), listed only
    when indexed; ``most``: the largest size (what the bots read)."""

    def __init__(self, cards, sizes):
        self.cards, self.sizes = sorted(cards), tuple(sizes)
        self.most = max(self.sizes)
        self._listed: list[list[int]] | None = None

    def __len__(self) -> int:
        return sum(comb(len(self.cards), k) for k in self.sizes)

    def __getitem__(self, k):
        if self._listed is None:
            self._listed = [list(c) for size in self.sizes for c in combinations(self.cards, size)]
        return self._listed[k]
