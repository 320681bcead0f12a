"""The batched environment ``cardlab.vector_env(GAME, n)``: ``n`` games of a registered game
stepped at once inside the fast engine (``sim.kit.vector``: one compiled loop over the games through
the game's step contract), as a Gymnasium ``VectorEnv`` with the "next step" autoreset
(``gymnasium.vector.AutoresetMode.NEXT_STEP``, the default of Gymnasium 1.x).

Each step answers one pending decision per game. The observation of a game is that of the
pending decision's seat (``infos["seat"]``), the same vector as ``cardlab.env``'s observation of
that seat, with the mask of its legal action ids; at the game's end (``terminations``) the
observation is that of the seat that made the last driven decision, the mask is empty and
``rewards`` holds every seat's reward (shape ``(n, players)``, zeros before the end). The step
after a game's end starts that slot's next game (its action is not read). docs/reinforcement-learning.md
has the details and an example. (This module is ``vector_rl``, not ``vector_env``, so that
``cardlab.vector_env`` stays the function.)
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from sim.kit import vector
from sim.kit.config import ConfigError
from sim.games import get_game
from sim.kit.search_params import SEARCH_BOTS



def vector_env(game: str, n: int, players: int | None = None, set: dict[str, Any] | None = None,  # noqa: A002
               seed: int | None = None, bots: list[str | None] | None = None) -> CardGameVectorEnv:
    """``n`` games of ``game`` at once for ``players`` seats (default: the game's), under the rule
    parameters ``set`` (as ``cardlab simulate --set``), the run seeded ``seed`` (default 0).
    ``bots``: one entry per table place, a scripted bot's name (the bot plays that place inside
    the engine) or None (the agent's actions answer it); default: the agent plays every seat."""
    return CardGameVectorEnv(game, n, players, set, seed, bots)


class CardGameVectorEnv(VectorEnv):
    """``n`` games of one registered game, one pending decision of each per ``step``."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, game: str, n: int, players: int | None = None, set: dict[str, Any] | None = None,  # noqa: A002
                 seed: int | None = None, bots: list[str | None] | None = None):
        self.game = get_game(game)
        contract = getattr(self.game, "step", None)
        if contract is None or not getattr(contract, "vector_module", ""):
            raise ConfigError(f"{game} has no vector module (Step.vector_module)")
        if not isinstance(n, (int, np.integer)) or n < 1:
            raise ConfigError(f"n (the number of games at once) must be at least 1, got {n!r}")
        self.cfg = self._config(players, set, seed, bots)
        self.num_envs = int(n)
        self.batch = vector.Batch(contract, self.cfg, self.num_envs, self.agent_places)
        self.arrays = self.batch.arrays
        obs_size, actions = self.batch.obs_size, self.batch.action_count
        big = np.iinfo(np.int64)
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(big.min, big.max, (obs_size,), dtype=np.int64),
            "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8),
        })
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.metadata = {**self.metadata, "name": f"cardlab_{self.game.name}"}
        self._all = np.ones(self.num_envs, dtype=np.bool_)
        self._started = False

    def _config(self, players, overrides, seed, bots):
        """The run's config: the table's bots (an agent's place keeps the game's default bot,
        never asked) and which places the agent plays (``agent_places``)."""
        cfg = self.game.make_config(players=players, overrides=overrides, seed=int(seed or 0))
        if bots is None:
            bots = [None] * cfg.players
        bots = list(bots)
        if len(bots) != cfg.players:
            raise ConfigError(f"bots must name {cfg.players} places (a bot's name or None), got {len(bots)}")
        searching = [b for b in bots if b in SEARCH_BOTS]
        if searching:
            raise ConfigError(f"bots must be scripted bots: {searching[0]} searches outside the engine's step")
        self.agent_places = [b is None for b in bots]
        table = [cfg.bots[p] if b is None else b for p, b in enumerate(bots)]
        return self.game.make_config(players=cfg.players, bots=table, overrides=overrides, seed=cfg.seed)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Games 0 .. n-1 of the run seeded ``seed`` (``cardlab simulate --seed``'s deals); without
        a seed, the run's next ``n`` games (the first reset: games 0 .. n-1 of the env's seed)."""
        if seed is not None:
            self.cfg = replace(self.cfg, seed=int(seed))
            self.batch.ctl[vector.SEED] = int(seed)
        if seed is not None or not self._started:
            self.batch.ctl[vector.NEXT_GAME] = 0
        self._started = True
        self.batch.reset()
        return self._observation(), self._infos()

    def step(self, actions):
        """One pending decision of every game answered by ``actions`` (one action id per slot;
        a slot whose game ended in the previous step starts its next game instead)."""
        if not self._started:
            raise ConfigError("call reset() before step()")
        actions = np.ascontiguousarray(actions, dtype=np.int64).reshape(-1)
        if len(actions) != self.num_envs:
            raise ValueError(f"step takes {self.num_envs} actions, got {len(actions)}")
        bad = self.batch.step(actions)
        if bad >= 0:
            seat = int(self.arrays.slots[bad, vector.SEAT])
            raise ValueError(f"action {actions[bad]} of game slot {bad} is not legal for player_{seat} now "
                             "(see the action_mask)")
        a = self.arrays
        return (self._observation(), a.rewards.copy(), a.ended.copy(), np.zeros(self.num_envs, dtype=np.bool_),
                self._infos())

    def _observation(self) -> dict[str, np.ndarray]:
        """The batch's observation: the engine's arrays themselves (read them, do not write them;
        the next step overwrites them)."""
        return {"observation": self.arrays.obs, "action_mask": self.arrays.mask}

    def _infos(self) -> dict[str, np.ndarray]:
        slots = self.arrays.slots
        return {"seat": slots[:, vector.SEAT].copy(), "_seat": self._all,
                "game": slots[:, vector.GAME].copy(), "_game": self._all}

    def random_actions(self, rng: np.random.Generator) -> np.ndarray:
        """A legal action id drawn uniformly for each game (0 where none is pending)."""
        return vector.random_actions(self.arrays, rng)

    @property
    def buffers(self) -> np.ndarray:
        """The games' step-contract buffers, one row per slot (read them; do not write)."""
        return self.arrays.bufs
