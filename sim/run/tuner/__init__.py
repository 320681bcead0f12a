"""Search rule and bot parameters for a balance target with Optuna (``cardlab tune``).

Every trial is a run through the runner with the same seed, so all trials play the same
game seeds (common random numbers), and with a stopping rule when a precision is given.
A trial's run directory is named by its config hash (``OUT/runs/<hash>``), so a config
proposed twice reuses its games. The study lives in an Optuna storage (default
``sqlite:///OUT/study.db``): rerunning with a larger trial count resumes it. One process works
in OUT at a time (its writer lock); several processes, each with its own OUT, share one study
through ``--storage``. A trial left running by a process that died is marked failed and played
again: at once for the default storage (OUT's lock shows no one else runs it), after Optuna's
heartbeat grace period for a shared one. The study remembers what it searches (game,
base config, space, objective, constraints, games, precision); a rerun that asks for
something else is refused before anything is written.

Space items: ``name=lo..hi`` (int or float, by the parameter's type), ``name=a,b,c``
(categorical); ``bot.<bot>.<param>`` for bot parameters. Constraints: ``"M in lo..hi"``,
``"M <= x"``, ``"M >= x"``, with metric names from ``sim.run.metrics``. Goals: ``--minimize M``,
``--maximize M``, ``--target M=V`` or ``--target M=LO..HI`` (distance to the band), each
repeatable; several goals make a multi-objective study (Optuna's TPE sampler).

Every trial measures its configuration on few games, so the best trial is partly the luckiest.
After the search (one goal) the best ``--race`` trials and the default are raced
(``run_race``): replayed on a common new seed (study seed + RACE_SEED_OFFSET), from ``--games``
games each and doubling up to ``--race-games``, dropping at each rung every candidate that is
worse than the leader beyond noise (Holm over the rung's comparisons) or breaks a constraint
beyond noise, until one is left or all are within ``--precision`` of the leader. The race's
winner (or, when the default wins, the search's best trial) is then confirmed (``confirm``)
against the default on ``--confirm-games`` fresh games (study seed + CONFIRM_SEED_OFFSET, which
no trial or race plays); ``best.toml`` is written only when the improvement holds there (95%
interval of the difference on the better side of zero, constraints met) or with
``--write-best``. With several goals each Pareto configuration is confirmed against the
default and ``pareto.toml`` lists them. ``answer.json`` holds the answer in one sentence,
``race.parquet`` the race, ``confirmation.parquet`` every metric of each confirmation.

The package, by purpose: ``space`` (the searched parameters), ``goals`` (objectives and
constraints), ``spec`` (what a study searches, its candidates, the checks after it), ``study``
(the Optuna study and its trials: ``run_study``), ``race`` (the race and the confirmation),
``answer`` (the answer in words), ``files`` (what is written) and ``outcome`` (after the search:
``TuneResult``).
"""

from sim.run.tuner.answer import answer, goal_phrase, multi_answer, unmet_constraints
from sim.run.tuner.files import replacing, trials_frame, write_answer, write_config_toml, write_pareto_toml
from sim.run.tuner.goals import Constraint, Objective, parse_constraint, parse_objective, parse_objectives
from sim.run.tuner.outcome import PARETO_MAX, TuneResult, pareto_candidates
from sim.run.tuner.race import (CONFIRM_SEED_OFFSET, RACE_SEED_OFFSET, Confirmation, Race, confirm, constraint_fit,
                            metric_table, play, run_race)
from sim.run.tuner.space import Dim, param_value, parse_space, space_items
from sim.run.tuner.spec import FINISHED, STUDY_KEY, Candidate, Checks, StudySettings, TuneSpec
from sim.run.tuner.study import run_study, simulate

__all__ = [
    "CONFIRM_SEED_OFFSET", "FINISHED", "PARETO_MAX", "RACE_SEED_OFFSET", "STUDY_KEY", "Candidate", "Checks",
    "Confirmation", "Constraint", "Dim", "Objective", "Race", "TuneResult", "TuneSpec", "answer", "confirm",
    "constraint_fit", "goal_phrase", "metric_table", "multi_answer", "param_value", "pareto_candidates", "parse_constraint",
    "parse_objective", "parse_objectives", "parse_space", "play", "replacing", "run_race", "run_study", "simulate",
    "space_items", "StudySettings", "trials_frame", "unmet_constraints", "write_answer", "write_config_toml", "write_pareto_toml",
]
