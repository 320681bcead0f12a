"""Virus Dogs through ``cardlab.env`` (cardlab/rl.py): a seat's observation (what
``kernel.search.same_view`` says it sees, VD-22; docs/reinforcement-learning.md lists it), the
action ids (the option codes themselves, all below ``MAX_PENDING``) and the rewards."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.games.virus_dogs import tables as tb
from sim.games.virus_dogs.kernel.search import OWN_SEAT, PUBLIC_GAME, PUBLIC_SCALARS, PUBLIC_SEAT, peeked
from sim.games.virus_dogs.kernel.state import (F_LIVE, K_GIVE, K_REFUSE_EXC, MAX_PEEK, MAX_PENDING, MAX_SEATS, NF, NS,
                                               NT, O_DECK, O_GIVEN, O_GM, O_H, O_LIMBO, O_PEEK, O_PL, O_SM, S_CUR,
                                               S_DSIZE, S_LIMBO, S_N, S_PKIND, S_PSEAT)
from sim.kit.kernel_util import ix

PUBLIC = np.concatenate([PUBLIC_SCALARS, O_GM + PUBLIC_GAME])
SIZE = 2 + len(PUBLIC) + MAX_SEATS * (NF + len(PUBLIC_SEAT)) + len(OWN_SEAT) + 2 * NT + 2 * MAX_PEEK


def action_count(cfg) -> int:
    """The size of the Discrete action space."""
    return MAX_PENDING


def action_ids(buf: np.ndarray, options: np.ndarray) -> np.ndarray:
    """The action ids of the pending decision's legal options: the codes themselves."""
    return options


@njit(cache=True, error_model="numpy")
def observe_into(b, seat, out):
    """``seat``'s observation into ``out`` (``SIZE`` slots), in the order of docs/reinforcement-learning.md."""
    own = b[S_PSEAT] == seat
    out[0] = seat
    out[1] = b[S_PKIND] if own else -1
    j = 2
    for x in PUBLIC:
        out[j] = b[ix(x)]
        j += 1
    live = b[S_N]
    for s in range(live):
        for f in range(NF):
            out[ix(j + f)] = b[ix(O_PL + s * NF + f)]
        j += NF
        for k in range(len(PUBLIC_SEAT)):
            out[ix(j + k)] = b[ix(O_SM + s * NS + PUBLIC_SEAT[k])]
        j += len(PUBLIC_SEAT)
    out[j:j + (MAX_SEATS - live) * (NF + len(PUBLIC_SEAT))] = 0
    j += (MAX_SEATS - live) * (NF + len(PUBLIC_SEAT))
    for k in range(len(OWN_SEAT)):
        out[ix(j + k)] = b[ix(O_SM + seat * NS + OWN_SEAT[k])]
    j += len(OWN_SEAT)
    for c in range(NT):
        out[j + c] = b[ix(O_H + seat * NT + c)]
    hidden_counts_into(b, seat, out[j + NT:j + 2 * NT])
    j += 2 * NT
    shown = peeked(b) if own else 0
    for i in range(MAX_PEEK):
        out[j + i] = b[ix(O_PEEK + i)] if i < shown else -1
    j += MAX_PEEK
    taken = b[S_LIMBO] if b[S_CUR] == seat else 0
    for i in range(MAX_PEEK):
        out[j + i] = b[ix(O_LIMBO + i)] if i < taken else -1


@njit(cache=True, error_model="numpy")
def hidden_counts_into(b, seat, out):
    """``kernel.search.hidden_count`` of every card type ``c`` into ``out[c]``, one pass over each
    zone (the other hands, the deck, another player's limbo, the exchange cards given so far)."""
    for c in range(NT):
        out[c] = 0
        for o in range(b[S_N]):
            if o != seat:
                out[c] += b[ix(O_H + o * NT + c)]
    for i in range(b[S_DSIZE]):
        out[b[ix(O_DECK + i)]] += 1
    if b[S_CUR] != seat:
        for i in range(b[S_LIMBO]):
            out[b[ix(O_LIMBO + i)]] += 1
    if b[S_PKIND] == K_GIVE or b[S_PKIND] == K_REFUSE_EXC:
        for o in range(b[S_N]):
            if o != seat and b[ix(O_GIVEN + o)] >= 0:
                out[b[ix(O_GIVEN + o)]] += 1


def out_of_game(buf: np.ndarray, seat: int) -> bool:
    """Has ``seat`` left the game before its end (eliminated, VD-19)? It can no longer win."""
    return not buf[O_PL + seat * NF + F_LIVE]


def rewards(buf: np.ndarray) -> np.ndarray:
    """Each seat's reward for the finished game: 1 for a win, a shared win split (VD-20.10, VD-21.3)."""
    win = buf[O_SM + np.arange(buf[S_N]) * NS + tb.SI["win"]].astype(float)
    return win / max(win.sum(), 1.0)
