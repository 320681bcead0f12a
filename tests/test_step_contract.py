"""The step contract (sim.kit.step, docs/adding-a-game.md) and the search contract (sim.kit.search),
checked for every registered game that has them (``Game.step``; ``Step.search_module``); what a
search seat cannot see: tests/test_search_contract.py.

Each game's ``Step.variants`` are rule overrides under which every decision kind comes up. The
per-game data (how a fast batch's raw arrays read as ``Step.outcome``, a table with a search
seat) is in tests/<game>/cases.py.
"""

from __future__ import annotations

import ast
from itertools import islice
from pathlib import Path

import numpy as np
import pytest

from sim.games import MODULES, get_game
from sim.kit.search import N_STATS, SearchFields
from sim.kit.layout import Layout
from sim.kit.step import BOT_ANSWER, NAMES, STATUS, StepFields
from tests.engines import engines_agree, same_for_any_workers
from tests.game_cases import case
from tests.searching import search_config, search_states
from tests.stepping import check_driver_seats, decisions
from tests.test_game_contract import GAMES, mixed_config, scripted_config

STEP_GAMES_PER_VARIANT = 6


def _step_of(game):
    step = getattr(game, "step", None)
    if step is None:
        pytest.skip(f"{game.name} has no step contract (Game.step, sim/kit/step.py)")
    return step


def _search_of(game):
    step = _step_of(game)
    if not step.search_module:
        pytest.skip(f"{game.name} has no search bot (Step.search_module)")
    return step.search()


def _variant_ids():
    """(game, variant index) of every registered game with the step contract."""
    out = []
    for name in GAMES:
        step = getattr(get_game(name), "step", None)
        out += [(name, v) for v in range(len(step.variants))] if step is not None else [(name, None)]
    return out


@pytest.fixture(params=GAMES)
def game(request):
    return get_game(request.param)


@pytest.fixture(params=_variant_ids(), ids=lambda p: p[0] if p[1] is None else f"{p[0]}-{p[1]}")
def game_variant(request):
    """A game and the index of one of its ``Step.variants``."""
    name, v = request.param
    game = get_game(name)
    _step_of(game)
    return game, v


def batch_outcome(game, cfg, raw, k):
    """Game ``k`` of a fast batch's raw arrays, as ``Step.outcome`` names them (tests/game_cases.py)."""
    return case(game.name, "batch_rows")(raw, k, cfg.players)


def _same_outcome(got, want, what):
    assert set(got) == set(want), what
    for name in want:
        assert np.array_equal(np.asarray(got[name], dtype=np.int64), np.asarray(want[name], dtype=np.int64)), (what, name)


def _play_on_to_end(k, buf):
    """``step_play_on`` until the game is over (a game with rounds plays one round per call)."""
    while k.step_pending(buf)[0] >= 0:
        k.step_play_on(buf)


def _walk(step, k, buf, rng, out):
    """Drive ``buf`` to the end with random legal options: per decision, a copy of the buffer
    before it, its (seat, kind, legal options) and the position applied."""
    path = []
    while True:
        seat, kind = k.step_pending(buf)
        n = k.step_legal(buf, out)
        if seat < 0:
            assert n == 0 and kind < 0
            return path
        assert 1 <= n <= len(out) and 0 <= kind < len(step.kinds)
        legal = out[:n].copy()
        assert len(set(legal.tolist())) == n  # distinct options
        pos = int(rng.integers(n))
        path.append((buf.copy(), (int(seat), step.kinds[kind], n), legal, pos))
        assert k.step_apply(buf, legal[pos]) == 0


# ---- the step contract -----------------------------------------------------------------------

def test_step_contract_names_and_layout(game):
    step = _step_of(game)
    k = step.kernel()
    for name in NAMES:
        assert callable(getattr(k, name)), name
    assert k.SIZE == k.LAYOUT.size  # the one buffer, declared through sim.kit.layout
    buf = step.start(game.make_config(seed=1), 0)
    assert buf.shape == (k.SIZE,) and buf.dtype == np.int64


