"""Reference engine of faking-sick: readable, one method per rule, spec IDs cited.

The engine is decision driven: whenever a player must decide it calls
``agent.decide(engine, player, kind, legal)`` with the legal options (dicts in the scenario
format, docs/scenarios/faking-sick.md); bots and scripted decision lists are interchangeable.
Piles are Python lists: the draw pile's top is its LAST element, the discard pile runs
bottom -> top. Hands are counts per type (hands are multisets, FS-1.3).
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np

from sim.lead import Lead
from sim.learned import best_option
from sim.games.base import seat_bots
from sim.rng import Rng

from . import bots as B
from . import learned
from ..rules import FEV, HDA, NT, SNZ, TYPES, VIR
from ..tables import BANNABLE, CALL_SUMS, GAME_FIELDS, GAME_STATS, PLAY_SUMS, SEAT_FIELDS, SEAT_STATS, C, P

KINDS = ("turn", "attack", "after_draw", "call", "push")  # decision kinds asked of agents
CALL_OPTIONS = ({"call": False}, {"call": True})  # the legal options of a call question (D3)


class GameOver(Exception):
    """Raised internally to unwind when the game ends mid-turn (FS-9.1)."""


class FakingSick:
    """One game's state and rules."""

    def __init__(self, params: dict, players: int, rng: Rng, agent, log=None):
        self.p = params
        self.n = players
        self.rng = rng
        self.agent = agent
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
        """The call model's estimate, as seen by q, that s's played type t is banned for s
        (bots.ban_probability)."""
        pool = self.p["banned_pool"]
        own = [x for x in self.slots[q] if x is not None]
        safe = self.hand_size(s) == 0 and self.p["banned_last_card"] == "illegal"
        p_slots = sum(1 for x in self.slots[s] if x is not None)
        return B.ban_probability(
            (pool[t], sum(pool)), (own.count(t), len(own)), (self.revealed_count[t], sum(self.revealed_count)),
            p_slots, self.cleared[s][t], safe,
        )

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
        return self.agent.decide(self, s, kind, legal, **ctx)

    # ---- the game loop -------------------------------------------------------------
    def play_game(self) -> None:
        try:
            while True:
                self.turn(self.to_move)
        except GameOver:
            self.observe()
            if self.check:
                self.check_invariants()

    def observe(self) -> None:
        """Game feel: the hand sizes at a turn end or the game's end (fewest cards leads)."""
        self.lead.observe(self.turns, {s: self.hand_size(s) for s in range(self.n)})

    def turn(self, s: int) -> None:
        """FS-3: one turn of player s."""
        self.start_turn(s)
        self.take_action(s, retry=False)
        self.end_turn(s)
        self.observe()

    def start_turn(self, s: int) -> None:
        """FS-3.2: turn cap (FS-9.6), turn count, end of an owner-scoped HEADACHE ban."""
        if self.turns >= self.p["max_turns"]:
            self.turn_cap = True
            self.say("turn cap reached: draw (FS-9.6)")
            self.finish()
        self.turns += 1
        if (self.ban_owner == s and self.p["headache_ban_scope"] == "until_owner_next_turn"):
            self.ban_owner = None
            self.say("the VIRUS ban ends")

    def take_action(self, s: int, retry: bool) -> None:
        """FS-3.3 (under attack) or FS-3.4 (normal turn)."""
        if self.attack is not None and self.attack_target == s:
            d = self.ask(s, "attack", self.legal_attack(s))
            if d["action"] == "accept":
                self.accept_attack(s)
            else:
                self.play(s, TYPES.index(d["card"]), under_attack=True, retry=retry)
            return
        if self.ban_binds(s) and self.hands[s][VIR] and self.top() != VIR:
            self.stats["virus_blocked"] += 1
        d = self.ask(s, "turn", self.legal_turn(s))
        if d["action"] == "play":
            self.play(s, TYPES.index(d["card"]), under_attack=False, retry=retry)
            return
        self.voluntary_draw(s)
        if self.p["play_after_draw"]:
            d = self.ask(s, "after_draw", self.legal_after_draw(s))
            if d["action"] == "play":
                self.play(s, TYPES.index(d["card"]), under_attack=False, retry=retry)

    def voluntary_draw(self, s: int) -> None:
        """FS-3.4 DRAW: draw_count cards; the turn ends (no call window, FS-6.1)."""
        got = self.draw_cards(s, self.p["draw_count"])
        self.stats["draws"] += 1
        self.seat[s]["draws"] += 1
        self.say(f"P{s} draws {got}")

    def accept_attack(self, s: int) -> None:
        """FS-3.3 ACCEPT / FS-5.2: draw the attack penalty; the attack is over."""
        self.stats["attacks_accepted"] += 1
        got, kind = self.suffer_attack(s)
        self.say(f"P{s} accepts the {TYPES[kind]} attack and draws {got}")

    def suffer_attack(self, s: int) -> tuple[int, int]:
        kind = self.attack
        pen = self.p["fever_penalty_draw"] if kind == FEV else self.p["sneeze_penalty_draw"]
        self.attack, self.attack_target = None, -1
        self.stats["penalty_draws"] += 1
        self.seat[s]["attacks_suffered"] += 1
        return self.draw_cards(s, pen), kind

    def end_turn(self, s: int) -> None:
        """FS-3.6: a next-player-scoped ban that bound s ends; the next player moves."""
        if (self.ban_owner is not None and self.p["headache_ban_scope"] == "next_player_turn"
                and (self.ban_owner + 1) % self.n == s):
            self.ban_owner = None
            self.say("the VIRUS ban ends")
        self.to_move = (s + 1) % self.n

    # ---- a play and its call window (FS-4.6, FS-6) ---------------------------------
    def play(self, s: int, t: int, under_attack: bool, retry: bool) -> None:
        """FS-4.6: the card goes to limbo; FS-6 window; FS-7 judgement or FS-6.5 confirmation."""
        bluff = self.is_bluff(s, t)
        self.hands[s][t] -= 1
        self.limbo = t
        self.stats["plays"] += 1
        self.seat[s]["plays"] += 1
        self.play_sums[t][s][P["plays"]] += 1
        if bluff:
            self.stats["bluffs"] += 1
            self.seat[s]["bluffs"] += 1
            self.play_sums[t][s][P["bluffs"]] += 1
        self.say(f"P{s} plays {TYPES[t]}" + (" (bluff)" if bluff else ""))
        caller = self.call_window(s, t)
        if caller is None:
            if bluff and self.hand_size(s) == 0:
                self.void_going_out(s, t, under_attack)
            else:
                self.confirm(s, t, under_attack)
            return
        self.play_sums[t][s][P["called"]] += 1
        self.seat[s]["times_called"] += 1
        self.stats["calls_made"] += 1
        self.seat[caller]["calls_made"] += 1
        d = (caller - s) % self.n  # clockwise distance challenged -> caller (FS-6.3)
        cell = self.call_sums[t][d][caller]
        cell[C["calls"]] += 1
        for y in set(self.banned_types(s)):  # call success by the challenged player's banned types
            self.banned_call_sums[y][t][C["calls"]] += 1
            self.banned_call_sums[y][t][C["successes"]] += bluff
        if bluff:
            cell[C["successes"]] += 1
            self.call_succeeds(s, t, caller, under_attack, retry)
        else:
            self.call_fails(s, t, caller, under_attack)

    def call_window(self, s: int, t: int) -> int | None:
        """FS-6.1-6.3: ask every other eligible player once (clockwise from s); pick the caller."""
        eligible = []
        for d in range(1, self.n):
            q = (s + d) % self.n
            if self.p["push_short_hand"] == "forbid_call" and self.hand_size(q) < self.p["push_count"]:
                continue
            eligible.append(q)
        self.stats["decisions"] += len(eligible)  # one call question each
        if self.check:
            self.check_invariants()
        callers = self.agent.window(self, s, t, eligible)
        self.stats["call_requests"] += len(callers)
        for q in callers:
            self.seat[q]["call_requests"] += 1
        if not callers:
            return None
        if self.p["call_priority"] == "random" and len(callers) > 1:
            caller = callers[self.rng.randbelow(len(callers))]
        else:
            caller = callers[0]  # FS-6.3: nearest clockwise from the challenged player
        self.say("calls: " + ", ".join(f"P{q}" for q in callers) + f"; judged caller P{caller}")
        return caller

    def confirm(self, s: int, t: int, under_attack: bool) -> None:
        """FS-6.5: the card goes on the discard pile; going out (FS-9.1) or its effect (FS-5)."""
        self.discard.append(t)
        self.limbo = None
        if self.hand_size(s) == 0:
            self.say(f"P{s} goes out (play_out); banned cards revealed: "
                     + ", ".join(TYPES[x] for x in self.banned_types(s)))
            self.finish(s, 1)
        if under_attack:
            self.attack, self.attack_target = None, -1
            self.stats["attacks_countered"] += 1
        self.resolve_effect(s, t)

    def resolve_effect(self, s: int, t: int) -> None:
        """FS-5.2 attacks (reconstructed profile only) and FS-5.4 HEADACHE."""
        if t in (FEV, SNZ) and self.p["effects_profile"] == "reconstructed":
            self.attack, self.attack_target = t, (s + 1) % self.n
            self.stats["attacks_played"] += 1
            self.say(f"{TYPES[t]} attack pending on P{self.attack_target}")
        elif t == HDA:
            self.ban_owner = s
            self.stats["headache_bans"] += 1
            self.say(f"VIRUS ban starts (owner P{s})")

    # ---- judgement (FS-7) ----------------------------------------------------------
    def call_fails(self, s: int, t: int, caller: int, under_attack: bool) -> None:
        """FS-7.4: the caller draws call_fail_draw; the play is confirmed."""
        self.stats["calls_failed"] += 1
        self.cleared[s][t] = True
        got = self.draw_cards(caller, self.p["call_fail_draw"])
        self.say(f"P{s}: not banned; P{caller} draws {got}")
        self.confirm(s, t, under_attack)

    def reveal(self, s: int, t: int) -> int:
        """FS-7.1: reveal the lowest-index slot holding t (duplicates: only one, D5)."""
        slot = next(i for i, x in enumerate(self.slots[s]) if x == t and self.revealing != (s, i))
        if sum(1 for x in self.slots[s] if x == t) > 1:
            self.stats["duplicate_reveals"] += 1
        self.revealing = (s, slot)
        self.stats["reveals"] += 1
        self.revealed_count[t] += 1
        self.say(f"P{s} reveals banned {TYPES[t]}")
        return slot

    def discard_revealed(self, s: int, slot: int) -> None:
        """FS-7.3 step 4: the revealed card goes to revealed_banned_destination."""
        t = self.slots[s][slot]
        self.slots[s][slot] = None
        self.revealing = None
        dest = self.p["revealed_banned_destination"]
        if dest == "discard_bottom":
            self.discard.insert(0, t)
        elif dest == "removed":
            self.removed.append(t)
        else:
            self.hands[s][t] += 1

    def call_succeeds(self, s: int, t: int, caller: int, under_attack: bool, retry: bool) -> None:
        """FS-7.3 steps 1-7."""
        self.stats["calls_succeeded"] += 1
        self.stats["bluffs_caught"] += 1
        self.seat[caller]["calls_correct"] += 1
        self.seat[s]["bluffs_caught"] += 1
        self.play_sums[t][s][P["bluffs_caught"]] += 1
        slot = self.reveal(s, t)                                   # step 1
        self.push(caller, s)                                       # step 2
        if self.hand_size(caller) == 0:
            self.say(f"P{caller} goes out (push_out)")
            self.finish(caller, 2)
        self.hands[s][t] += 1                                      # step 3
        self.limbo = None
        self.discard_revealed(s, slot)                             # step 4
        self.draw_replacement(s, slot)                             # step 5
        again = self.p["successful_call_turn"] == "play_again" and not retry
        if under_attack and not again:                             # step 6
            self.after_failed_counter(s)
        if again:                                                  # step 7
            self.say(f"P{s} plays again")
            self.take_action(s, retry=True)

    def after_failed_counter(self, s: int) -> None:
        """FS-7.3 step 6: the attack hits (failed_counter_penalty) or lapses; it is over."""
        if self.p["failed_counter_penalty"]:
            got, kind = self.suffer_attack(s)
            self.say(f"P{s} suffers the {TYPES[kind]} penalty: draws {got}")
        else:
            self.attack, self.attack_target = None, -1

    def push(self, caller: int, s: int) -> None:
        """FS-7.2: the caller gives min(push_count, hand) cards of their choice to s."""
        m = min(self.p["push_count"], self.hand_size(caller))
        if m == 0:
            return
        d = self.ask(caller, "push", self.legal_push(caller), target=s)
        for name in d["push"]:
            t = TYPES.index(name)
            self.hands[caller][t] -= 1
            self.hands[s][t] += 1
        self.stats["cards_pushed"] += m
        self.seat[caller]["cards_pushed"] += m
        self.seat[s]["cards_received"] += m
        self.say(f"P{caller} pushes {m} card(s) to P{s}")

    def void_going_out(self, s: int, t: int, under_attack: bool) -> None:
        """FS-9.4 banned_last_card = void: the reveal voids the going out."""
        self.stats["void_go_outs"] += 1
        self.stats["bluffs_caught"] += 1
        self.seat[s]["bluffs_caught"] += 1
        self.play_sums[t][s][P["bluffs_caught"]] += 1
        self.say(f"P{s} tries to go out on banned {TYPES[t]}: void")
        self.hands[s][t] += 1
        self.limbo = None
        self.draw_cards(s, self.p["call_fail_draw"])
        slot = self.reveal(s, t)
        self.discard_revealed(s, slot)
        self.draw_replacement(s, slot)
        if under_attack:
            self.after_failed_counter(s)

    def finish(self, winner: int = -1, method: int = 0) -> None:
        self.winner, self.win_method, self.over = winner, method, True
        raise GameOver


