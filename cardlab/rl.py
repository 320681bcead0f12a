"""PettingZoo AEC environments over the games' step contract: ``cardlab.env(GAME, ...)``
(this module is ``rl``, not ``env``, so that ``cardlab.env`` stays the function).

Each seat is an agent (``player_0`` .. ``player_{n-1}``); ``agent_selection`` is the seat of the
pending decision, one made out of turn included. Every seat is driven from outside (nothing is
left to the seated bots). A game's observation, its action ids and its rewards come from the
game's observation module (``Step.observation_module``; docs/reinforcement-learning.md lists
what each game's observation holds): the observation is ``{"observation": int64 vector,
"action_mask": int8 vector}``, the mask marking the legal action ids of the pending decision for
its seat and nothing for the other seats.

``reset(seed=s)`` plays game 0 of the run seeded ``s`` (``sim.kit.rng``: the deal ``cardlab simulate
--seed s`` gives its game 0); a ``reset()`` without a seed plays the run's next game (game 1,
2, ...; the first reset without any seed plays run 0). A seat leaves (``terminations``) when
the game is over, or earlier where the game puts a player out for good (virus-dogs'
elimination, with reward 0); the rewards come at the game's end.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from sim.kit.config import ConfigError
from sim.games import get_game
from sim.kit.step import observe


def env(game: str, players: int | None = None, set: dict[str, Any] | None = None,  # noqa: A002
        render_mode: str | None = None) -> CardGameEnv:
    """The AEC environment of ``game`` for ``players`` seats (default: the game's), under the
    rule parameters ``set`` (``{"n_toilet": 8}``, as ``cardlab simulate --set``)."""
    return CardGameEnv(game, players, set, render_mode)


class CardGameEnv(AECEnv):
    """One game at a time of a registered game, driven one decision at a time."""

    metadata = {"name": "cardlab", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str, players: int | None = None, set: dict[str, Any] | None = None,  # noqa: A002
                 render_mode: str | None = None):
        super().__init__()
        self.game = get_game(game)
        self.contract = getattr(self.game, "step", None)
        if self.contract is None or not self.contract.observation_module:
            raise ConfigError(f"{game} has no observation module (Step.observation_module)")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ConfigError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.render_mode = render_mode
        self.cfg = self.game.make_config(players=players, overrides=set)
        self.kernel = self.contract.kernel()
        self.view = self.contract.observation()
        self.metadata = {**self.metadata, "name": f"cardlab_{self.game.name}"}
        self.possible_agents = [f"player_{s}" for s in range(self.cfg.players)]
        self.seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        self.run_seed, self.index = 0, -1
        self.buf = self.contract.start(self.cfg, 0)
        self._spaces(len(observe(self.view, self.buf, 0)), self.view.action_count(self.cfg))
        self._options = np.zeros(self.contract.max_options, dtype=np.int64)
        self._option_of: dict[int, int] = {}
        self._mask = self._no_actions

    def _spaces(self, size: int, actions: int) -> None:
        big = np.iinfo(np.int64)
        observation = spaces.Dict({
            "observation": spaces.Box(big.min, big.max, (size,), dtype=np.int64),
            "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8),
        })
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self._no_actions = np.zeros(actions, dtype=np.int8)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self.run_seed, self.index = int(seed), 0
        else:
            self.index += 1
        self.buf = self.contract.start(replace(self.cfg, seed=self.run_seed), self.index)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._go_on()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        mask = self._mask if agent == self.agent_selection and not self.terminations[agent] else self._no_actions
        return {"observation": observe(self.view, self.buf, self.seat_of[agent]), "action_mask": mask.copy()}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        option = self._option_of.get(-1 if action is None else int(action))
        if option is None:
            raise ValueError(f"action {action} is not legal for {agent} now (see the action_mask)")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.kernel.step_apply(self.buf, np.int64(option))
        self._go_on()

    def _go_on(self) -> None:
        """After a reset or an applied option: the seats that left, the rewards of a finished
        game, the next decision's seat and legal actions."""
        seat = int(self.kernel.step_pending(self.buf)[0])
        if seat < 0:
            reward = self.view.rewards(self.buf)
            for a in self.agents:
                self.rewards[a] = float(reward[self.seat_of[a]])
                self.terminations[a] = True
        else:
            for a in self.agents:
                self.terminations[a] = self.terminations[a] or bool(self.view.out_of_game(self.buf, self.seat_of[a]))
            self.agent_selection = self.possible_agents[seat]
            self._legal_actions()
        self._accumulate_rewards()
        self._deads_step_first()

    def _legal_actions(self) -> None:
        n = self.kernel.step_legal(self.buf, self._options)
        options = self._options[:n].copy()
        ids = np.asarray(self.view.action_ids(self.buf, options), dtype=np.int64)
        self._option_of = dict(zip(ids.tolist(), options.tolist()))
        self._mask = self._no_actions.copy()
        self._mask[ids] = 1

    def render(self) -> str | None:
        """``ansi``: one line, the game and the pending decision."""
        if self.render_mode != "ansi":
            return None
        seat, kind = (int(x) for x in self.kernel.step_pending(self.buf))
        if seat < 0:
            return f"{self.game.name} game {self.index} of run {self.run_seed}: over"
        return (f"{self.game.name} game {self.index} of run {self.run_seed}: player_{seat} decides "
                f"{self.contract.kinds[kind]} ({len(self._option_of)} legal actions)")

    def close(self) -> None:
        pass