def test_step_fields_are_declared_alike(game):
    """Every game declares the step contract's fields through sim.kit.step.StepFields: those it has
    under the shared names and docs, in the shared order, the scalars in one run; every game has
    the driver seats, the pending decision, the script and the snapshot."""
    layout = _step_of(game).kernel().LAYOUT
    shared = StepFields.SCALARS + StepFields.BLOCKS
    names = [n for n in layout.fields if n in shared]
    assert names == [n for n in shared if n in names]
    assert {"driver_seats", "pending_seat", "pending_kind", "applied", "script", "snapshot"} <= set(names)
    for n in names:
        assert layout[n].doc.startswith(StepFields.DOCS.get(n, "")), n
    scalars = [layout[n].offset for n in names if n in StepFields.SCALARS]
    assert scalars == list(range(scalars[0], scalars[0] + len(scalars)))


def test_step_fields_declare_only_what_a_game_asks_for():
    """Without replays, listed options, step policies or a pending state, those fields are not
    in the layout and read -1; the game's own fields go between the scalars and the blocks."""
    lean, full = Layout("lean"), Layout("full")
    f = StepFields(lean, replays=False)
    lean.scalar("own")
    assert f.blocks(0, 4, 0, "none") == (lean["script"].offset, lean["snapshot"].offset)
    assert list(lean.fields) == ["driver_seats", "pending_seat", "pending_kind", "applied", "own", "script",
                                 "snapshot"]
    assert (f.stepped, f.stop, f.pending_count, f.pending_options, f.step_policies, f.pending_state) == (-1,) * 6
    g = StepFields(full, options=7)
    assert g.scalars == tuple(range(7)) and (g.stop, g.pending_count) == (1, 6)
    assert g.blocks(3, 4, 5, "of what", 9, "of what else") == (7, 14, 17, 21, 26)
    assert full["pending_state"].size == 9 and full["pending_state"].doc.endswith(": of what else")
    assert full.size == 35


def test_step_contract_random_games_against_the_reference(game):
    """Random games driven through the contract from outside: at a random decision the buffer
    is copied, every legal option applied on its own copy and the game played on by the bots;
    each finished copy equals the reference engine fed the same options, which also asks the
    same decisions (seat, kind, number of options). A whole game of random options, and the
    bots alone (start, play on), are checked the same way."""
    step = _step_of(game)
    k = step.kernel()
    out = np.zeros(step.max_options, dtype=np.int64)
    rng = np.random.default_rng(2024)
    kinds_seen = set()
    for v, overrides in enumerate(step.variants):
        cfg = mixed_config(game, seed=17 + v)
        cfg = game.make_config(players=cfg.players, bots=list(cfg.bots), seed=cfg.seed, overrides=overrides)
        for index in range(STEP_GAMES_PER_VARIANT):
            what = (game.name, overrides, index)
            bots_only = step.start(cfg, index)
            _play_on_to_end(k, bots_only)
            _same_outcome(step.outcome(cfg, bots_only), step.reference_outcome(cfg, index, [])[0], what)

            buf = step.start(cfg, index)
            path = _walk(step, k, buf, rng, out)
            assert path, what
            kinds_seen |= {p[1][1] for p in path}
            chosen = [p[3] for p in path]
            got = step.outcome(cfg, buf)
            want, asked = step.reference_outcome(cfg, index, chosen)
            assert asked == [p[1] for p in path], what  # the same decisions, in the same order
            _same_outcome(got, want, what)
            assert k.step_apply(buf, np.int64(0)) == -1  # over

            j = int(rng.integers(len(path)))
            saved, pending, legal, _ = path[j]
            before = saved.copy()
            assert k.step_apply(saved.copy(), np.int64(10**9)) == -2  # not a legal option
            for pos, option in enumerate(legal):
                c = saved.copy()
                assert k.step_apply(c, option) == 0
                _play_on_to_end(k, c)
                assert k.step_pending(c) == (-1, -1)
                want, asked = step.reference_outcome(cfg, index, chosen[:j] + [pos])
                assert asked[:j + 1] == [p[1] for p in path[:j + 1]], what
                _same_outcome(step.outcome(cfg, c), want, (*what, j, pos))
            assert np.array_equal(saved, before)  # the copies are independent
    assert kinds_seen == set(step.kinds), sorted(set(step.kinds) - kinds_seen)


