"""Property tests (hypothesis): card conservation at every step, termination, placements."""

from hypothesis import given, settings, strategies as st

from sim.games.base import seat_bots
from sim.games.daifugo import GAME
from sim.games.daifugo.reference.bots import BotAgent
from sim.games.daifugo import bot_params
from sim.games.daifugo.reference import Engine
from sim.games.daifugo.rules import CARD_IDS
from sim.kit.rng import Rng


class CheckingAgent(BotAgent):
    """Bots that check the engine's invariants before every decision."""

    checks = 0

    def decide(self, eng, p, kind, options):
        eng.check_invariants()
        CheckingAgent.checks += 1
        return super().decide(eng, p, kind, options)


configs = st.fixed_dictionaries({
    "players": st.integers(3, 6),
    "seed": st.integers(0, 2**40),
    "index": st.integers(0, 10**6),
    "bots": st.lists(st.sampled_from(["random", "greedy", "strategist"]), min_size=6, max_size=6),
    "params": st.fixed_dictionaries({
        "mode": st.sampled_from(["normal", "madness"]),
        "rule_deck": st.lists(st.sampled_from(CARD_IDS), unique=True, max_size=25),
        "rounds": st.integers(1, 5),
        "madness_rounds": st.integers(1, 4),
        "pass_locks_out": st.booleans(),
        "lone_joker_wild": st.booleans(),
        "three_card_revolution_optional": st.booleans(),
        "forbidden_finish_flows": st.booleans(),
        "max_plays_per_round": st.sampled_from([5, 30, 1000]),
        "ten_discard_mandatory": st.booleans(),
        "pullback_count": st.sampled_from(["kings", "cards_played"]),
        "trickster_precept_timing": st.sampled_from(["after_exchange", "on_draft"]),
        "collusion_round1": st.booleans(),
        "armed_force_resolution": st.sampled_from(["trick_end", "immediate", "round_end"]),
        "exile_mode": st.sampled_from(["no_revolution", "illegal"]),
        "flux_mode": st.sampled_from(["swap_with_next", "rotate_all"]),
        "fusion_respects_locks": st.booleans(),
        "dobon_flows": st.booleans(),
        "dobon_on_stairs": st.booleans(),
        "loophole_uses_per_turn": st.integers(0, 2),
    }),
})


@settings(max_examples=40, deadline=None)
@given(configs)
def test_conservation_termination_placements(c):
    n = c["players"]
    params = dict(c["params"], rule_deck=",".join(c["params"]["rule_deck"]))
    cfg = GAME.make_config(players=n, bots=c["bots"][:n], seed=c["seed"], overrides=params)
    names = seat_bots(cfg, c["index"])
    eng = Engine(cfg, Rng(cfg.seed, c["index"]), CheckingAgent(names, bot_params(cfg, names)))
    eng.start_game()
    assert eng.card_total() == 53
    eng.run()  # terminates: every play removes cards; the play-count guard caps a round
    assert eng.phase == "over"
    assert eng.card_total() in (53, 54) and (eng.card_total() == 54) == eng.trickster_done  # card 05
    assert len(eng.history) == eng.rounds
    for h in eng.history:
        assert sorted(h.ranking) == list(range(n)), "placements must be a permutation of the seats"
        assert h.plays <= cfg.params["max_plays_per_round"]
        if h.guard_hit:
            assert h.plays == cfg.params["max_plays_per_round"]
    assert sum(eng.scores) == sum(eng.rank_pts) + sum(eng.bonus_pts) + sum(eng.vp_pts)
    assert eng.winners and all(eng.scores[w] == max(eng.scores) for w in eng.winners)
    assert len(eng.laws) + sum(1 for o in eng.owner if o >= 0) <= len(cfg.params["rule_deck"])


@settings(max_examples=15, deadline=None)
@given(configs)
def test_fast_engine_invariants(c):
    """Fast-engine rows: positions form a permutation each round; points add up."""
    n = c["players"]
    params = dict(c["params"], rule_deck=",".join(c["params"]["rule_deck"]))
    cfg = GAME.make_config(players=n, bots=c["bots"][:n], seed=c["seed"], overrides=params)
    t = GAME.run_batch(cfg, c["index"], 5, "fast")
    rounds = t["rounds"]
    pos = rounds[[f"pos_s{q}" for q in range(n)]].to_numpy()
    for row in pos:
        assert sorted(row) == list(range(1, n + 1))
    seats = t["seats"]
    assert (seats["points"] == seats["rank_points"] + seats["bonus_points"] + seats["precept_points"]).all()
    wins = seats.groupby("game")["win"].sum().to_numpy()
    assert (wins == t["games"]["n_winners"].to_numpy()).all()
