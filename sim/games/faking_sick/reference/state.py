"""Reference engine of faking-sick, the game state (``State``): piles, hands and banned slots, the
setup, drawing and replacement, the legal options of each decision and ``ask`` (the one door
through which a decision reaches the agent). The fast engine's twin: ``kernel/state.py``."""

from __future__ import annotations

from itertools import combinations_with_replacement
from sim.kit.lead import Lead
from sim.kit.rng import Rng
from ..rules import FEV, NT, SNZ, TYPES, VIR
from .bots import CALL_OPTIONS, ban_estimate
from ..tables import CALL_SUMS, GAME_STATS, PLAY_SUMS, SEAT_STATS, P


KINDS = ("turn", "attack", "after_draw", "call", "push")  # decision kinds asked of agents




class GameOver(Exception):
    """Raised internally to unwind when the game ends mid-turn (FS-9.1)."""


class State:
    """One game of faking-sick in progress: its state, the legal options and the helpers of the turn."""

    def __init__(self, params: dict, players: int, rng: Rng, agent, log=None):
        self.p = params
        self.n = players
        self.rng = rng
        self.agent = agent  # decide(engine, seat, kind, legal) -> option, every decision
        self.ctx: dict = {}  # the context of the decision asked (a call's play, a push's target)
        self.log = log
        self.hands = [[0] * NT for _ in range(players)]
        self.slots: list[list[int | None]] = [[] for _ in range(players)]
        self.draw_pile: list[int] = []
        self.discard: list[int] = []
        self.unused: list[int] = []
        self.removed: list[int] = []
        self.limbo: int | None = None
        self.revealing: tuple[int, int] | None = None  # (player, slot) during FS-7.3 steps 1-4
        self.to_move = params["first_player"]
        self.turns = 0
        self.ban_owner: int | None = None
        self.attack: int | None = None  # FEV or SNZ, pending against attack_target
        self.attack_target = -1
        self.winner = -1
        self.win_method = 0  # 1 play_out, 2 push_out
        self.turn_cap = False
        self.over = False
        self.stats = dict.fromkeys(GAME_STATS, 0)
        self.seat = [dict.fromkeys(SEAT_STATS, 0) for _ in range(players)]
        self.call_sums = [[[[0] * len(CALL_SUMS) for _ in range(players)] for _ in range(players)] for _ in range(NT)]  # [t][d][seat]
        self.play_sums = [[[0] * len(PLAY_SUMS) for _ in range(players)] for _ in range(NT)]
        self.banned_call_sums = [[[0] * len(CALL_SUMS) for _ in range(NT)] for _ in range(NT)]  # [banned][played]
        self.initial_banned: list[list[int]] = [[] for _ in range(players)]  # banned types at setup (FS-2.1)
        # public information for the call model (FS-7.5, FS-11.1)
        self.revealed_count = [0] * NT
        self.cleared = [[False] * NT for _ in range(players)]
        self.total = [0] * NT
        self.check = False  # run check_invariants before every decision (tests)
        self.lead = Lead(players)  # game feel, observed at every turn end and at the game's end

    # ---- helpers -------------------------------------------------------------------
    def say(self, text: str) -> None:
        if self.log is not None:
            self.log.append(f"t{self.turns} {text}")

    def hand_size(self, s: int) -> int:
        return sum(self.hands[s])

    def ban_estimate(self, q: int, s: int, t: int) -> float:
        """The call model's estimate, as seen by q, that s's played type t is banned for s."""
        return ban_estimate(self, q, s, t)

    def top(self) -> int | None:
        return self.discard[-1] if self.discard else None

    def banned_types(self, s: int) -> list[int]:
        """Types of s's face-down banned cards (excluding one being revealed)."""
        return [t for i, t in enumerate(self.slots[s]) if t is not None and self.revealing != (s, i)]

    def is_bluff(self, s: int, t: int) -> bool:
        """FS-4.3: a play of one of the player's own banned types."""
        return t in self.banned_types(s)

    def zone_counts(self) -> list[int]:
        """FS-1.3: per-type count of every zone together (virus marker included)."""
        c = [0] * NT
        c[VIR] += 1  # the virus marker (FS-2.2)
        for s in range(self.n):
            for t in range(NT):
                c[t] += self.hands[s][t]
            for t in self.slots[s]:
                if t is not None:
                    c[t] += 1
        for pile in (self.draw_pile, self.discard, self.unused, self.removed):
            for t in pile:
                c[t] += 1
        if self.limbo is not None:
            c[self.limbo] += 1
        return c

    def check_invariants(self) -> None:
        """FS-1.3 card conservation and basic state sanity; raises AssertionError."""
        assert self.zone_counts() == self.total, (self.zone_counts(), self.total)
        assert all(min(h) >= 0 for h in self.hands)
        assert VIR not in [t for sl in self.slots for t in sl if t is not None], "FS-8.2: VIR banned"

    # ---- setup (FS-2) --------------------------------------------------------------
    def setup(self) -> None:
        """FS-2.1-2.6. RNG: shuffle the banned pool, then the deck (kernel/__init__.py protocol)."""
        p, n = self.p, self.n
        deck, pool_counts, k = p["deck_counts"], p["banned_pool"], p["banned_per_player"]
        self.total = list(deck)
        pool = [t for t in range(NT) for _ in range(pool_counts[t])]
        self.rng.shuffle(pool)
        self.slots = [pool[s * k:(s + 1) * k] for s in range(n)]
        self.initial_banned = [list(sl) for sl in self.slots]
        self.unused = pool[n * k:]
        rest = [deck[t] - pool_counts[t] - (t == VIR) for t in range(NT)]
        self.draw_pile = [t for t in range(NT) for _ in range(rest[t])]
        self.rng.shuffle(self.draw_pile)
        for s in range(n):
            for _ in range(p["hand_size"]):
                self.hands[s][self.draw_pile.pop()] += 1
        self.discard = [self.draw_pile.pop()]
        self.say(f"setup: first face-up card {TYPES[self.discard[0]]}")
        if p["initial_card_effect"] == "apply":
            self.resolve_effect((p["first_player"] - 1) % n, self.discard[0])

    # ---- drawing (FS-10, FS-8) -----------------------------------------------------
    def reshuffle(self) -> None:
        """FS-10.1: the discard pile below its top, shuffled, becomes the draw pile."""
        self.draw_pile = self.discard[:-1]
        self.discard = self.discard[-1:]
        self.rng.shuffle(self.draw_pile)
        self.stats["reshuffles"] += 1
        self.say(f"reshuffle: draw pile {len(self.draw_pile)} cards")

    def take_from_pile(self) -> int | None:
        """FS-10.1-10.3: one card off the draw pile, reshuffling if needed; None if none."""
        if not self.draw_pile:
            if self.p["reshuffle"] != "discard_except_top" or len(self.discard) <= 1:
                return None
            self.reshuffle()
        return self.draw_pile.pop()

    def draw_cards(self, s: int, count: int) -> int:
        """FS-10.2: draw one card at a time into s's hand; returns the number drawn."""
        got = 0
        for _ in range(count):
            t = self.take_from_pile()
            if t is None:
                break
            self.hands[s][t] += 1
            got += 1
        self.stats["cards_drawn"] += got
        self.seat[s]["cards_drawn"] += got
        return got

    def draw_replacement(self, s: int, slot: int) -> None:
        """FS-8.1-8.4: draw a new banned card into ``slot``, skipping viruses to the discard bottom."""
        while True:
            if not self.draw_pile:
                below = self.discard[:-1]
                if self.p["reshuffle"] != "discard_except_top" or all(t == VIR for t in below):
                    self.say(f"P{s} finds no replacement banned card (FS-8.4)")
                    return
                self.reshuffle()
            t = self.draw_pile.pop()
            if t == VIR:
                self.discard.insert(0, t)
                self.stats["viruses_skipped"] += 1
                continue
            self.slots[s][slot] = t
            self.cleared[s] = [False] * NT
            self.say(f"P{s} draws a new banned card")
            return

    # ---- legality (FS-4) -----------------------------------------------------------
    def ban_binds(self, s: int) -> bool:
        """FS-5.4: does an active HEADACHE ban on VIRUS bind s?"""
        if self.ban_owner is None:
            return False
        if self.p["headache_ban_scope"] == "until_owner_next_turn":
            return True
        return s == (self.ban_owner + 1) % self.n

    def can_play(self, s: int, t: int) -> bool:
        """FS-4.1, 4.2, 4.4 for one card type in s's hand."""
        if self.hands[s][t] == 0 or t == self.top():
            return False
        if t == VIR and self.ban_binds(s):
            return False
        if self.hand_size(s) == 1:  # going-out play
            if TYPES[t] in self.p["last_card_forbidden_types"]:
                return False
            if self.is_bluff(s, t) and self.p["banned_last_card"] == "illegal":
                return False
        return True

    def counters(self, attack: int) -> set[int]:
        names = self.p["fever_counters"] if attack == FEV else self.p["sneeze_counters"]
        return {TYPES.index(x) for x in names}

    def play_options(self, s: int, action: str, types) -> list[dict]:
        return [
            {"action": action, "card": TYPES[t], "bluff": self.is_bluff(s, t)}
            for t in types if self.can_play(s, t)
        ]

    def legal_turn(self, s: int) -> list[dict]:
        """D1 (FS-3.4, FS-3.5): legal plays, then DRAW if allowed."""
        opts = self.play_options(s, "play", range(NT))
        honest = [o for o in opts if not o["bluff"]]
        if self.p["voluntary_draw"] or not honest:
            opts.append({"action": "draw"})
        return opts

    def legal_attack(self, s: int) -> list[dict]:
        """D2 (FS-3.3, FS-4.5): counter plays, then ACCEPT."""
        opts = self.play_options(s, "counter", sorted(self.counters(self.attack)))
        return opts + [{"action": "accept"}]

    def legal_after_draw(self, s: int) -> list[dict]:
        """FS-3.4 with play_after_draw: a legal play or END."""
        return self.play_options(s, "play", range(NT)) + [{"action": "end"}]

    def legal_push(self, s: int) -> list[dict]:
        """D4 (FS-7.2): every multiset of min(push_count, hand) cards of s's hand."""
        m = min(self.p["push_count"], self.hand_size(s))
        out = []
        for combo in combinations_with_replacement(range(NT), m):
            if all(combo.count(t) <= self.hands[s][t] for t in set(combo)):
                out.append({"push": [TYPES[t] for t in combo]})
        return out

    # ---- asking --------------------------------------------------------------------
    def ask(self, s: int, kind: str, legal: list[dict], **ctx) -> dict:
        self.stats["decisions"] += 1  # tables.py: every ask counts, forced ones included
        if self.check:
            self.check_invariants()
        self.ctx = ctx
        return self.agent.decide(self, s, kind, legal)
