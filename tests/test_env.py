"""The PettingZoo environments (``cardlab.env``, cardlab/rl.py) of every registered game with an
observation module (``Step.observation_module``; the others are skipped by name): PettingZoo's
own API and seed tests, the deal of ``reset(seed=s)``, the games played through the environment
against the reference engine, and no peeking (a seat's observation is the same in every world
the search re-deals for it)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import cardlab
from sim.kit.config import ConfigError
from sim.games import MODULES, available, get_game
from sim.kit.step import observe

GAMES = available()


@pytest.fixture(params=GAMES)
def game(request):
    g = get_game(request.param)
    if not getattr(getattr(g, "step", None), "observation_module", ""):
        pytest.skip(f"{g.name} has no observation module (Step.observation_module, sim/kit/step.py)")
    return g


def play(env, rng, on_decision=None) -> int:
    """One game of ``env`` (reset already) with random legal actions; ``on_decision(env, obs)``
    before each; the number of decisions."""
    decisions = 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if on_decision:
            on_decision(env, obs)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        decisions += 1
    return decisions


def test_every_built_in_game_has_an_environment():
    for name in MODULES:
        assert get_game(name).step.observation_module, name


def test_pettingzoo_api_test(game):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice for a plain array observation (the mask needs a dict)
        api_test(cardlab.env(game.name), num_cycles=60)


def test_pettingzoo_seed_test(game):
    seed_test(lambda: cardlab.env(game.name), num_cycles=60)


def test_reset_seed_deals_game_0_of_that_run_and_reset_goes_on_to_the_next(game):
    env = cardlab.env(game.name, players=game.min_players)
    cfg = game.make_config(players=game.min_players, seed=7)
    env.reset(seed=7)
    assert np.array_equal(env.buf, game.step.start(cfg, 0))
    env.reset()
    assert np.array_equal(env.buf, game.step.start(cfg, 1))


def test_every_decision_kind_gives_each_legal_option_its_own_action_id(game):
    """Random games under each of ``Step.variants`` (where every decision kind comes up): the
    mask marks as many actions as the decision has legal options, each id in the action space."""
    step = game.step
    k, out = step.kernel(), np.zeros(step.max_options, dtype=np.int64)
    rng = np.random.default_rng(4)
    kinds = set()

    def check(env, obs):
        n = k.step_legal(env.buf, out)
        ids = np.asarray(env.view.action_ids(env.buf, out[:n].copy()))
        assert ids.min() >= 0 and ids.max() < env.action_space(env.agent_selection).n
        assert len(set(ids.tolist())) == n == obs["action_mask"].sum()
        assert obs["action_mask"][ids].all()
        kinds.add(step.kinds[k.step_pending(env.buf)[1]])

    for overrides in step.variants:
        env = cardlab.env(game.name, set=overrides)
        env.reset(seed=1)
        for _ in range(6):
            play(env, rng, check)
            env.reset()
    assert kinds == set(step.kinds), sorted(set(step.kinds) - kinds)


def test_games_through_the_env_are_the_reference_engine_s(game):
    """Random actions through the environment: the finished game is the reference engine's fed
    the same options, and the rewards are its wins (shared wins split)."""
    env = cardlab.env(game.name)
    cfg = game.make_config(seed=3)
    rng = np.random.default_rng(5)
    k, out = game.step.kernel(), np.zeros(game.step.max_options, dtype=np.int64)
    for index in range(3):
        env.reset(seed=3) if index == 0 else env.reset()
        positions, returns = [], dict.fromkeys(env.possible_agents, 0.0)

        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            returns[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            n = k.step_legal(env.buf, out)
            positions.append(out[:n].tolist().index(env._option_of[action]))
            env.step(action)
        want, _ = game.step.reference_outcome(cfg, index, positions)
        got = game.step.outcome(cfg, env.buf)
        for name in want:
            assert np.array_equal(np.asarray(got[name], dtype=np.int64), np.asarray(want[name], dtype=np.int64)), name
        shares = env.view.rewards(env.buf)
        assert [returns[a] for a in env.possible_agents] == pytest.approx(list(shares))
        assert sum(shares) in (0.0, pytest.approx(1.0))


def test_no_peeking_a_seat_sees_the_same_in_every_world_re_dealt_for_it(game):
    """Each world the search's ``determinize`` keeps for the pending seat (the other seats'
    hidden cards dealt again, the seat seeing what it saw) gives the seat the same observation;
    the other seats' observations show that their hidden cards changed."""
    search, view = game.step.search(), game.step.observation()
    env = cardlab.env(game.name)
    env.reset(seed=11)
    rng = np.random.default_rng(2)
    kept, others_changed = 0, 0

    def compare(env, obs):
        nonlocal kept, others_changed
        b, seat = env.buf, env.seat_of[env.agent_selection]
        if rng.random() > 0.3:
            return
        for key in range(4):
            w = b.copy()
            if not search.determinize.py_func(w, b, np.int64(seat), np.uint64(1000 + key)):
                continue
            kept += 1
            assert np.array_equal(observe(view, w, seat), obs["observation"])
            others = [o for o in range(env.cfg.players) if o != seat]
            others_changed += any(not np.array_equal(observe(view, w, o), observe(view, b, o)) for o in others)

    for _ in range(30):
        play(env, rng, compare)
        env.reset()
        if kept >= 20:
            break
    assert kept >= 20 and others_changed > 0


def test_an_eliminated_seat_leaves_before_the_end_with_reward_0():
    """Virus-dogs: a seat eliminated while the game goes on (VD-19) is terminated at once."""
    env = cardlab.env("virus-dogs", players=4)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(50):
        left_early = {}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            if terminated:
                if env.kernel.step_pending(env.buf)[0] >= 0:
                    left_early[agent] = reward
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if left_early:
            assert set(left_early.values()) == {0.0}
            return
        env.reset()
    raise AssertionError("no elimination before the end in 50 games")


def test_bad_input_is_a_one_line_error():
    with pytest.raises(ConfigError, match="unknown game 'nope'"):
        cardlab.env("nope")
    with pytest.raises(ConfigError, match="takes 2 to 5 players"):
        cardlab.env("virus-dogs", players=9)
    env = cardlab.env("virus-dogs")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=f"action {illegal} is not legal for player_"):
        env.step(illegal)