def test_batch_games_are_step_start_then_play_on(game_variant):
    """Every game of a fast batch equals ``step_start`` and ``step_play_on`` to the end of the
    same index (its rows), and the batch's sums are the sums of the games' (scripted bots)."""
    game, v = game_variant
    step, k = game.step, game.step.kernel()
    cfg = scripted_config(game, seed=9, overrides=step.variants[v])
    start, count = 30, 12
    raw = game.fast_batch(cfg, start, count)
    sums = case(game.name, "batch_sums")(raw)
    total = {name: np.zeros_like(np.asarray(x), dtype=np.int64) for name, x in sums.items()}
    for i in range(count):
        buf = step.start(cfg, start + i)
        _play_on_to_end(k, buf)
        out = step.outcome(cfg, buf)
        rows = batch_outcome(game, cfg, raw, i)
        assert set(out) == set(rows) | set(sums)  # every array of the outcome is checked
        _same_outcome({n: out[n] for n in rows}, rows, (game.name, v, i))
        for name in total:
            total[name] += np.asarray(out[name], dtype=np.int64)
    _same_outcome(total, sums, (game.name, v, "sums"))


def test_options_not_listed_are_refused_and_change_nothing(game_variant):
    """``step_apply`` refuses (-2) a code that is not among the pending decision's options and
    leaves the buffer as it was: out of range, negative, a listed option plus one that is not
    listed itself, a listed option with a high bit set; a finished game refuses every option (-1)."""
    game, v = game_variant
    step, k = game.step, game.step.kernel()
    cfg = scripted_config(game, seed=2, overrides=step.variants[v])
    asked = 0
    for index, buf, _seat, kind, legal in decisions(step, cfg, 2):
        listed = set(legal.tolist())
        bad = {-7, 10**9, int(legal[-1]) | (1 << 62)} | {x for x in range(-2, 9) if x not in listed}
        bad = (bad | {x + 1 for x in listed}) - listed
        before = buf.copy()
        for option in sorted(bad):
            assert k.step_apply(buf, np.int64(option)) == -2, (kind, option, sorted(listed))
        assert np.array_equal(buf, before), kind
        assert k.step_apply(buf, legal[(index + len(legal) // 2) % len(legal)]) == 0
        asked += 1
        if k.step_pending(buf)[0] < 0:
            over = buf.copy()
            assert all(k.step_apply(buf, np.int64(x)) == -1 for x in (0, 1, -1, int(legal[0])))
            assert np.array_equal(buf, over)
    assert asked >= 2


def test_driver_seats_answer_only_their_own_decisions(game_variant):
    """step_seats against the reference engine with one seat's decisions forced (tests.stepping)."""
    game, v = game_variant
    cfg = scripted_config(game, seed=13, overrides=game.step.variants[v])
    first = case(game.name, "driver_seat_games")
    assert first >= cfg.players  # every seat the driver's once
    check_driver_seats(game, cfg, range(first),
                       lambda i: batch_outcome(game, cfg, game.fast_batch(cfg, i, 1), 0)["games"])


def test_decisions_column_counts_the_decisions_the_reference_engine_asks(game):
    """``games.decisions``: one per decision asked of a seat, out-of-turn ones included, as the
    step contract's reference side lists them (``Step.reference_outcome``); single-option ones
    too where the game counts them (``single_options_counted``)."""
    step = _step_of(game)
    least = 1 if case(game.name, "single_options_counted") else 2
    cfg = scripted_config(game, seed=8)
    column = game.run_batch(cfg, 0, 6, "fast")["games"]["decisions"].tolist()
    asked = [step.reference_outcome(cfg, i, [])[1] for i in range(6)]
    assert column == [sum(n >= least for _, _, n in a) for a in asked] and min(column) > 0
    assert any(n == 1 for a in asked for _, _, n in a)  # the count tells single options apart


# ---- the search contract ----------------------------------------------------------------------

def test_search_fields_are_declared_alike(game):
    """Every game with a search bot declares the search's fields through sim.kit.search.SearchFields:
    all of them, under the shared names and docs, in the shared order, in one run."""
    _search_of(game)
    layout = game.step.kernel().LAYOUT
    assert [n for n in layout.fields if n in SearchFields.SCALARS] == list(SearchFields.SCALARS)
    offsets = [layout[n].offset for n in SearchFields.SCALARS]
    assert offsets == list(range(offsets[0], offsets[0] + len(offsets)))
    assert [layout[n].doc for n in SearchFields.SCALARS] == [SearchFields.DOCS[n] for n in SearchFields.SCALARS]


def test_search_games_are_the_same_for_any_batch_and_worker_count(game, tmp_path):
    """A run with a search seat: 1 worker in one batch equals 2 workers in batches of 3."""
    _search_of(game)
    same_for_any_workers(game, search_config(game), case(game.name, "search")["games"], tmp_path)


def test_reference_engine_plays_the_same_search(game):
    """The reference engine with a search seat (through its fast twin) gives the fast engine's tables."""
    _search_of(game)
    engines_agree(game, search_config(game), 0, case(game.name, "search")["reference_games"], limited=False)


@pytest.mark.parametrize("variant", ["seeing", "weighted"])
def test_reference_engine_plays_the_same_search_variant(game, variant):
    """The all-seeing search (``seeing``) or the search with weighted worlds (``weighted``) seated
    where the search data seats ``search``: the reference engine, through the same fast twin,
    gives the fast engine's tables."""
    _search_of(game)
    if variant not in game.bots:
        pytest.skip(f"{game.name} has no {variant} search bot")
    table = case(game.name, "search")
    bots = [variant if b == "search" else b for b in table["bots"]]
    overrides = {k.replace("bot.search.", f"bot.{variant}."): v for k, v in table["overrides"].items()}
    cfg = game.make_config(players=len(bots), bots=bots, seed=5, overrides=overrides)
    engines_agree(game, cfg, 0, 2, limited=False)


def test_search_leaves_the_game_as_it_was(game):
    """The search works on copies: the game's buffer, its generator counter included, is the
    same after a search decision (the game's own draws follow the engine's protocol)."""
    search = _search_of(game)
    cfg = search_config(game)
    states = list(islice(search_states(game, cfg, every=5), 10))
    assert len(states) == 10, f"{len(states)} search states of {game.name}, 10 wanted"
    stats = np.zeros(N_STATS, dtype=np.int64)
    for index, state in states:
        before = state.copy()
        search.search_option(state, np.uint64(cfg.seed), np.int64(index), stats)
        assert np.array_equal(state, before)
    assert stats.any()  # the search ran



def imported_modules(py_file: Path, package: str) -> set[str]:
    """Every module ``py_file`` (a module of ``package``) imports, at any depth of its code, and
    every name it imports from a module, as dotted paths."""
    out = set()
    for node in ast.walk(ast.parse(py_file.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            mod = ".".join(x for x in (base, node.module) if x)
            out |= {mod} | {f"{mod}.{a.name}" for a in node.names}
    return out


@pytest.mark.parametrize("name", sorted(MODULES))
def test_reference_engines_import_no_kernel(name):
    """The reference engine is plain Python: none of its modules imports a fast-engine module
    (a kernel, the search, its fast twin); the game plug-in wires the search twin in."""
    package = MODULES[name]
    root = Path(__file__).resolve().parents[1] / package.replace(".", "/")
    files = sorted((root / "reference").glob("*.py"))
    assert files
    for f in files:
        fast = {m for m in imported_modules(f, f"{package}.reference")
                if any(part.startswith("kernel") for part in m.split(".")) or m in ("sim.kit.search", "sim.kit.search_twin")}
        assert not fast, f"{f.relative_to(root.parents[2])} imports {sorted(fast)}"


def test_bot_answer_is_no_status_and_no_option():
    """``BOT_ANSWER`` is told apart from every ``step_apply`` status and from the options of every
    game (options: -1 at the lowest)."""
    assert BOT_ANSWER not in STATUS and BOT_ANSWER < -1
