"""The batched environment (``cardlab.vector_env``, cardlab/vector_rl.py over sim/kit/vector.py) of
every registered game with a vector module: the same games, observations, masks and rewards as
the AEC environment (``cardlab.env``) fed the same actions, the compiled action ids against the
observation module's, no peeking, the autoreset, scripted bots inside the engine against
``cardlab simulate``'s batch, and bad input."""

from __future__ import annotations

import numpy as np
import pytest

import cardlab
from sim.kit.config import ConfigError
from sim.games import available, get_game
from sim.kit.step import observe


@pytest.fixture(params=available())
def game(request):
    g = get_game(request.param)
    if not getattr(getattr(g, "step", None), "vector_module", ""):
        pytest.skip(f"{g.name} has no vector module (Step.vector_module, sim/kit/step.py)")
    return g


def aec_at(game, seed: int, index: int):
    """The AEC environment at the first decision of game ``index`` of the run seeded ``seed``."""
    env = cardlab.env(game.name)
    env.reset(seed=seed)
    for _ in range(index):
        env.reset()
    return env


def skip_left_seats(aec) -> None:
    """Past the AEC environment's turns of seats that left before the end (PettingZoo asks a
    terminated agent for its ``None`` step first)."""
    while aec.terminations[aec.agent_selection] and aec.kernel.step_pending(aec.buf)[0] >= 0:
        aec.step(None)


def test_each_slot_plays_the_aec_env_s_game_with_the_same_observations_masks_and_rewards(game):
    """Slots 0 and 1 play games 0 and 1 of the run; fed the same random actions, every step's
    observation, mask and seat are the AEC environment's for the pending seat, the buffers
    are equal, and the rewards at the end are the AEC environment's."""
    venv = cardlab.vector_env(game.name, 2, seed=5)
    obs, infos = venv.reset()
    aecs = [aec_at(game, 5, 0), aec_at(game, 5, 1)]
    rng = np.random.default_rng(3)
    done = [False, False]
    while not all(done):
        actions = venv.random_actions(rng)
        for i, aec in enumerate(aecs):
            if done[i]:
                continue
            seat = int(infos["seat"][i])
            skip_left_seats(aec)
            assert aec.agent_selection == f"player_{seat}" and infos["game"][i] == i
            want = aec.observe(aec.agent_selection)
            assert np.array_equal(obs["observation"][i], want["observation"])
            assert np.array_equal(obs["action_mask"][i], want["action_mask"])
            assert np.array_equal(venv.buffers[i], aec.buf)
            aec.step(int(actions[i]))
        obs, rewards, terminated, truncated, infos = venv.step(actions)
        assert not truncated.any()
        for i, aec in enumerate(aecs):
            if not done[i] and terminated[i]:
                done[i] = True
                assert np.array_equal(venv.buffers[i], aec.buf)
                assert list(rewards[i]) == list(aec.view.rewards(aec.buf))
                assert not obs["action_mask"][i].any() and infos["seat"][i] == -1
            elif not done[i]:
                assert not rewards[i].any()


def test_compiled_action_ids_are_the_observation_module_s_and_map_back_to_the_options(game):
    """Random games under each of ``Step.variants`` (where every decision kind comes up): each
    slot's mask marks exactly ``observe.action_ids`` of its legal options, and ``option_of``
    maps each id back to its option."""
    step = game.step
    k, view, out = step.kernel(), step.observation(), np.zeros(step.max_options, dtype=np.int64)
    rng = np.random.default_rng(4)
    kinds = set()
    for overrides in step.variants:
        venv = cardlab.vector_env(game.name, 3, set=overrides, seed=4)
        obs, infos = venv.reset()
        ended = 0
        while ended < 6:
            for i in np.flatnonzero(infos["seat"] >= 0):
                b = venv.buffers[i]
                n = k.step_legal(b, out)
                ids = np.asarray(view.action_ids(b, out[:n].copy()), dtype=np.int64)
                assert np.array_equal(np.sort(ids), np.flatnonzero(obs["action_mask"][i]))
                assert [venv.batch.parts.option_of(b, x, venv.batch.table) for x in ids] == out[:n].tolist()
                kinds.add(step.kinds[k.step_pending(b)[1]])
            obs, _, terminated, _, infos = venv.step(venv.random_actions(rng))
            ended += int(terminated.sum())
    assert kinds == set(step.kinds), sorted(set(step.kinds) - kinds)


def test_no_peeking_a_slot_s_observation_is_the_same_in_every_world_re_dealt_for_its_seat(game):
    """The observation a slot gives equals the pending seat's observation of each world the
    search's ``determinize`` re-deals for that seat (the other seats' hidden cards dealt again):
    an observation that showed what the seat cannot see would differ between worlds."""
    search, view = game.step.search(), game.step.observation()
    venv = cardlab.vector_env(game.name, 4, seed=11)
    obs, infos = venv.reset()
    rng = np.random.default_rng(2)
    kept, others_changed = 0, 0
    for _ in range(400):
        for i in np.flatnonzero((infos["seat"] >= 0) & (rng.random(4) < 0.2)):
            b, seat = venv.buffers[i], int(infos["seat"][i])
            for key in range(3):
                w = b.copy()
                if not search.determinize.py_func(w, b, np.int64(seat), np.uint64(1000 + key)):
                    continue
                kept += 1
                assert np.array_equal(observe(view, w, seat), obs["observation"][i])
                others = [o for o in range(venv.cfg.players) if o != seat]
                others_changed += any(not np.array_equal(observe(view, w, o), observe(view, b, o)) for o in others)
        if kept >= 20:
            break
        obs, _, _, _, infos = venv.step(venv.random_actions(rng))
    assert kept >= 20 and others_changed > 0


