"""Reference engine for Virus Dogs: readable Python objects, one method per rule (spec VD-…).

The engine is decision driven: whenever a player has two or more legal options it asks that
seat's agent (a bot, or a scripted decision list in scenarios) with the list of legal
options in the canonical order documented in ``docs/scenarios/virus-dogs.md``. A decision
with a single legal option is taken without asking. Randomness comes only from
``sim.rng.Rng`` and follows the protocol written at the top of ``kernel/__init__.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.lead import Lead
from sim.games.virus_dogs import tables as tb
from sim.games.virus_dogs.rules import (
    ACTION_CARDS, AMB, ANT, BAT, BM, C_CONTROL, C_COUGH, C_DECLARE, C_HQ, C_QUARANTINE,
    C_VOLUNTARY, CAUSES, CGH, CODES, CTL, DOC, EXC, HQ_FIRST_ELIM, HQ_STALEMATE, LAST_HQ,
    LAST_NORMAL, MSK, N_TYPES, NO_WINNER, OUTCOMES, QRN, SHF, TP, TURN_CAP, V, Rules,
)


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


class Engine:
    """One game of Virus Dogs in progress."""

    def __init__(self, rules: Rules, n: int, rng, agent, log: list | None = None):
        self.r = rules
        self.n = n
        self.rng = rng
        # every seat's decisions: decide(engine, seat, kind, legal) -> option (single options
        # included; ``ctx`` holds the decision's context); a scenario's script also has
        # waived(engine, seat, kind, options), told of a decision that cannot arise (no further draw)
        self.agent = agent
        self.ctx: dict = {}
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
        self.ctx = ctx or {}
        return self.agent.decide(self, seat, kind, legal)

    # ---- setup (VD-3) -------------------------------------------------------------------------
    def setup(self) -> None:
        """VD-3.1..3.5: shuffled deck with one virus, the reserve, empty hands, first player."""
        self.deck = [c for c in range(N_TYPES) for _ in range(self.r.counts[c])]
        self.rng.shuffle(self.deck)
        self.start_deck = len(self.deck)
        self.reserve = self.r.reserve_start
        self.first = 0 if self.r.first_player == 0 else self.rng.randbelow(self.n)
        self.current = self.first
        self.g[tb.G_FIRST] = self.first
        self.say(f"setup: deck {len(self.deck)} cards, reserve {self.reserve}; P{self.first} starts")

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

    # ---- the game loop --------------------------------------------------------------------
    def play(self, start: str = "A", turn_limit: int | None = None, pause=None) -> None:
        """Turns until the game ends (VD-4, VD-20, VD-21) or the turn cap is reached.

        ``start``: "A" begins a fresh turn of ``current``; "C" resumes the current turn in
        phase C; "hq" begins hard quarantine with ``current`` as first drawer (scenarios).
        ``turn_limit`` stops after that many turn ends (scenarios). ``pause`` (scenarios): a
        callable asked before every turn after the first; when it returns true play stops
        there, before the turn begins.
        """
        if self.totals is None:
            self.capture_totals()
        ended = 0
        try:
            if start == "hq":
                self.hard_quarantine(self.current)
            resume = start == "C"
            while turn_limit is None or ended < turn_limit:
                if not resume and self.turn >= self.r.max_turns:
                    self.g[tb.G_TURN_CAP] = 1
                    self.finish([], TURN_CAP)
                if ended and pause is not None and pause():
                    return
                start_hq = False
                try:
                    self.take_turn(self.current, resume)
                except StartHQ:
                    start_hq = True
                resume = False
                ended += 1
                self.record_density()
                self.observe_lead(self.turn - 1)
                if start_hq or (not self.deck and len(self.live_seats()) >= 2):
                    self.hard_quarantine(self.left_of(self.current))
                self.advance()
                self.phase = "A"
        except GameOver:
            self.phase = "over"
        self.finalize()

    def advance(self) -> None:
        """VD-4.5: the left neighbour of the seat that just played takes the next turn."""
        nxt = self.left_of(self.current)
        if (nxt - self.first) % self.n <= (self.current - self.first) % self.n:
            self.rounds += 1
        self.current = nxt

    def record_density(self) -> None:
        """M-2 series at a turn end."""
        hidden = sum(p.hand[V] for p in self.players if p.live)
        opened = sum(p.open for p in self.players if p.live)
        vdeck = self.deck.count(V)
        self.density.append((self.turn - 1, len(self.deck), vdeck, hidden, opened))
        if self.deck:
            bp = vdeck * 10000 // len(self.deck)
            self.g[tb.G_PEAK] = max(self.g[tb.G_PEAK], bp)

    def take_turn(self, seat: int, resume: bool = False) -> None:
        """VD-4.1: phases A (actions), B (draw mode), C (actions), D (end)."""
        p = self.players[seat]
        try:
            if not resume:
                self.turn += 1
                self.docs_this_turn = 0
                self.cards_this_turn = 0
                self.phase = "A"
                self.say(f"turn {self.turn - 1}: P{seat} (O={p.open}, T={p.treatment}, hand {p.hand_size()}, deck {len(self.deck)})")
                mode = self.phase_actions(p, "A")
                if mode["mode"] == "skip":
                    self.skip(p)
                    return
                self.phase = "B"
                self.draw_phase(p, mode)
                self.check_immediate()
            self.phase = "C"
            self.phase_actions(p, "C")
        except TurnEnds:
            pass

    def check_immediate(self) -> None:
        """VD-20.1 ``immediate``: an empty deck starts hard quarantine at once."""
        if self.r.deck_exhaustion_check == "immediate" and not self.deck and len(self.live_seats()) >= 2:
            raise StartHQ

    # ---- phases A and C (VD-4.2, VD-4.4) ---------------------------------------------------
    def action_options(self, p: Player, phase: str) -> list[dict]:
        """Legal phase-A/C options in canonical order (DP-1, DP-2, DP-8)."""
        r, h = self.r, p.hand
        out = []
        if h[V] > 0:
            out.append(opt("declare"))
        for card in ACTION_CARDS:
            if h[card] == 0:
                continue
            if card == CTL:
                out += [opt("play", card="CTL", target=t) for t in self.live_seats() if t != p.seat]
            elif card == DOC:
                if p.open >= 1 and self.docs_this_turn < r.doctor_per_turn:
                    out.append(opt("play", card="DOC"))
            elif card == CGH:
                if p.open >= 1:
                    out.append(opt("play", card="CGH"))
            else:
                out.append(opt("play", card=CODES[card]))
        if phase == "C":
            out.append(opt("end"))
            return out
        if r.draw_count_declared_upfront:
            out += [opt("mode", mode="draw", count=k) for k in range(r.draw_min, r.draw_max + 1)]
        else:
            out.append(opt("mode", mode="draw"))
        if h[MSK] and self.deck:
            out.append(opt("mode", mode="mask"))
        if h[BM] and self.deck:
            out.append(opt("mode", mode="market"))
        if h[TP] and (r.skip_scope == "after_declaration" or self.cards_this_turn == 0):
            out.append(opt("mode", mode="skip"))
        return out

    def phase_actions(self, p: Player, phase: str) -> dict | None:
        """Play cards and declare until the player picks a draw mode (A) or ends the turn (C)."""
        while True:
            choice = self.ask(p.seat, "action", self.action_options(p, phase))
            if choice["type"] in ("mode", "end"):
                return choice
            if choice["type"] == "declare":
                self.declare_voluntary(p)
            else:
                self.play_card(p, choice["card"], choice.get("target"))
            self.check_immediate()

    def play_card(self, p: Player, code: str, target: int | None) -> None:
        card = CODES.index(code)
        self.to_discard(p, card)
        self.cards_this_turn += 1
        self.say(f"  P{p.seat} plays {code}" + ("" if target is None else f" on P{target}"))
        if card == CTL:
            self.control(p, self.players[target])
        elif card == QRN:
            self.quarantine(p)
        elif card == DOC:
            self.doctor(p)
        elif card == AMB:
            self.ambulance(p)
        elif card == SHF:
            self.shuffle_deck()
        elif card == CGH:
            self.cough(p)
        elif card == EXC:
            self.exchange(p)

    # ---- phase B (VD-5, VD-9, VD-10, VD-12) ------------------------------------------------
    def draw_phase(self, p: Player, mode: dict) -> None:
        if mode["mode"] == "mask":
            self.mask(p)
        elif mode["mode"] == "market":
            self.black_market(p)
        else:
            self.normal_draw(p, mode.get("count"))

    def skip(self, p: Player) -> None:
        """VD-12.2: TP as the draw mode; nothing drawn, no phase C."""
        self.to_discard(p, TP)
        self.s[p.seat][tb.S_TP_SKIP] += 1
        self.say(f"  P{p.seat} skips with TP")

    def normal_draw(self, p: Player, upfront: int | None) -> None:
        """VD-5.1..5.5: draw 1..2 cards one at a time; pending viruses go on top at the end."""
        r = self.r
        drawn = 0
        stopped = False
        while self.deck and drawn < r.draw_max:
            if drawn >= r.draw_min:
                if upfront is not None:
                    if drawn >= upfront:
                        break
                else:
                    more = self.ask(p.seat, "draw_another", [opt("draw_another", value=True), opt("draw_another", value=False)])
                    if not more["value"]:
                        stopped = True
                        break
            card = self.take_top()
            self.draw_event(tb.X_NORMAL)
            self.first_draw(p.seat, card)
            if card != BAT or r.bat_counts_as_draw:
                drawn += 1
            self.receive_private(p, card, tb.X_NORMAL)
        if upfront is None and not stopped:
            # No further card can be drawn (draw_max reached, or the deck is empty: VD-5.4).
            waived = [opt("draw_another", value=False)] + ([] if self.deck else [opt("draw_another", value=True)])
            told = getattr(self.agent, "waived", None)
            if told is not None:
                told(self, p.seat, "draw_another", waived)
        self.say(f"  P{p.seat} drew {drawn}")
        self.return_pending()

    def mask(self, p: Player) -> None:
        """VD-9: peek at the top cards, take any subset (or a prefix); the rest stay in order."""
        self.to_discard(p, MSK)
        m = min(self.r.mask_peek, len(self.deck))
        peek = [self.deck[-1 - i] for i in range(m)]
        if self.r.mask_take_mode == "prefix":
            subsets = [(1 << k) - 1 for k in range(m + 1)]
        else:
            subsets = list(range(1 << m))
        legal = [opt("mask_take", take=[i for i in range(m) if s >> i & 1]) for s in subsets]
        choice = self.ask(p.seat, "mask_take", legal, {"peek": peek})
        taken = choice["take"]
        del self.deck[len(self.deck) - m:]
        for i in reversed(range(m)):
            if i not in taken:
                self.deck.append(peek[i])
        if taken:
            self.known_top = 0
        st = self.s[p.seat]
        st[tb.S_MASK_TAKEN] += len(taken)
        st[tb.S_MASK_NONE] += not taken
        st[tb.S_MASK_PEEK_V] += V in peek
        st[tb.S_MASK_AVOIDED] += sum(1 for i in range(m) if peek[i] == V and i not in taken)
        self.say(f"  P{p.seat} masks, takes {len(taken)}")
        self.limbo = [peek[i] for i in taken]
        while self.limbo:
            card = self.limbo.pop(0)
            self.draw_event(tb.X_MASK)
            self.first_draw(p.seat, card)
            self.receive_private(p, card, tb.X_MASK)
        self.return_pending()

    def black_market(self, p: Player) -> None:
        """VD-10: look at the top cards, take exactly one; the others stay in order."""
        self.to_discard(p, BM)
        m = min(self.r.black_market_look, len(self.deck))
        seen = [self.deck[-1 - i] for i in range(m)]
        choice = self.ask(p.seat, "market_take", [opt("market_take", index=i) for i in range(m)], {"seen": seen})
        k = choice["index"]
        del self.deck[len(self.deck) - m:]
        for i in reversed(range(m)):
            if i != k:
                self.deck.append(seen[i])
        self.known_top = 0
        self.say(f"  P{p.seat} uses the black market")
        st = self.s[p.seat]
        st[tb.S_MARKET_SEEN] += seen.count(V)
        st[tb.S_MARKET_FORCED] += seen.count(V) == m
        self.limbo = [seen[k]]
        card = self.limbo.pop()
        self.draw_event(tb.X_MARKET)
        self.first_draw(p.seat, card)
        self.receive_private(p, card, tb.X_MARKET)
        self.return_pending()

    def return_pending(self) -> None:
        """VD-5.5 / VD-7.3 / VD-7.4: pending viruses go back on top, publicly known."""
        while self.pending:
            self.pending -= 1
            self.deck.append(V)
            self.known_top += 1

    def receive_private(self, p: Player, card: int, source: int) -> None:
        """VD-5.3: a privately drawn card (``source``: the draw kind, tables.X_*): bat, virus,
        or into the hand."""
        if card == BAT:
            self.bat(p, source)
        elif card == V:
            self.private_virus(p, source)
        else:
            p.hand[card] += 1
            p.suspicion += 1

    def private_virus(self, p: Player, source: int) -> None:
        """VD-6.1 / VD-7: antiseptic, declare or hide a privately drawn virus."""
        st = self.s[p.seat]
        st[tb.S_V_DRAWN] += 1
        legal = ([opt("virus", response="antiseptic")] if p.hand[ANT] else []) + [
            opt("virus", response="declare"), opt("virus", response="hide")]
        self.limbo.append(V)  # the drawn virus is in the player's fingers while they decide
        choice = self.ask(p.seat, "virus", legal, {"source": SOURCES[source]})["response"]
        self.limbo.pop()
        if choice == "antiseptic":
            self.to_discard(p, ANT)
            self.g[tb.G_ANTISEPTICS] += 1
            st[tb.S_ANT0 + source] += 1
            self.pending += 1
            self.say(f"  P{p.seat} uses ANT: a virus goes back on top")
        elif choice == "declare":
            st[tb.S_V_DECLARED] += 1
            self.say(f"  P{p.seat} declares a drawn virus")
            self.open_viruses(p, 1, C_DECLARE, p.seat)
        else:
            st[tb.S_V_HIDDEN] += 1
            p.hand[V] += 1
            p.suspicion += 1

    def bat(self, p: Player, source: int) -> None:
        """VD-8: move up to ``bat_virus_add`` reserve viruses into the deck, shuffle, discard the bat
        (``source``: the draw kind that drew it, tables.X_*)."""
        self.s[p.seat][tb.S_BAT0 + source] += 1
        k = min(self.r.bat_virus_add, self.reserve)
        self.reserve -= k
        self.deck.extend([V] * k)
        self.shuffle_deck()
        self.discard[BAT] += 1
        self.g[tb.G_BATS] += 1
        self.g[tb.G_BAT_ADDED] += k
        self.say(f"  P{p.seat} draws a BAT: +{k} viruses into the deck, reserve {self.reserve}")

    # ---- viruses, elimination (VD-6, VD-19) ------------------------------------------------
    def declare_voluntary(self, p: Player) -> None:
        """VD-6.3: move one hidden virus to the open area."""
        p.hand[V] -= 1
        self.s[p.seat][tb.S_VOLUNTARY] += 1
        self.say(f"  P{p.seat} declares a hidden virus")
        self.open_viruses(p, 1, C_VOLUNTARY, p.seat)

    def open_viruses(self, p: Player, k: int, cause: int, instigator: int) -> None:
        """VD-6.6 / VD-19.1: add open viruses, then the elimination check."""
        p.open += k
        if p.open >= self.r.elimination_threshold and not self.reactive_ambulance(p):
            self.eliminate([p], cause, instigator)

    def reactive_ambulance(self, p: Player) -> bool:
        """VD-18.4: with ``ambulance_reactive``, a held AMB is played before the elimination check."""
        if self.r.ambulance_reactive and p.hand[AMB] > 0:
            self.to_discard(p, AMB)
            self.say(f"  P{p.seat} reacts with AMB")
            self.ambulance_effect(p)
            return True
        return False

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

    # ---- action cards ---------------------------------------------------------------------
    def control(self, caster: Player, target: Player) -> None:
        """VD-13: the target reveals the hand; every virus in it becomes open."""
        k = target.hand[V]
        target.hand[V] = 0
        target.suspicion = 0
        self.s[caster.seat][tb.S_EXPOSED] += k
        if k:
            self.open_viruses(target, k, C_CONTROL, caster.seat)

    def quarantine(self, caster: Player) -> None:
        """VD-14: every live hand is revealed at once; the threshold check runs for all together."""
        order = [(caster.seat + k) % self.n for k in range(self.n)]
        at_risk = []
        for s in order:
            p = self.players[s]
            if not p.live:
                continue
            k = p.hand[V]
            p.hand[V] = 0
            p.open += k
            p.suspicion = 0
            self.s[caster.seat][tb.S_EXPOSED] += k
            if p.open >= self.r.elimination_threshold:
                at_risk.append(p)
        if not at_risk:
            return
        for p in at_risk:
            if self.reactive_ambulance(p):
                return
        self.eliminate(at_risk, C_QUARANTINE, caster.seat)

    def doctor(self, p: Player) -> None:
        """VD-17: one treatment step; at ``doctors_per_cure`` an open virus goes to the deck bottom."""
        self.docs_this_turn += 1
        p.treatment += 1
        if p.treatment >= self.r.doctors_per_cure:
            p.open -= 1
            p.treatment = 0
            self.put_bottom(V)
            self.g[tb.G_CURES] += 1
            self.s[p.seat][tb.S_CURES] += 1
            self.say(f"  P{p.seat} is cured of one virus")

    def ambulance(self, p: Player) -> None:
        """VD-18: played from the hand (already discarded)."""
        self.ambulance_effect(p)

    def ambulance_effect(self, p: Player) -> None:
        """VD-18.2: every open virus goes to the deck bottom; every T resets (p: the player)."""
        for q in self.players:
            if not q.live:
                continue
            for _ in range(q.open):
                self.put_bottom(V)
            self.g[tb.G_AMB_CURED] += q.open
            self.s[p.seat][tb.S_AMB_OWN if q is p else tb.S_AMB_OTHERS] += q.open
            self.s[q.seat][tb.S_DOC_WASTED] += q.treatment
            q.open = 0
            q.treatment = 0

    def cough(self, caster: Player) -> None:
        """VD-15: each other live player, from the caster's left, draws one card face up."""
        for k in range(1, self.n):
            q = self.players[(caster.seat + k) % self.n]
            if not q.live:
                continue
            if q.hand[TP]:
                choice = self.ask(q.seat, "cough", [opt("cough", response="refuse"), opt("cough", response="accept")])
                if choice["response"] == "refuse":
                    self.to_discard(q, TP)
                    self.s[q.seat][tb.S_TP_COUGH] += 1
                    self.say(f"  P{q.seat} refuses the cough with TP")
                    continue
            if not self.deck:
                continue
            card = self.take_top()
            self.draw_event(tb.X_COUGH)
            self.first_draw(q.seat, card)
            self.say(f"  P{q.seat} draws {CODES[card]} face up")
            if card == BAT:
                self.bat(q, tb.X_COUGH)
            elif card == V:
                if self.r.antiseptic_on_cough and q.hand[ANT]:
                    self.limbo.append(V)
                    choice = self.ask(q.seat, "cough_virus",
                                      [opt("cough_virus", response="antiseptic"), opt("cough_virus", response="accept")])
                    self.limbo.pop()
                    if choice["response"] == "antiseptic":
                        self.to_discard(q, ANT)
                        self.g[tb.G_ANTISEPTICS] += 1
                        self.s[q.seat][tb.S_ANT0 + tb.X_COUGH] += 1
                        self.deck.append(V)
                        self.known_top += 1
                        continue
                self.open_viruses(q, 1, C_COUGH, caster.seat)
            else:
                q.hand[card] += 1

    def exchange(self, caster: Player) -> None:
        """VD-16: select (secretly), refuse with TP (in turn order from the caster), transfer left."""
        parts = [s for s in ((caster.seat + k) % self.n for k in range(self.n)) if self.players[s].live]
        selected: dict[int, int] = {}
        for s in parts:
            p = self.players[s]
            if p.hand_size() == 0:
                continue
            legal = [opt("give", card=CODES[c]) for c in range(N_TYPES) if p.hand[c]]
            card = CODES.index(self.ask(s, "give", legal)["card"])
            p.hand[card] -= 1
            self.limbo.append(card)
            selected[s] = card
        refused = set()
        for s in parts:
            p = self.players[s]
            giver = self.right_of(s)
            if giver in selected and giver != s and p.hand[TP]:
                choice = self.ask(s, "refuse_exchange",
                                  [opt("refuse_exchange", value=True), opt("refuse_exchange", value=False)],
                                  {"giver": giver})
                if choice["value"]:
                    self.to_discard(p, TP)
                    self.s[s][tb.S_TP_EXCHANGE] += 1
                    self.s[s][tb.S_REFUSALS] += 1
                    refused.add(giver)
                    self.say(f"  P{s} refuses the exchange card with TP")
        self.limbo = []
        for s, card in selected.items():
            if s in refused:
                if self.r.exchange_refused_card == "return_to_giver":
                    self.players[s].hand[card] += 1
                else:
                    self.discard[card] += 1
                continue
            to = self.players[self.left_of(s)]
            to.hand[card] += 1
            to.suspicion += 1
            if card == V:
                self.s[s][tb.S_PLANTED] += 1

    # ---- hard quarantine (VD-20) ----------------------------------------------------------
    def hard_quarantine(self, first: int) -> None:
        """VD-20.4..20.11: drawers pull one random card from a target until a decision."""
        self.in_hq = True
        self.phase = "hq"
        live = self.live_seats()
        self.g[tb.G_HQ] = 1
        self.g[tb.G_HQ_LIVE] = len(live)
        self.g[tb.G_HQ_HIDDEN] = sum(self.players[s].hand[V] for s in live)
        self.say(f"hard quarantine: {len(live)} live, first drawer P{first}")
        self.hq_check()
        d = first
        steps = 0
        while True:
            x = self.hq_target(d)
            steps += 1
            self.g[tb.G_HQ_STEPS] += 1
            if x >= 0 and self.players[x].hand_size() > 0:
                self.hq_pull(d, self.players[x])
            else:
                self.say(f"  P{d} pulls nothing (target {'none' if x < 0 else 'P%d has no cards' % x})")
            self.hq_check()
            if steps >= self.r.hq_max_steps:
                self.stalemate()
            d = self.left_of(d)

    def hq_target(self, d: int) -> int:
        """VD-20.6: the left neighbour, or a chosen live player with cards (DP-19)."""
        if self.r.hq_target == "left_neighbour":
            return self.left_of(d)
        legal = [opt("hq_target", player=s) for s in self.live_seats() if s != d and self.players[s].hand_size() > 0]
        if not legal:
            return -1
        return self.ask(d, "hq_target", legal)["player"]

    def hq_pull(self, d: int, x: Player) -> None:
        """VD-20.6: a uniformly random card of X's hand (code order) is shown; a virus becomes open."""
        r = self.rng.randbelow(x.hand_size())
        card = 0
        while r >= x.hand[card]:
            r -= x.hand[card]
            card += 1
        self.say(f"  P{d} pulls {CODES[card]} from P{x.seat}")
        if card == V:
            x.hand[V] -= 1
            live_before = len(self.live_seats())
            self.open_viruses(x, 1, C_HQ, d)
            if self.r.hq_end == "first_elimination" and len(self.live_seats()) < live_before:
                self.finish(self.live_seats(), HQ_FIRST_ELIM)

    def hq_check(self) -> None:
        """VD-20.8: a stalemate when no live player holds a hidden virus."""
        if not any(self.players[s].hand[V] for s in self.live_seats()):
            self.stalemate()

    def stalemate(self) -> None:
        """VD-20.10."""
        live = self.live_seats()
        self.g[tb.G_HQ_STALE] = 1
        if self.r.hq_stalemate == "fewest_open_shared":
            least = min(self.players[s].open for s in live)
            live = [s for s in live if self.players[s].open == least]
        self.finish(live, HQ_STALEMATE)

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

    def finalize(self) -> None:
        self.record_lead()
        self.g[tb.G_TURNS] = self.turn
        self.g[tb.G_ROUNDS] = self.rounds
        for p in self.players:
            st = self.s[p.seat]
            st[tb.S_HAND_END] = p.hand_size()
            st[tb.S_HIDDEN_END] = p.hand[V]
            st[tb.S_OPEN_END] = p.open
            st[tb.S_TP_END] = p.hand[TP]