# ---- agents -------------------------------------------------------------------------
class CallEach:
    """An agent's call window (FS-6.2): each eligible player's own call decision, clockwise."""

    def window(self, g: FakingSick, s: int, t: int, eligible: list[int]) -> list[int]:
        return [q for q in eligible if self.decide(g, q, "call", list(CALL_OPTIONS), played=t, target=s)["call"]]


class BotAgent(CallEach):
    """Seats played by the bundled policies (bots.py), reading the engine state."""

    def __init__(self, specs: list, params: list[dict]):
        self.specs = specs  # BotSpec per seat
        self.params = params  # resolved parameters per seat

    def decide(self, g: FakingSick, s: int, kind: str, legal: list[dict], **ctx) -> dict:
        return bot_decide(g, s, self.specs[s].policy, self.params[s], kind, legal, **ctx)


def bot_decide(g: FakingSick, s: int, policy: int, bp: dict, kind: str, legal: list[dict], **ctx) -> dict:
    """The policies of bots.py; same random draws as the kernel twins."""
    if kind == "call":
        return {"call": wants_call(g, s, policy, bp, ctx["target"], ctx["played"])}
    if kind == "push":
        return {"push": [TYPES[t] for t in choose_push(g, s, policy)]}
    if policy == B.RANDOM:
        return legal[g.rng.randbelow(len(legal))]
    if policy == B.LEARNED:
        weights = [bp["w_" + f] for f in learned.FEATURES]
        return legal[best_option(weights, [learned.reference_features(g, s, kind, o, ctx) for o in legal])]
    plays = [o for o in legal if "card" in o]
    honest = [0] * NT
    bluff = [0] * NT
    for o in plays:
        (bluff if o["bluff"] else honest)[TYPES.index(o["card"])] = 1
    hand = g.hands[s]
    if policy == B.BLUFFER and any(bluff):
        h = sum(hand[t] for t in range(NT) if honest[t])
        if g.rng.uniform() < B.bluff_probability(bp, h):
            return _option(plays, B.argmax_type(hand, bluff))
    if any(honest):
        return _option(plays, B.argmax_type(hand, honest))
    return legal[-1]


