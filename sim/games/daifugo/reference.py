"""Reference engine: a readable, decision-driven implementation of the spec.

One method per rule, citing spec sections and DEC-… ids. Every player decision goes
through ``agent.decide(engine, player, kind, options)``; bots (``bots.py``) and scripted
decision lists (scenarios) are interchangeable. A decision with a single option is applied
without asking.

Decision kinds and their options:
  ``draft``      revealed rule card ids (D1)       ``give``  tied strongest cards (D2)
  ``king_give``  the king's hand, ascending (D3)   ``trim``  int: most cards that may go (D6)
  ``start``      seats 0..N-1 (D7)                 ``play``  [None (= pass)] + legal plays (D8/D9)
  ``revolt``     [False, True] (card 07 when ``three_card_revolution_optional``)
  ``pull_back``  (most, cards of the previous play): the cards taken, a list (D11, card 10)
  ``ten_discard`` int: most cards that may go; the cards discarded, a list (D12, card 03)
  ``flux``       [False, True] (D13, card 18 precept: exchange hands after the holder's revolution)

Plays made through a card's permission (06 slip-through, 16 equal strength, 22 three return,
23 three 3s) and card-02 fusions (``plays.Fusion``: the added cards, the fused play as
``whole``) are ordinary ``play`` options; during a magician hunt (11) the Joker single is
the only option of a joker holder (D10, applied without asking).

Rule cards: ``applies(c, p)`` is the §4.0 predicate ``A(c, p)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import rules as R
from .plays import (JOKER_SINGLE, SET, STAIRS, Fusion, Play, beats, equal, fusions_of, joker_single, one_step,
                    sets_of, stairs_of, strength, value)
from .post_exchange import collusion_law, collusion_precept, give_second_joker, resolve_trickster
from .reference_outturn import OutOfTurnRules
from .rules import JOKER


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


class Engine(OutOfTurnRules):
    """Game state plus the rules; ``run()`` plays from the current phase to the end."""

    PHASES = ("deal", "draft", "exchange", "king_give", "post_exchange", "collusion", "collusion_precept", "trim",
              "start", "play", "score", "over")

    def __init__(self, cfg, rng, agent, log: list | None = None):
        self.cfg = cfg
        self.pv = R.param_vector(cfg)
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

    # ------------------------------------------------------------------ helpers
    def say(self, text: str) -> None:
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

    def precept_holder(self, c: int, p: int) -> bool:
        """Precept-only privileges (§4.0): p holds c as a precept."""
        return self.owner[c] == p and c not in self.laws

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

    def next_active(self, seat: int) -> int:
        """Next seat clockwise after ``seat`` whose player still holds cards (-1 if none)."""
        for i in range(1, self.n + 1):
            q = (seat + i) % self.n
            if self.active[q]:
                return q
        return -1

    def n_active(self) -> int:
        return sum(self.active)

    def ask(self, p: int, kind: str, options):
        """A decision of p; a single option is applied without asking (the agent is told)."""
        if isinstance(options, list) and len(options) == 1:
            self.forced(p, kind, options[0])
            return options[0]
        self.decisions += 1
        return self.agent.decide(self, p, kind, options)

    def forced(self, p: int, kind: str, choice) -> None:
        """Tell the agent (if it listens) that p's decision had only one option."""
        hook = getattr(self.agent, "forced", None)
        if hook is not None:
            hook(self, p, kind, choice)

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

    # ------------------------------------------------------------------ game flow
    def run(self) -> None:
        """Play from the current phase to the end of the game (§2.3 phases, §2.15).

        Every phase keeps its pending work in the state (``draft_left``, ``exchange_left``,
        ``king_give_left``, ``trim_left``), so a run can stop at any decision and resume."""
        while self.phase != "over":
            getattr(self, "phase_" + self.phase)()
            if self.phase == "deal" and self.stop_after_round == self.round_no:
                return
        self.finish_game()

    def start_game(self) -> None:
        """§2.2: the rule deck is shuffled once at the start of the game."""
        self.rng.shuffle(self.rule_deck)

    def phase_deal(self) -> None:
        """§2.3 phases 1-2: new round, deal, law; round 1 fixes the start player first (DEC-10)."""
        self.round_no += 1
        self._clear_round()
        self.stats.king = self.king
        self.stats.round = self.round_no
        if self.round_no == 1:
            self.start_player = self.rng.randbelow(self.n)
        self.deal()
        self.law_phase()
        self.phase = "draft"
        if self.madness:
            self.revealed = self.rule_deck[:self.n]
            del self.rule_deck[:self.n]
            self.draft_left = self.draft_order() if self.revealed else []

    def phase_draft(self) -> None:
        """§2.6: each player in draft order takes one revealed card as a precept (DEC-3: while any remain)."""
        while self.draft_left and self.revealed:
            p = self.draft_left[0]
            c = self.ask(p, "draft", list(self.revealed))
            self.revealed.remove(c)
            self.owner[c] = p
            self.precept_pick[c] = 1 + sum(1 for d in range(1, R.N_RULE_CARDS + 1)
                                           if self.owner[d] >= 0 and self.precept_round[d] == self.round_no)
            self.precept_round[c] = self.round_no
            if c == R.C05_TRICKSTER and self.pv[R.P_05_ON_DRAFT] and not self.trickster_done:
                give_second_joker(self, p)  # DEC-33 variant: the joker arrives when drafted
            self.draft_left.pop(0)
            self.say(f"P{p} drafts precept {c:02d} {R.CARD_NAMES[c]}")
        self.revealed, self.draft_left = [], []
        self.phase = "exchange"
        self.exchange_left = [(self.king + i) % self.n for i in range(1, self.n)] if self.round_no > 1 else []

    def phase_exchange(self) -> None:
        """§2.7 step 1: each commoner gives the king the strongest card (giver picks among ties,
        DEC-7); card 08 (§4.8: law, or the giver's precept) lets the giver give any card."""
        k = self.king
        while self.exchange_left:
            c = self.exchange_left[0]
            x = self.ask(c, "give", self.gift_options(c))
            if self.applies(R.C08_METAMORPHOSIS, c) and self.exchange_value(x) < self.strongest_value(c):
                self.stats.free_gifts += 1
            self.hands[c].remove(x)
            self.hands[k].add(x)
            self.exchange_left.pop(0)
            self.say(f"P{c} gives {R.pretty(x)} to king P{k}")
        self.phase = "king_give"
        self.king_give_left = [(k + i) % self.n for i in range(1, self.n)] if self.round_no > 1 else []

    def phase_king_give(self) -> None:
        """§2.7 step 2: the king gives one card of choice to each commoner, clockwise."""
        k = self.king
        while self.king_give_left:
            c = self.king_give_left[0]
            x = self.ask(k, "king_give", sorted(self.hands[k]))
            self.hands[k].remove(x)
            self.hands[c].add(x)
            self.king_give_left.pop(0)
            self.say(f"king P{k} gives {R.pretty(x)} to P{c}")
        self.phase = "post_exchange"

    def phase_post_exchange(self) -> None:
        """§2.8 step 1 / DEC-4: card 05 Trickster (post_exchange.py)."""
        resolve_trickster(self)
        self.phase = "collusion"

    def phase_collusion(self) -> None:
        """§2.8 step 2: card 12 law, the commoners' swaps (post_exchange.py)."""
        collusion_law(self)
        self.phase = "collusion_precept"

    def phase_collusion_precept(self) -> None:
        """§2.8 step 3: card 12 precept, the holder's take-and-give (post_exchange.py)."""
        collusion_precept(self)
        self.phase = "trim"
        self.trim_left = list(range(self.n))

    def phase_trim(self) -> None:
        """§2.9 / DEC-9: each player may discard down to ``trim_to`` cards, face up."""
        while self.trim_left:
            p = self.trim_left[0]
            most = max(0, len(self.hands[p]) - self.pv[R.P_TRIM_TO])
            if not most:
                self.forced(p, "trim", [])
            else:
                self.decisions += 1
                cards = self.agent.decide(self, p, "trim", most)
                for x in cards:
                    self.hands[p].remove(x)
                    self.discard.add(x)
                self.stats.trimmed += len(cards)
                if cards:
                    self.say(f"P{p} trims {' '.join(R.pretty(x) for x in sorted(cards))}")
            self.trim_left.pop(0)
        self.phase = "start"

    def phase_start(self) -> None:
        """§2.10: round >= 2 the last-placed player names the start player."""
        if self.round_no > 1:
            self.start_player = self.ask(self.prev_ranking[-1], "start", list(range(self.n)))
        self.stats.start_player = self.start_player
        self.turn = self.start_player
        self.say(f"round {self.round_no}: start player P{self.start_player}")
        self.recycle_pending = True  # card 01 W-trim (DEC-29)
        self.phase = "play"

    def phase_play(self) -> None:
        self.play_round()
        self.phase = "score"

    def phase_score(self) -> None:
        self.score_round()
        self.phase = "deal" if self.round_no < self.rounds else "over"

    def deal(self) -> None:
        """§2.4: shuffle the 53 cards, deal 10 (8 with six players) to each; the rest set aside (DEC-1)."""
        deck = list(range(self.card_total()))
        self.rng.shuffle(deck)
        h = self.pv[R.P_HAND]
        for p in range(self.n):
            self.hands[p] = set(deck[p * h:(p + 1) * h])
        self.undealt = set(deck[self.n * h:])

    def law_phase(self) -> None:
        """§2.5: reveal the top rule card as a law (DEC-3: nothing if the deck is empty)."""
        if self.rule_deck:
            c = self.rule_deck.pop(0)
            self.laws.append(c)
            self.stats.law = c
            self.say(f"law {c:02d} {R.CARD_NAMES[c]}")

    def draft_order(self) -> list[int]:
        """§2.6 / DEC-5 / DEC-6: round 1 random first picker clockwise; later last place first."""
        if self.round_no == 1:
            first = self.rng.randbelow(self.n)
            return [(first + i) % self.n for i in range(self.n)]
        if self.pv[R.P_DRAFT_CW]:
            last = self.prev_ranking[-1]
            return [(last + i) % self.n for i in range(self.n)]
        return list(reversed(self.prev_ranking))

    def strongest_value(self, p: int) -> int:
        return max(self.exchange_value(x) for x in self.hands[p])

    def gift_options(self, p: int) -> list[int]:
        """§2.7 / §4.8: the tied strongest cards of p's hand, or (card 08) the whole hand."""
        if self.applies(R.C08_METAMORPHOSIS, p):
            return sorted(self.hands[p])
        best = self.strongest_value(p)
        return sorted(x for x in self.hands[p] if self.exchange_value(x) == best)

    @staticmethod
    def exchange_value(c: int) -> int:
        """§2.7: normal order, Joker strongest (revolution never applies here)."""
        return 13 if c >= JOKER else c // 4

    # ------------------------------------------------------------------ play phase
    def play_round(self) -> None:
        """§2.11-§2.13: turns until at most one player holds cards (or the play-count guard)."""
        while self.n_active() > 1:
            if self.recycle_pending:
                self.window_recycle()
            if self.stats.plays >= self.pv[R.P_MAX_PLAYS]:
                self.loop_guard()
                break
            self.take_turn(self.turn)
        self.end_round()

    def legal_plays(self, p: int) -> list[Play]:
        """§3.3 + locks + card permissions (06, 16, 22, 23): every legal play for p now, one
        canonical representation each, in the canonical order."""
        lone = bool(self.pv[R.P_LONE_WILD])
        hand = self.hands[p]
        t = self.top
        subs = self.applies(R.C20_DESCENT, p)
        if t is None:
            out = sets_of(hand, (1, 2, 3, 4), 0, lone, subs=subs)
            if self.may_lead_stairs(p):
                out += stairs_of(hand, None, subs)
            out += joker_single(hand)
            return self.exile_filter(p, sorted(out, key=Play.key))
        rv = self.reversed
        cand = []
        if self.applies(R.C23_WISDOM, p):
            cand += sets_of(hand, (3,), self.suit_lock, lone, [R.R3])
        if t.kind == JOKER_SINGLE:
            if self.applies(R.C22_THREE_RETURN, p):
                cand += sets_of(hand, (1,), self.suit_lock, lone, [R.R3])
            cand += joker_single(hand)
        elif t.kind == SET:
            counts = {t.count, 1, 2, 3, 4} if self.applies(R.C06_SLIP, p) else {t.count}
            at_least = [r for r in range(13) if strength(r, rv) >= strength(t.low, rv)]
            cand += sets_of(hand, sorted(counts), self.suit_lock, lone, at_least, subs)
            cand += joker_single(hand)
        elif self.may_follow_stairs(p):
            cand += stairs_of(hand, t.count, subs)
        out = {x: None for x in cand if self.may_play(p, x)}
        out.update({x: None for x in self.fusion_plays(p)})
        return self.exile_filter(p, sorted(out, key=Play.key))

    def fusion_plays(self, p: int) -> list[Fusion]:
        """S0 / §4.2 / DEC-30: card-02 fusions of p onto the top play: revolution-size for p
        (4-sets; 3-sets with 07; stairs of 4+, 3 with 07, where p may play stairs); not onto a
        Joker single; no joker when 17 restricts p (QA-02.3); locks only with
        ``fusion_respects_locks`` (then no fusion while a lock binds p)."""
        t = self.top
        if t is None or t.kind == JOKER_SINGLE or not self.applies(R.C02_FUSION, p):
            return []
        if self.pv[R.P_FUSION_LOCKS] and ((self.suit_lock and not self.precept_holder(R.C14_SUIT_LOCK, p))
                                          or (self.num_lock and not self.precept_holder(R.C15_NUMBER_LOCK, p))):
            return []
        three = self.applies(R.C07_THREE_REV, p)
        stairs = (t.kind == STAIRS and self.may_follow_stairs(p)) or (
            t.kind == SET and t.count == 1 and self.applies(R.C21_STAIRS, p))
        return fusions_of(self.hands[p], t, (3, 4) if three else (4,), (3 if three else 4) if stairs else 0,
                          not self.exile_restricts(p))

    def exile_filter(self, p: int, plays: list[Play]) -> list[Play]:
        """DEC-44 variant ``exile_mode = illegal``: joker revolutions of restricted players are not legal."""
        if not self.pv[R.P_EXILE_ILLEGAL] or not self.exile_restricts(p):
            return plays
        return [x for x in plays if not self.exiled(p, x)]

    def is_legal(self, p: int, x: Play) -> bool:
        """Whether p may make play x now, for any representation of its jokers (the same
        rules as ``legal_plays``, which lists one canonical representation per play)."""
        if any(c not in self.hands[p] for c in x.cards):
            return False
        if x.kind == SET and x.count == 1 and x.jokers and not self.pv[R.P_LONE_WILD]:
            return False  # DEC-23 variant: a lone joker is only the Joker
        if x.substitutes and not self.applies(R.C20_DESCENT, p):
            return False  # §4.20: A as J, 2 as Q, 3 as K only with card 20
        if self.pv[R.P_EXILE_ILLEGAL] and self.exiled(p, x):
            return False  # DEC-44 variant
        if self.top is None:
            return x.kind != STAIRS or self.may_lead_stairs(p)
        if x.kind != JOKER_SINGLE and self.hunt_forces(p, self.legal_plays(p)):
            return False
        return self.may_play(p, x)

    def may_play(self, p: int, x: Play) -> bool:
        """S0 of §4.26 for a follow: beating (§3.3) or a card's permission, then the locks."""
        t = self.top
        if self.is_three_threes(p, x):
            return True  # 23: on anything, ignoring count, strength and locks (DEC-49)
        if t.kind == JOKER_SINGLE:
            if self.is_three_return(p, x, t):
                return True  # 22: ignores locks (DEC-48)
            return x.kind == JOKER_SINGLE and self.may_play_equal(p)  # 16: Joker on Joker
        if x.kind == STAIRS and not self.may_follow_stairs(p):
            return False
        rv = self.reversed
        if not (beats(x, t, rv) or self.is_slip(p, x, t) or (self.may_play_equal(p) and equal(x, t, rv))):
            return False
        return self.locks_allow(p, x)

    def may_play_equal(self, p: int) -> bool:
        """§4.16: card 16 lets p match the top play's strength, never under a number lock."""
        return self.applies(R.C16_SAMENESS, p) and not self.num_lock

    def is_slip(self, p: int, x: Play, t: Play) -> bool:
        """§4.6 / DEC-34: with 06, a single (or the Joker) onto a set, or a set onto a single,
        still stronger rank against rank; never with stairs (QA-06.1)."""
        return self.slip_shape(p, x, t) and value(x, self.reversed) > value(t, self.reversed)

    def slip_shape(self, p: int, x: Play, t: Play) -> bool:
        """06 applies to p and x is a single on a set or a set on a single (sets of different
        sizes cannot replace each other)."""
        if not self.applies(R.C06_SLIP, p) or t.kind != SET or x.kind == STAIRS or x.count == t.count:
            return False
        return x.count == 1 or t.count == 1

    def is_three_return(self, p: int, x: Play, t: Play | None) -> bool:
        """§4.22: a single of represented rank 3 onto a Joker single (not a joker played as a card)."""
        return (t is not None and t.kind == JOKER_SINGLE and x.kind == SET and x.count == 1
                and x.low == R.R3 and self.applies(R.C22_THREE_RETURN, p))

    def is_three_threes(self, p: int, x: Play) -> bool:
        """§4.23: exactly three cards of represented rank 3 (3+3+Joker counts, QA-23.2)."""
        return (x.kind == SET and x.count == 3 and x.low == R.R3 and not isinstance(x, Fusion)
                and self.applies(R.C23_WISDOM, p))

    def may_lead_stairs(self, p: int) -> bool:
        """§4.21: stairs exist only through card 21 (law: everyone; precept: the holder leads)."""
        return self.applies(R.C21_STAIRS, p)

    def may_follow_stairs(self, p: int) -> bool:
        """DEC-47: with the 21 precept, others may follow the holder's stairs (configurable)."""
        if self.applies(R.C21_STAIRS, p):
            return True
        return self.owner[R.C21_STAIRS] >= 0 and bool(self.pv[R.P_21_FOLLOW])

    def locks_allow(self, p: int, x: Play) -> bool:
        """§4.14 / §4.15: locked suits must be present; number lock needs the next rank.
        Precept holders ignore their lock (QA-14.3, QA-15.2); the Joker single is exempt
        from the suit lock (QA-14.2) and, by DEC-43, from the number lock."""
        if x.kind == JOKER_SINGLE:
            return not (self.num_lock and not self.pv[R.P_JOKER_NUMLOCK]
                        and not self.precept_holder(R.C15_NUMBER_LOCK, p))
        if self.suit_lock and not self.precept_holder(R.C14_SUIT_LOCK, p):
            if x.suits & self.suit_lock != self.suit_lock:
                return False
        if self.num_lock and not self.precept_holder(R.C15_NUMBER_LOCK, p):
            if not one_step(x, self.top, self.reversed):
                return False
        return True

    def why_illegal(self, p: int, x: Play) -> str:
        """A readable reason why play x is not legal for p now (scenario reports)."""
        t = self.top
        if x.kind == SET and x.count == 1 and x.jokers and not self.pv[R.P_LONE_WILD]:
            return "a lone joker is only the Joker (lone_joker_wild is off)"
        if x.substitutes and not self.applies(R.C20_DESCENT, p):
            return "an A as J, a 2 as Q or a 3 as K needs card 20"
        if self.pv[R.P_EXILE_ILLEGAL] and self.exiled(p, x):
            return "magician exile: no revolution with a joker (card 17, exile_mode = illegal)"
        if x.kind == STAIRS and t is None and not self.may_lead_stairs(p):
            return "stairs need card 21 (law, or the holder's precept to lead)"
        if t is None:
            return "not a legal lead"
        if x.kind != JOKER_SINGLE and self.hunt_forces(p, self.legal_plays(p)):
            return "magician hunt: a joker must be played as the Joker (card 11)"
        if t.kind == JOKER_SINGLE:
            return "nothing beats a Joker single here"
        if x.kind == STAIRS and not self.may_follow_stairs(p):
            return "stairs need card 21"
        rv = self.reversed
        slip = self.is_slip(p, x, t)
        shape = self.slip_shape(p, x, t)
        if x.kind == JOKER_SINGLE and not (t.kind == SET and t.count == 1) and not shape:
            return f"must match the top play's type and count ({t.count} card(s)): a Joker single goes on singles"
        if x.kind != JOKER_SINGLE and (x.kind != t.kind or x.count != t.count) and not shape:
            return f"must match the top play's type and count ({t.count} card(s))"
        if equal(x, t, rv) and self.applies(R.C16_SAMENESS, p) and self.num_lock:
            return "number lock: no equal-strength plays (card 16)"
        if not (beats(x, t, rv) or slip or (self.may_play_equal(p) and equal(x, t, rv))):
            return "does not beat the top play"
        if not self.locks_allow(p, x):
            # the card-15 precept holder ignores the number lock: then the suit lock refuses it
            num_binds = self.num_lock and not self.precept_holder(R.C15_NUMBER_LOCK, p)
            if num_binds and (x.kind == JOKER_SINGLE or not one_step(x, t, self.reversed)):
                return "number lock: must be exactly one rank stronger"
            return "suit lock: must contain " + "".join(R.SUIT_SYMBOLS[s] for s in range(4) if self.suit_lock >> s & 1)
        return "not a legal play"

    def take_turn(self, p: int) -> None:
        """§2.11.1-2: the leader must play; a follower plays a beating combination or passes
        (after the turn-start windows of cards 25, 24, 01)."""
        if self.start_of_turn(p):
            return
        moves = self.legal_plays(p)
        if self.hunt_forces(p, moves):  # D10: exactly one Joker single, no pass (§4.11)
            options: list = [m for m in moves if m.kind == JOKER_SINGLE]
            self.stats.forced_jokers += 1
        else:
            options = moves if self.top is None else [None, *moves]
        choice = self.ask(p, "play", options)
        if choice is None:
            self.pass_turn(p)
        else:
            self.make_play(p, choice)

    def hunt_forces(self, p: int, moves: list[Play]) -> bool:
        """§4.11 / DEC-37: during the hunt a joker holder who has not played a joker in it must
        play one Joker single when that is legal for them (two jokers: one only, QA-11.1)."""
        return self.hunt and p not in self.hunt_done and any(m.kind == JOKER_SINGLE for m in moves)

    def pass_turn(self, p: int) -> None:
        """§2.11.3 / DEC-11: a pass; with lock-out the player sits out the rest of the trick."""
        self.passed.add(p)
        self.stats.passes += 1
        self.say(f"P{p} passes")
        self.next_turn(p)

    def next_turn(self, p: int) -> None:
        """§2.11.4 (a)/(b): next active, not passed player; reaching the owner (or nobody) flows."""
        if self.n_active() <= 1:
            return
        owner = self.top_owner
        for i in range(1, self.n + 1):
            q = (p + i) % self.n
            if self.active[q] and q not in self.passed:
                if q == owner:
                    self.flow(owner)
                else:
                    self.turn = q
                return
        self.flow(self.next_active(owner))  # DEC-12

    def flow(self, leader: int) -> None:
        """§2.11.5: field to the discard pile; J-back, locks, passes cleared; revolution stays."""
        self.discard |= self.field
        self.field = set()
        self.top = None
        self.top_owner = -1
        self.jback = False
        self.suit_lock = 0
        self.num_lock = False
        self.geki_counted = False
        self.hunt = False
        self.hunt_done = set()
        self.passed = set()
        if self.pv[R.P_AF_MODE] == R.AF_TRICK_END:
            self.confirm_claim()  # §2.11.5 step 3
        if leader >= 0 and not self.active[leader]:
            leader = self.next_active(leader)  # §2.11.6: the promoted claimant left the round
        self.turn = leader
        self.recycle_pending = True  # §2.11.5 step 4: the card-01 window
        self.say(f"field flows; P{leader} leads" if leader >= 0 else "field flows")

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

    def make_play(self, p: int, x: Play) -> None:
        """§4.26 on-play resolution order S1-S11 (steps of unimplemented cards are no-ops)."""
        t = self.top
        r_before, rev_before = self.reversed, self.rev
        fused = isinstance(x, Fusion)  # card 02: x holds the added cards, the top becomes x.whole
        # S1: cards to the field; X is the new top play
        for c in x.cards:
            self.hands[p].remove(c)
        self.field |= set(x.cards)
        self.top, self.top_owner = (x.whole if fused else x), p
        self.stats.plays += 1
        self.total_plays += 1
        self.stats.substitutions += x.substitutes
        if t is None:
            self.stats.tricks += 1
        elif fused:
            self.stats.fusions += 1
        else:
            self.count_special_play(p, x, t, r_before)
        if not self.pv[R.P_LOCKOUT]:
            self.passed = set()
        self.say(f"P{p} {'fuses' if fused else 'plays'} {x.text()}")
        revolted = self.step_revolution(p, x)  # S2 (and the 13 claim)
        self.step_jback(p, x)  # S3 (a fusion: the added cards only, DEC-31)
        if not fused:
            self.step_pull_back(p, x, t)  # S4 (never on a fusion, DEC-31)
        emptied = self.step_ten_discard(p, x)  # S5
        self.step_hunt(p, x)  # S6
        self.step_flux(p, revolted)  # S7
        if t is not None and not fused:
            self.step_locks(p, x, t, r_before)  # S8 (a fusion completes the top play: no lock)
        forbidden = False
        if not self.hands[p]:
            forbidden = self.step_finish(p, x, t, r_before, rev_before, revolted, emptied)  # S9
        if self.pv[R.P_AF_MODE] == R.AF_IMMEDIATE:
            self.confirm_claim()  # DEC-39 variant: the claim is won once the play has resolved
        if self.n_active() <= 1:
            return
        if self.step_flow_effects(p, x, t):  # S10
            return
        if forbidden and self.pv[R.P_FF_FLOWS]:  # DEC-15 variant
            self.flow(self.next_active(p))
            return
        if self.window_dobon(p):  # S11
            return
        self.next_turn(p)

    def count_special_play(self, p: int, x: Play, t: Play, r_before: bool) -> None:
        """§7 counters of plays made through a card's permission (06 slip-through, 16 equal)."""
        if x.kind != STAIRS and t.kind != STAIRS and x.count != t.count and not self.is_three_threes(p, x):
            self.stats.slip_throughs += 1
        elif x.kind == t.kind and x.count == t.count and value(x, r_before) == value(t, r_before):
            self.stats.equal_plays += 1

    def step_flow_effects(self, p: int, x: Play, t: Play | None) -> bool:
        """S10: eight cut (09), three return (22), three 3s (23) flow the field; the player
        who made the play leads (the next active player if they went out). Returns flowed."""
        if self.applies(R.C09_EIGHT_CUT, p) and self.contains_rank(x, R.R8):
            self.stats.eight_cuts += 1
            self.say("eight cut")
        elif self.is_three_return(p, x, t):
            self.stats.three_returns += 1
            self.say("three return")
        elif self.is_three_threes(p, x):
            self.stats.three_threes += 1
            self.say("three 3s")
        else:
            return False
        self.flow(p if self.active[p] else self.next_active(p))
        return True

    def step_revolution(self, p: int, x: Play) -> bool:
        """S2 / §3.5 / §4.7: toggle ``rev`` for a revolution-size play (DEC-35 optional 3-card)."""
        if not self.revolution_size(p, x):
            return False
        if self.exiled(p, x):
            self.stats.exiled_revolutions += 1
            self.say("magician exile: no revolution with a joker")
            return False
        if x.count == 3 and self.pv[R.P_07_OPTIONAL] and not isinstance(x, Fusion) and not self.ask(
                p, "revolt", [False, True]):
            return False
        if self.rev:
            self.stats.counter_revolutions += 1
        self.rev = not self.rev
        self.stats.revolutions += 1
        self.revs_by_seat[p] += 1
        self.say("revolution" if self.rev else "counter-revolution")
        self.claim_armed_force(p)
        return True

    def step_flux(self, p: int, revolted: bool) -> None:
        """S7 / §4.18 / DEC-45: after p's revolution (not after p went out) p swaps hands with the
        next active player (``rotate_all``: every active hand moves one seat clockwise); the
        precept is the holder's option (D13), the law is mandatory."""
        if not revolted or not self.hands[p] or not self.applies(R.C18_FLUX, p):
            return
        if R.C18_FLUX not in self.laws and not self.ask(p, "flux", [False, True]):
            return
        seats = [q for q in range(self.n) if self.active[q]]
        if not self.pv[R.P_FLUX_ROTATE]:
            seats = [p, self.next_active(p)]
        if len(set(seats)) < 2:
            return
        hands = [self.hands[q] for q in seats]
        for i, q in enumerate(seats):
            self.hands[q] = hands[i - 1]
        self.stats.flux_swaps += 1
        self.say("flux: hands move " + " ".join(f"P{q}->P{seats[(i + 1) % len(seats)]}" for i, q in enumerate(seats)))

    def flux_source(self, p: int) -> int:
        """The seat whose hand p would receive through card 18 (D13)."""
        if not self.pv[R.P_FLUX_ROTATE]:
            return self.next_active(p)
        for i in range(1, self.n):
            q = (p - i) % self.n
            if self.active[q]:
                return q
        return p

    # ------------------------------------------------------------------ card 13 armed force
    def claim_armed_force(self, q: int) -> None:
        """S2 / §4.13 step 1 / DEC-39: a revolution by q claims the round if A(13, q); a later
        revolution by anyone makes an earlier claim fizzle (``round_end``: by an entitled player)."""
        entitled = self.applies(R.C13_ARMED_FORCE, q)
        if not entitled and (self.af_claim < 0 or self.pv[R.P_AF_MODE] == R.AF_ROUND_END):
            return
        if self.af_claim >= 0 and self.af_claim != q:
            self.stats.af_fizzles += 1
            self.say(f"armed force of P{self.af_claim} fizzles")
        self.af_claim = q if entitled else -1
        if entitled:
            self.stats.af_claims += 1
            self.say(f"armed-force claim P{q}")

    def confirm_claim(self) -> None:
        """§4.13 step 2: a pending claim becomes the win of the round (trick end, round end,
        or at once with ``armed_force_resolution = immediate``)."""
        q, self.af_claim = self.af_claim, -1
        if q >= 0:
            self.promote(q)

    def promote(self, q: int) -> None:
        """§4.13 step 2, QA-13.1-13.3, DEC-40: q becomes 1st; a displaced 1st falls to the very
        bottom (a capital fall, bonus to the others); with nobody placed, the king falls (§3.8)."""
        if self.top_list and self.top_list[0] == q:
            return
        falls = self.stats.capital_falls
        self.stats.af_promotions += 1
        if self.active[q]:
            self.leave_round(q)
        elif q in self.top_list:
            self.top_list.remove(q)
        else:
            self.bottom_list.remove(q)
            self.stats.af_promotions_from_bottom += 1
        self.say(f"armed force: P{q} is 1st")
        if self.top_list:
            first = self.top_list.pop(0)
            self.top_list.insert(0, q)
            self.fall_to_bottom(first, f"1st P{first}")
        else:
            self.top_list.insert(0, q)
            self.capital_fall(q)
        self.stats.af_capital_falls += self.stats.capital_falls - falls

    def rank_count(self, x: Play, rank: int) -> int:
        """Cards of x that represent ``rank`` (DEC-24: wild jokers when they trigger effects)."""
        return sum(1 for r in x.ranks(bool(self.pv[R.P_WILD_EFFECTS])) if r == rank)

    def step_pull_back(self, p: int, x: Play, t: Play | None) -> None:
        """S4 / §4.10 / DEC-36: k Ks (or k cards, ``pullback_count``) let p take up to k cards of
        the previous play t back from the field (D11; optional, QA-16.1)."""
        if t is None or not self.applies(R.C10_PULL_BACK, p):
            return
        kings = self.rank_count(x, R.RK)
        if not kings:
            return
        most = min(x.count if self.pv[R.P_PULL_PLAYED] else kings, len(t.cards))
        self.decisions += 1
        cards = self.agent.decide(self, p, "pull_back", (most, sorted(t.cards)))
        for c in cards:
            self.field.remove(c)
            self.hands[p].add(c)
        if cards:
            self.stats.pull_backs += 1
            self.stats.pulled_cards += len(cards)
            self.say(f"P{p} pulls back {' '.join(R.pretty(c) for c in sorted(cards))}")

    def step_ten_discard(self, p: int, x: Play) -> bool:
        """S5 / §4.3 / DEC-32: t represented 10s let p discard up to t cards face up (D12;
        mandatory variant: exactly min(t, hand)). Returns whether that emptied the hand."""
        if not self.hands[p] or not self.applies(R.C03_TEN_DISCARD, p):
            return False
        tens = self.rank_count(x, R.R10)
        if not tens:
            return False
        most = min(tens, len(self.hands[p]))
        if self.pv[R.P_03_MANDATORY] and most == len(self.hands[p]):
            cards = sorted(self.hands[p])
            self.forced(p, "ten_discard", cards)
        else:
            self.decisions += 1
            cards = self.agent.decide(self, p, "ten_discard", most)
        for c in cards:
            self.hands[p].remove(c)
            self.discard.add(c)
        if cards:
            self.stats.ten_discards += 1
            self.stats.ten_discarded += len(cards)
            self.say(f"P{p} discards {' '.join(R.pretty(c) for c in sorted(cards))}")
        return not self.hands[p]

    def is_hunt_trigger(self, p: int, x: Play) -> bool:
        """§4.11: a single of represented rank Q (DEC-24 for a wild joker) by a player 11 applies to."""
        return (x.kind == SET and x.count == 1 and not isinstance(x, Fusion) and self.contains_rank(x, R.RQ)
                and self.applies(R.C11_HUNT, p))

    def step_hunt(self, p: int, x: Play) -> None:
        """S6 / §4.11: a joker played during the hunt fulfils p's obligation; a single Q starts it."""
        if self.hunt and x.jokers:
            self.hunt_done.add(p)
        if not self.hunt and self.is_hunt_trigger(p, x):
            self.hunt = True
            self.stats.magician_hunts += 1
            self.say("magician hunt")

    def step_jback(self, p: int, x: Play) -> None:
        """S3 / §4.19: a play containing a J sets J-back for the trick (DEC-46: no toggle back)."""
        if self.applies(R.C19_JBACK, p) and self.contains_rank(x, R.RJ):
            self.jback = (not self.jback) if self.pv[R.P_JBACK_TOGGLE] else True
            self.stats.jbacks += 1
            self.say("J-back")

    def step_locks(self, p: int, x: Play, t: Play, r_before: bool) -> None:
        """S8 / §4.14 / §4.15: locks from two consecutive plays, made by a player they apply to."""
        if x.kind == JOKER_SINGLE or t.kind == JOKER_SINGLE:
            return
        if self.applies(R.C14_SUIT_LOCK, p):
            shared = x.suits & t.suits
            if shared and (self.suit_lock == 0 or self.pv[R.P_LOCK_TIGHTEN]):
                if self.suit_lock == 0:
                    self.stats.suit_locks += 1
                    self.say("suit lock " + "".join(R.SUIT_SYMBOLS[s] for s in range(4) if shared >> s & 1))
                self.suit_lock |= shared
        if self.applies(R.C15_NUMBER_LOCK, p) and not self.num_lock and one_step(x, t, r_before):
            self.num_lock = True
            self.stats.number_locks += 1
            self.say("number lock")
        if self.suit_lock and self.num_lock and not self.geki_counted:
            self.geki_counted = True
            self.stats.geki += 1

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
        return not self.applies(R.C04_TABOO, p) and self.is_forbidden(p, x, t, r_before, rev_before, revolted)

    def step_finish(self, p: int, x: Play, t: Play | None, r_before: bool, rev_before: bool, revolted: bool,
                    emptied: bool = False) -> bool:
        """S9 / §2.12: going out; a forbidden finish goes to the bottom (DEC-14); a hand emptied
        by an effect (card 03 discard) is forbidden too (§3.7 item 4). Returns forbidden."""
        self.active[p] = False
        forbidden = emptied or self.is_forbidden(p, x, t, r_before, rev_before, revolted)
        if forbidden and self.applies(R.C04_TABOO, p):  # §4.4: card 04 lifts the forbidden finish
            self.stats.taboo_breaks += 1
            self.say(f"P{p} breaks the taboo (card 04)")
            forbidden = False
        if forbidden:
            self.place_bottom(p)
            self.stats.forbidden += 1
            self.ff_by_seat[p] += 1
            self.say(f"P{p} forbidden finish -> bottom")
            return True
        self.place_top(p)
        self.say(f"P{p} goes out, place {len(self.top_list)}")
        return False

    def place_bottom(self, p: int) -> None:
        """DEC-14: latest lowest (default) or earliest lowest."""
        if self.pv[R.P_EARLIEST_LOWEST]:
            self.bottom_list.insert(0, p)
        else:
            self.bottom_list.append(p)

    def place_top(self, p: int) -> None:
        self.top_list.append(p)
        if len(self.top_list) == 1:
            self.capital_fall(p)

    def capital_fall(self, first: int) -> None:
        """§3.8: in round >= 2 a new 1st other than the king sends the king to the very bottom;
        his hand goes face up to the discard pile (DEC-16); +bonus to everyone else."""
        k = self.king
        if self.round_no < 2 or k < 0 or first == k:
            return
        if self.active[k]:
            self.leave_round(k)
        elif k in self.bottom_list and self.pv[R.P_CF_PLACED]:  # DEC-28
            self.bottom_list.remove(k)
        else:
            return
        self.fall_to_bottom(k, f"king P{k}")

    def leave_round(self, q: int) -> None:
        """DEC-16: an active player leaves the round; the hand goes face up to the discard pile."""
        self.active[q] = False
        (self.discard if self.pv[R.P_EXIT_DISCARD] else self.removed).update(self.hands[q])
        self.hands[q] = set()
        self.passed.discard(q)

    def fall_to_bottom(self, k: int, who: str) -> None:
        """§3.8: k goes to the very bottom (last place); +bonus to every other player."""
        self.bottom_list.append(k)
        self.stats.capital_falls += 1
        for q in range(self.n):
            if q != k:
                self.bonus_pts[q] += self.pv[R.P_CF_BONUS]
                self.stats.bonus[q] += self.pv[R.P_CF_BONUS]
        self.say(f"capital fall: {who} to last place")

    def loop_guard(self) -> None:
        """DEC-18: the play-count guard ranks the remaining players in a random order (a pending
        armed-force claim is confirmed first, as at every round end)."""
        self.confirm_claim()
        order = [q for q in range(self.n) if self.active[q]]
        self.rng.shuffle(order)
        self.stats.guard_hit = True
        self.say(f"play-count guard: remaining players ranked {order}")
        for q in order:
            if self.active[q]:
                self.active[q] = False
                self.place_top(q)

    def end_round(self) -> None:
        """§2.13: a pending armed-force claim is confirmed; the last player holding cards takes
        the one open position."""
        self.confirm_claim()
        for q in range(self.n):
            if self.active[q]:
                self.active[q] = False
                self.place_top(q)
        self.discard |= self.field
        self.field = set()

    def score_round(self) -> None:
        """§2.14: rank points, capital-fall bonus (already added), precept VP every round (DEC-20 variant)."""
        ranking = self.top_list + self.bottom_list
        self.stats.ranking = ranking
        pts = [0] * self.n
        for pos, q in enumerate(ranking):
            pts[q] = self.pv[R.P_RANK_POINTS + pos]
        for q in range(self.n):
            self.rank_pts[q] += pts[q]
        if self.madness and self.pv[R.P_VP_EVERY_ROUND]:
            self.add_precept_vp()
        self.stats.points = pts
        self.stats.standing = [self.rank_pts[q] + self.bonus_pts[q] + self.vp_pts[q] for q in range(self.n)]
        self.stats.second_joker = int(self.jokers == 2)
        self.history.append(self.stats)
        self.prev_ranking = ranking
        self.say("round ranking: " + " ".join(f"P{q}" for q in ranking))

    def add_precept_vp(self) -> None:
        """§1.5: each player adds the VP of every precept they hold."""
        for c in range(1, R.N_RULE_CARDS + 1):
            if self.owner[c] >= 0:
                self.vp_pts[self.owner[c]] += self.pv[R.P_VP + c]

    def finish_game(self) -> None:
        """§2.15 / DEC-20 / DEC-21: final points and winners."""
        if self.madness and not self.pv[R.P_VP_EVERY_ROUND]:
            self.add_precept_vp()
        self.scores = [self.rank_pts[q] + self.bonus_pts[q] + self.vp_pts[q] for q in range(self.n)]
        best = max(self.scores)
        winners = [q for q in range(self.n) if self.scores[q] == best]
        if len(winners) > 1 and self.pv[R.P_TIE_LAST] and self.prev_ranking:
            winners = [min(winners, key=self.prev_ranking.index)]
        self.winners = winners
        self.phase = "over"
        self.say(f"final points {self.scores}; winner(s) {winners}")
