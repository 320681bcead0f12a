"""Reference engine, the game state (``State``): the zones and seats, the helpers every part uses, ``ask`` (the
one door through which every decision reaches the agent), elimination and the game's end, the
invariants and the game-feel observations. The fast engine's twin: ``kernel/state.py``."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from sim.kit.lead import Lead
from sim.games.virus_dogs import tables as tb
from sim.games.virus_dogs.rules import (
    BAT, CAUSES, LAST_HQ, LAST_NORMAL, N_TYPES, NO_WINNER, OUTCOMES, TP, V, Rules,
)


NO_CONTEXT = MappingProxyType({})  # the context of a decision that has none (read only: one for all)
SOURCES = {tb.X_NORMAL: "normal", tb.X_MASK: "mask", tb.X_MARKET: "market"}  # draw kinds in a virus decision's context


class GameOver(Exception):
    """The game has ended (VD-21); the result is already recorded."""


class TurnEnds(Exception):
    """The current player was eliminated: the turn ends at once (VD-4.8)."""


class StartHQ(Exception):
    """``deck_exhaustion_check = immediate``: hard quarantine begins now (VD-20.1)."""


@dataclass
class Player:
    """One seat: hand as copies per card code, open viruses ``O``, treatment ``T`` (VD-1)."""

    seat: int
    hand: list[int] = field(default_factory=lambda: [0] * N_TYPES)
    open: int = 0
    treatment: int = 0
    live: bool = True
    # Public count of cards taken into the hand unseen since the hand was last revealed.
    suspicion: int = 0

    @property
    def hidden(self) -> int:
        return self.hand[V]

    def hand_size(self) -> int:
        return sum(self.hand)


def opt(kind: str, **kw) -> dict:
    """A decision option in the scenario input format."""
    return {"type": kind, **kw}


class State:
    """One game of Virus Dogs in progress: its state and the helpers of the other parts."""

    def __init__(self, rules: Rules, n: int, rng, agent, log: list | None = None):
        self.r = rules
        self.n = n
        self.rng = rng
        # every seat's decisions: decide(engine, seat, kind, legal) -> option (single options
        # included; ``ctx`` holds the decision's context); a scenario's script also has
        # waived(engine, seat, kind, options), told of a decision that cannot arise (no further draw)
        self.agent = agent
        self.ctx = NO_CONTEXT
        self.log = log
        self.players = [Player(s) for s in range(n)]
        self.deck: list[int] = []  # index 0 = bottom, -1 = top
        self.reserve = 0
        self.discard = [0] * N_TYPES
        self.pending = 0  # antisepticked viruses waiting to go back on top (VD-7.3)
        self.limbo: list[int] = []  # cards taken by a mask/black market/exchange, not yet resolved
        self.known_top = 0  # viruses publicly known to lie on top of the deck (VD-7.7)
        self.first = 0
        self.current = 0
        self.turn = 0  # turns started
        self.rounds = 0
        self.docs_this_turn = 0
        self.cards_this_turn = 0
        self.in_hq = False
        self.phase = "A"
        self.finished = False
        self.winners: list[int] = []
        self.outcome = -1
        self.check_every_step = False
        self.g = tb.new_game_row()
        self.s = [tb.new_seat_row() for _ in range(n)]
        self.density: list[tuple] = []  # (turn, deck, vdeck, hidden, open) at every turn end
        self.draw_series: list[tuple] = []  # (deck, vdeck) after every draw event (M-2)
        self.start_deck = 0
        self.totals: list[int] | None = None  # card totals for the conservation check
        self.elim_order: list[int] = []  # eliminated seats, in the order they fell
        self.lead = Lead(n)  # game feel, observed at every turn end and at the game's end

    # ---- helpers --------------------------------------------------------------------------
    def say(self, text: str) -> None:
        if self.log is not None:
            self.log.append(text)

    def live_seats(self) -> list[int]:
        return [p.seat for p in self.players if p.live]

    def left_of(self, seat: int) -> int:
        """VD-1: the next live seat in turn order."""
        for k in range(1, self.n + 1):
            s = (seat + k) % self.n
            if self.players[s].live:
                return s
        return seat

    def right_of(self, seat: int) -> int:
        """VD-1: the previous live seat in turn order."""
        for k in range(1, self.n + 1):
            s = (seat - k) % self.n
            if self.players[s].live:
                return s
        return seat

    def take_top(self) -> int:
        card = self.deck.pop()
        if self.known_top > 0:
            self.known_top -= 1
        return card

    def put_bottom(self, card: int) -> None:
        self.deck.insert(0, card)

    def shuffle_deck(self) -> None:
        """VD-11.1 / VD-8.2: uniform shuffle; all order knowledge is wiped."""
        self.rng.shuffle(self.deck)
        self.known_top = 0

    def to_discard(self, p: Player, card: int) -> None:
        p.hand[card] -= 1
        self.discard[card] += 1
        if TP <= card:
            self.s[p.seat][tb.S_PLAYED0 + card - TP] += 1

    def draw_event(self, kind: int) -> None:
        """A card has left the deck for a player (kind: tables.X_*): counted, and the deck's
        size and viruses recorded for the M-2 series."""
        self.g[tb.G_DRAWS] += 1
        self.g[tb.G_DR_NORMAL + kind] += 1
        self.draw_series.append((len(self.deck), self.deck.count(V)))

    def first_draw(self, seat: int, card: int) -> None:
        """``card`` is the first ``seat`` draws from the deck unless it drew before (``first_card``)."""
        if self.s[seat][tb.S_FIRST_CARD] < 0:
            self.s[seat][tb.S_FIRST_CARD] = card

    def ask(self, seat: int, kind: str, legal: list[dict], ctx: dict | None = None) -> dict:
        if self.check_every_step:
            self.check_invariants()
        self.g[tb.G_DECISIONS] += 1
        self.ctx = ctx or NO_CONTEXT
        return self.agent.decide(self, seat, kind, legal)

    def capture_totals(self) -> None:
        self.totals = self.zone_counts()

    def zone_counts(self) -> list[int]:
        """Copies of each card code across every zone (M-2 conservation)."""
        c = [0] * N_TYPES
        for card in self.deck + self.limbo:
            c[card] += 1
        for p in self.players:
            for k in range(N_TYPES):
                c[k] += p.hand[k]
            c[V] += p.open
        for k in range(N_TYPES):
            c[k] += self.discard[k]
        c[V] += self.reserve + self.pending
        return c

    def check_invariants(self) -> None:
        """Card conservation (incl. the virus total, M-2) and per-player consistency."""
        if self.totals is None:
            self.capture_totals()
        now = self.zone_counts()
        assert now == self.totals, f"card conservation broken: {now} != {self.totals}"
        for p in self.players:
            assert min(p.hand) >= 0 and p.open >= 0 and 0 <= p.treatment
            if not p.live:
                assert p.hand_size() == 0 and p.open == 0 and p.treatment == 0
            elif not self.finished:
                assert p.open < self.r.elimination_threshold
            if p.open == 0:
                assert p.treatment == 0
        assert self.reserve >= 0 and 0 <= self.known_top <= len(self.deck)
        assert all(self.deck[len(self.deck) - 1 - i] == V for i in range(self.known_top))

    def record_density(self) -> None:
        """M-2 series at a turn end."""
        hidden = sum(p.hand[V] for p in self.players if p.live)
        opened = sum(p.open for p in self.players if p.live)
        vdeck = self.deck.count(V)
        self.density.append((self.turn - 1, len(self.deck), vdeck, hidden, opened))
        if self.deck:
            bp = vdeck * 10000 // len(self.deck)
            self.g[tb.G_PEAK] = max(self.g[tb.G_PEAK], bp)

    def eliminate(self, losers: list[Player], cause: int, instigator: int) -> None:
        """VD-19.3 for each loser (simultaneously), then the game-end check (VD-21)."""
        for p in losers:
            self.remove_player(p, cause, instigator)
        live = self.live_seats()
        if len(live) == 1:
            self.finish(live, LAST_HQ if self.in_hq else LAST_NORMAL)
        if not live:
            if self.r.all_eliminated_outcome == "shared_win":
                self.finish([p.seat for p in losers], LAST_NORMAL)
            self.finish([], NO_WINNER)
        if not self.in_hq and any(p.seat == self.current for p in losers):
            raise TurnEnds

    def remove_player(self, p: Player, cause: int, instigator: int) -> None:
        """VD-19.3: every virus to the deck bottom, other cards per ``eliminated_hand_destination``."""
        turn = self.turn - 1 if not self.in_hq else self.turn
        st = self.s[p.seat]
        st[tb.S_ELIM_OPEN] = p.open
        st[tb.S_ELIM_HIDDEN] = p.hand[V]
        st[tb.S_ELIM_T] = p.treatment
        st[tb.S_DOC_WASTED] += p.treatment
        st[tb.S_ELIM] = 1
        st[tb.S_CAUSE] = cause
        st[tb.S_ELIM_TURN] = turn
        st[tb.S_INSTIGATOR] = instigator
        if instigator != p.seat:
            self.s[instigator][tb.S_KILLS] += 1
        self.g[tb.G_ELIM0 + cause] += 1
        if self.in_hq:
            self.g[tb.G_HQ_ELIMS] += 1
        if self.g[tb.G_FIRST_ELIM] < 0:
            self.g[tb.G_FIRST_ELIM] = turn
        self.say(f"  P{p.seat} is eliminated ({CAUSES[cause]}, O={p.open}, hidden {p.hand[V]})")
        p.live = False
        self.elim_order.append(p.seat)
        if p.seat == self.current and not self.in_hq:
            # Eliminated mid-draw: the draw phase ends (VD-5.5); cards still being taken join the hand.
            self.return_pending()
            for card in self.limbo:
                if card == BAT:
                    self.discard[BAT] += 1
                else:
                    p.hand[card] += 1
            self.limbo = []
        for _ in range(p.open + p.hand[V]):
            self.put_bottom(V)
        p.open = 0
        p.treatment = 0
        p.hand[V] = 0
        dest = self.r.eliminated_hand_destination
        for card in range(N_TYPES):
            for _ in range(p.hand[card]):
                if dest == "discard":
                    self.discard[card] += 1
                else:
                    self.put_bottom(card)
            p.hand[card] = 0
        if dest == "shuffle_into_deck":
            self.shuffle_deck()

    def finish(self, winners: list[int], outcome: int) -> None:
        """VD-21: record the result and stop the game."""
        self.finished = True
        self.winners = sorted(winners)
        self.outcome = outcome
        self.g[tb.G_WINNER] = self.winners[0] if self.winners else -1
        self.g[tb.G_NWIN] = len(self.winners)
        self.g[tb.G_OUTCOME] = outcome
        for w in self.winners:
            self.s[w][tb.S_WIN] = 1
        self.say(f"game over: {OUTCOMES[outcome]}, winners {['P%d' % w for w in self.winners]}")
        raise GameOver

    # ---- results --------------------------------------------------------------------------
    def observe_lead(self, turn: int) -> None:
        """Game feel: the viruses each live seat carries, ``O + HV`` (fewest leads); ``turn``
        is at least 0 (a scenario may resume a turn 0 in phase C)."""
        self.lead.observe(max(turn, 0), {p.seat: p.open + p.hand[V] for p in self.players if p.live})

    def record_lead(self) -> None:
        """The game-feel columns, after the observation at the game's end (tables.py)."""
        self.observe_lead(self.turn if self.in_hq else self.turn - 1)
        lead, w = self.lead, self.g[tb.G_WINNER]
        single = self.g[tb.G_NWIN] == 1
        self.g[tb.G_LEAD_CHANGES] = lead.changes
        self.g[tb.G_LEAD_FROM] = lead.leads_from(w) if single else -1
        self.g[tb.G_WIN_BEHIND] = lead.max_behind[w] if single else -1
        for s, behind in enumerate(lead.max_behind):
            self.s[s][tb.S_MAX_BEHIND] = behind
