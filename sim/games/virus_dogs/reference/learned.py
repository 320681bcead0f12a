"""Virus Dogs' learned bot (``sim.kit.learned``): the features of a legal option, reference side;
``kernel/learned.py`` computes the same integers from the state buffer and the option code.

Each feature is a whole number the seat can see (VD-22): what kind of move the option is, and a
few facts it changes. ``density_pct`` is the bots' estimated chance that an unseen card is a
virus (``bots.density_at_least``) in whole percent, 100 once a virus is known on top (VD-7.7).
"""

from __future__ import annotations

from pathlib import Path

from sim.games.virus_dogs.rules import AMB, ANT, CODE_OF, DOC, V

POLICY_FILE = Path(__file__).parents[1] / "learned_policy.json"  # the learned bot's default weights

FEATURES = (
    "declare",           # declare a virus (action or drawn virus)
    "self_eliminating",  # a declaration that reaches the elimination threshold (AD-16)
    "cure",              # play DOC or AMB
    "control",           # play CTL
    "target_open",       # open viruses of the CTL or hard-quarantine target
    "quarantine",        # play QRN
    "shuffle",           # play SHF
    "cough",             # play CGH
    "exchange",          # play EXC
    "end_turn",          # end the turn (phase C)
    "draw",              # cards the option commits to drawing
    "draw_risk",         # draw * density_pct
    "peek",              # the mask or black-market mode
    "skip",              # the TP skip mode
    "antiseptic",        # antiseptic on a drawn or coughed virus
    "refuse",            # refuse a cough or an exchange card with TP
    "viruses_taken",     # viruses the option puts in the own hand (hide, mask, black market)
    "cards_taken",       # other cards a mask or black market takes
    "gives_virus",       # give a virus in an exchange
    "declare_curable",   # a declaration that does not eliminate, with DOC or AMB in hand
    "cure_open",         # cure * own open viruses
    "control_kill",      # CTL on a target with cards at one open virus from elimination
    "quarantine_clean",  # QRN with no hidden virus in hand
    "exchange_virus",    # EXC with a hidden virus in hand
    "skip_risk",         # skip * density_pct
    "refuse_at_risk",    # refuse with TP when one more open virus eliminates and no ANT is held
)
NFEAT = len(FEATURES)
(F_DECLARE, F_SELF_ELIM, F_CURE, F_CONTROL, F_TARGET_OPEN, F_QUARANTINE, F_SHUFFLE, F_COUGH, F_EXCHANGE,
 F_END, F_DRAW, F_DRAW_RISK, F_PEEK, F_SKIP, F_ANTISEPTIC, F_REFUSE, F_VIRUSES_TAKEN, F_CARDS_TAKEN,
 F_GIVES_VIRUS, F_DECLARE_CURABLE, F_CURE_OPEN, F_CONTROL_KILL, F_QUARANTINE_CLEAN, F_EXCHANGE_VIRUS,
 F_SKIP_RISK, F_REFUSE_AT_RISK) = range(NFEAT)
_PLAYED = {"CTL": F_CONTROL, "QRN": F_QUARANTINE, "DOC": F_CURE, "AMB": F_CURE, "SHF": F_SHUFFLE,
           "CGH": F_COUGH, "EXC": F_EXCHANGE}


def density_pct(eng, seat: int) -> int:
    """Estimated virus share of the unseen cards in whole percent (100 with a known virus on top)."""
    if eng.known_top > 0:
        return 100
    opened = sum(p.open for p in eng.players if p.live)
    unknown = eng.r.n_virus_total - eng.reserve - opened - eng.players[seat].hand[V] - eng.pending
    pool = len(eng.deck) + sum(p.hand_size() for p in eng.players if p.live and p.seat != seat)
    return unknown * 100 // pool if pool > 0 else 0


def reference_features(eng, seat: int, kind: str, o: dict, ctx: dict) -> list[int]:
    """The features of option ``o`` of ``seat``'s decision ``kind`` (``ctx``: the reference
    engine's decision context)."""
    f = [0] * NFEAT
    me = eng.players[seat]
    t = o["type"]
    if t == "declare" or (kind == "virus" and o["response"] == "declare"):
        f[F_DECLARE] = 1
        f[F_SELF_ELIM] = int(me.open + 1 >= eng.r.elimination_threshold)
    elif t == "play":
        f[_PLAYED[o["card"]]] = 1
        if o["card"] == "CTL":
            f[F_TARGET_OPEN] = eng.players[o["target"]].open
    elif t == "end":
        f[F_END] = 1
    elif t == "mode":
        if o["mode"] == "draw":
            f[F_DRAW] = o["count"] if "count" in o else 1
        elif o["mode"] == "skip":
            f[F_SKIP] = 1
        else:
            f[F_PEEK] = 1
    elif kind == "virus":
        f[F_ANTISEPTIC] = int(o["response"] == "antiseptic")
        f[F_VIRUSES_TAKEN] = int(o["response"] == "hide")
    elif kind == "draw_another":
        f[F_DRAW] = int(o["value"])
    elif kind == "mask_take":
        taken = [ctx["peek"][i] for i in o["take"]]
        f[F_VIRUSES_TAKEN] = taken.count(V)
        f[F_CARDS_TAKEN] = len(taken) - taken.count(V)
    elif kind == "market_take":
        virus = ctx["seen"][o["index"]] == V
        f[F_VIRUSES_TAKEN], f[F_CARDS_TAKEN] = int(virus), int(not virus)
    elif kind == "cough":
        f[F_REFUSE] = int(o["response"] == "refuse")
    elif kind == "cough_virus":
        f[F_ANTISEPTIC] = int(o["response"] == "antiseptic")
    elif kind == "give":
        f[F_GIVES_VIRUS] = int(CODE_OF[o["card"]] == V)
    elif kind == "refuse_exchange":
        f[F_REFUSE] = int(o["value"])
    elif kind == "hq_target":
        f[F_TARGET_OPEN] = eng.players[o["player"]].open
    f[F_DRAW_RISK] = f[F_DRAW] * density_pct(eng, seat) if f[F_DRAW] else 0
    h, thr = me.hand, eng.r.elimination_threshold
    f[F_DECLARE_CURABLE] = int(f[F_DECLARE] == 1 and f[F_SELF_ELIM] == 0 and (h[DOC] > 0 or h[AMB] > 0))
    f[F_CURE_OPEN] = f[F_CURE] * me.open
    if f[F_CONTROL]:
        target = eng.players[o["target"]]
        f[F_CONTROL_KILL] = int(target.open >= thr - 1 and target.hand_size() >= 1)
    f[F_QUARANTINE_CLEAN] = int(f[F_QUARANTINE] == 1 and h[V] == 0)
    f[F_EXCHANGE_VIRUS] = int(f[F_EXCHANGE] == 1 and h[V] >= 1)
    f[F_SKIP_RISK] = density_pct(eng, seat) if f[F_SKIP] else 0
    f[F_REFUSE_AT_RISK] = int(f[F_REFUSE] == 1 and me.open + 1 >= thr and h[ANT] == 0)
    return f
KERNEL_MODULE = "sim.games.virus_dogs.kernel.learned"  # features_of: the features at a pending decision