def _option(plays: list[dict], t: int) -> dict:
    return next(o for o in plays if o["card"] == TYPES[t])


def wants_call(g: FakingSick, q: int, policy: int, bp: dict, s: int, t: int) -> bool:
    """D3 for the bundled policies (bots.py docstring)."""
    if policy == B.RANDOM:
        return g.rng.uniform() < bp["call_prob"]
    if policy == B.LEARNED:
        weights = [bp["w_" + f] for f in learned.FEATURES]
        ctx = {"target": s, "played": t}
        return best_option(weights, [learned.reference_features(g, q, "call", o, ctx) for o in CALL_OPTIONS]) == 1
    p = g.ban_estimate(q, s, t)
    th = B.call_threshold(bp, g.hand_size(s), g.hand_size(q), g.p["push_count"])
    return p > 0.0 and p > th


def choose_push(g: FakingSick, q: int, policy: int) -> list[int]:
    """D4 for the bundled policies: one card at a time from the remaining hand."""
    hand = list(g.hands[q])
    m = min(g.p["push_count"], sum(hand))
    out = []
    for _ in range(m):
        if policy == B.RANDOM:
            i = g.rng.randbelow(sum(hand))
            t = 0
            while i >= hand[t]:
                i -= hand[t]
                t += 1
        else:
            t = next((x for x in g.slots[q] if x is not None and hand[x] > 0), None)
            if t is None:
                t = B.argmax_type(hand, [1] * NT)
        hand[t] -= 1
        out.append(t)
    return out