def test_next_step_autoreset_starts_the_next_game_and_ignores_that_slot_s_action(game):
    venv = cardlab.vector_env(game.name, 2, seed=2)
    assert venv.metadata["autoreset_mode"].name == "NEXT_STEP"
    obs, infos = venv.reset()
    rng = np.random.default_rng(1)
    while True:
        obs, rewards, terminated, _, infos = venv.step(venv.random_actions(rng))
        if terminated.any():
            break
    i = int(np.flatnonzero(terminated)[0])
    assert rewards[i].sum() in (0.0, pytest.approx(1.0))
    actions = venv.random_actions(rng)
    actions[i] = -7  # not read
    obs, rewards, terminated, _, infos = venv.step(actions)
    assert not terminated[i] and not rewards[i].any() and infos["game"][i] == 2 and infos["seat"][i] >= 0
    first = aec_at(game, 2, 2)
    assert np.array_equal(obs["observation"][i], first.observe(first.agent_selection)["observation"])


def test_game_i_is_dealt_from_the_seed_and_i_whatever_the_number_of_slots(game):
    one = cardlab.vector_env(game.name, 1, seed=9)
    three = cardlab.vector_env(game.name, 3, seed=9)
    one.reset(), three.reset()
    assert np.array_equal(one.buffers[0], three.buffers[0])
    one.reset()  # no seed: the run's next game, game 1
    assert np.array_equal(one.buffers[0], three.buffers[1])
    one.reset(seed=9)
    assert np.array_equal(one.buffers[0], three.buffers[0])


def test_a_table_of_scripted_bots_plays_cardlab_simulate_s_games(game):
    """Every place a named scripted bot: each step reports whole games (their bots play them
    inside the engine); game i's rewards are the winners of game i of the batch run ``cardlab
    simulate`` plays with the same bots and seed (shared wins split)."""
    cfg = game.make_config(seed=13)
    venv = cardlab.vector_env(game.name, 3, seed=13, bots=list(cfg.bots))
    venv.reset()
    got = {}
    for _ in range(3):
        _, rewards, terminated, _, infos = venv.step(np.zeros(3, dtype=np.int64))
        assert terminated.all() and (infos["seat"] == -1).all()
        got.update({int(g): list(r) for g, r in zip(infos["game"], rewards)})
    assert sorted(got) == list(range(9))
    seats = game.run_batch(cfg, 0, 9, "fast")["seats"].sort_values(["game", "seat"])
    for g, rows in seats.groupby("game"):
        win = rows["win"].to_numpy(dtype=float)
        assert got[int(g)] == pytest.approx(list(win / max(win.sum(), 1.0))), g


def test_an_agent_place_rotates_over_the_seats_and_the_bots_play_the_others(game):
    """The agent plays table place 1 and bots the others: in game i it answers for seat
    (1 - i) mod players only, as ``cardlab simulate`` rotates the places."""
    cfg = game.make_config(seed=4)
    bots = list(cfg.bots)
    bots[1] = None
    venv = cardlab.vector_env(game.name, 3, seed=4, bots=bots)
    obs, infos = venv.reset()
    rng = np.random.default_rng(0)
    for _ in range(60):
        live = infos["seat"] >= 0
        assert (infos["seat"][live] == (1 - infos["game"][live]) % cfg.players).all()
        assert (obs["observation"][live, 0] == infos["seat"][live]).all()
        obs, _, _, _, infos = venv.step(venv.random_actions(rng))


def test_bad_input_is_a_one_line_error():
    with pytest.raises(ConfigError, match="unknown game 'nope'"):
        cardlab.vector_env("nope", 4)
    with pytest.raises(ConfigError, match="n .* must be at least 1"):
        cardlab.vector_env("virus-dogs", 0)
    with pytest.raises(ConfigError, match="bots must name 4 places"):
        cardlab.vector_env("virus-dogs", 2, players=4, bots=["random", None])
    with pytest.raises(ConfigError, match="scripted bots: search"):
        cardlab.vector_env("virus-dogs", 2, players=2, bots=["search", None])
    with pytest.raises(ConfigError, match="unknown bot"):
        cardlab.vector_env("virus-dogs", 2, players=2, bots=["nobot", None])
    venv = cardlab.vector_env("virus-dogs", 2)
    with pytest.raises(ConfigError, match="reset"):
        venv.step([0, 0])
    obs, infos = venv.reset(seed=0)
    actions = venv.random_actions(np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    before = venv.buffers.copy()
    with pytest.raises(ValueError, match=f"action {actions[1]} of game slot 1 is not legal for player_"):
        venv.step(actions)
    assert np.array_equal(venv.buffers, before)


def test_the_bench_line_times_random_steps_and_is_empty_for_a_game_without_the_env():
    from cardlab.vector_bench import vector_bench

    r = vector_bench("virus-dogs", 1, n=4, steps=8)
    assert r["vector_env_slots"] == 4 and r["vector_env_steps_per_s"] > 0 and r["vector_env_steps_per_cpu_s"] > 0
    assert vector_bench("toy", 1) == {}
