"""Reference engine, the game: setup (VD-3), the game loop and the turn's phases (VD-4 .. VD-6), hard
quarantine (VD-20) and the results. The fast engine's twin: ``kernel/turn.py``."""

from __future__ import annotations

from sim.games.virus_dogs import tables as tb
from sim.games.virus_dogs.rules import (
    ACTION_CARDS, AMB, BAT, BM, C_HQ, CGH, CODES, CTL, DOC, EXC, HQ_FIRST_ELIM, HQ_STALEMATE, MSK, N_TYPES,
    QRN, SHF, TP, TURN_CAP, V,
)
from .state import GameOver, Player, StartHQ, TurnEnds, opt


class Turns:
    """The game loop, the turn's phases and hard quarantine (a part of ``Engine``)."""

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