# ---- whole games --------------------------------------------------------------------
def seat_agent(cfg, index: int) -> tuple[list[str], BotAgent]:
    """The bots of game ``index`` (rotated seats, ``seat_bots``) with resolved parameters."""
    names = seat_bots(cfg, index)
    specs = [B.BOTS[b] for b in names]
    params = [cfg.bot_values(sp) for sp in specs]
    return names, BotAgent(specs, params)


class SearchSeats(CallEach):
    """An agent whose search seats (bots ``search``) ask the compiled search through a fast twin
    of the game (``sim.search_twin``); the other seats are ``agent``'s."""

    def __init__(self, agent, twin):
        self.agent, self.twin = agent, twin

    def decide(self, g: FakingSick, s: int, kind: str, legal: list[dict], **ctx) -> dict:
        if not self.twin.is_search(s):
            return self.agent.decide(g, s, kind, legal, **ctx)
        return legal[self.twin.answer(s, KINDS.index(kind), len(legal))]


def run_game(cfg, index: int, log: list[str] | None = None, agent=None) -> FakingSick:
    """Set up and play game ``index`` of the run (seeded by ``Rng(cfg.seed, index)`` alone);
    ``agent``: the seats' (default ``seat_agent``'s)."""
    agent = seat_agent(cfg, index)[1] if agent is None else agent
    g = FakingSick(cfg.params, cfg.players, Rng(cfg.seed, index), agent, log)
    g.setup()
    g.play_game()
    return g


