"""Reference engine of faking-sick, the game: the game loop, a turn (FS-3 .. FS-5), plays, the call
window and its judgement (FS-6), pushes (FS-7) and the game's end. The fast engine's twin:
``kernel/turn.py``."""

from __future__ import annotations

from ..rules import FEV, HDA, SNZ, TYPES, VIR
from ..tables import C, P
from .state import CALL_OPTIONS, GameOver


class Turns:
    """The game loop and a turn (a part of ``FakingSick``)."""

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
        self.ctx = {"played": t, "target": s}
        window = getattr(self.agent, "window", None)  # a scenario's list may answer a window at once
        callers = (window(self, s, t, eligible) if window is not None else
                   [q for q in eligible if self.agent.decide(self, q, "call", list(CALL_OPTIONS))["call"]])
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