def record(g: FakingSick, arr: dict, row: int) -> None:
    """Write one finished game into the result arrays of tables.py."""
    vals = {"winner": g.winner, "turns": g.turns, "win_method": g.win_method,
            "turn_cap": int(g.turn_cap), **g.stats, **g.lead.columns(g.winner)}
    for i, name in enumerate(GAME_FIELDS):
        arr["games"][row, i] = vals[name]
    for s in range(g.n):
        vals = {"final_hand": g.hand_size(s), **g.seat[s], "max_behind": g.lead.max_behind[s],
                **banned_counts("initial", g.initial_banned[s]), **banned_counts("final", g.banned_types(s))}
        for i, name in enumerate(SEAT_FIELDS):
            arr["seats"][row, s, i] = vals[name]
        for t in range(NT):
            for d in range(g.n):
                arr["calls"][t, d, s] += g.call_sums[t][d][s]
            arr["plays"][t, s] += g.play_sums[t][s]
    arr["banned_calls"] += np.array(g.banned_call_sums, dtype=np.int64)


def banned_counts(when: str, types: list[int]) -> dict[str, int]:
    """``{when}_banned_<type>`` seat columns: banned cards of each bannable type (tables.py)."""
    return {f"{when}_banned_{TYPES[t].lower()}": types.count(t) for t in BANNABLE}
