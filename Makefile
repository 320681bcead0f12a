# cardlab: `make demo` and `make test` set everything up from a fresh clone.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEMO_DIR ?= demo
WORKERS ?= 2
SEED ?= 1
# pytest processes for `make test` (pytest-xdist); auto = one per core
TEST_WORKERS ?= auto
# Python writes the byte code of what it imports (__pycache__), so that each later process (test
# workers, run workers, the commands of the demo) loads it instead of compiling every module
# again: where PYTHONDONTWRITEBYTECODE is set, importing pandas and numba costs 2.3 s of CPU
# instead of 0.6 in every process
unexport PYTHONDONTWRITEBYTECODE

# games per demo run; override on the command line, e.g. `make demo VD_GAMES=10000`
VD_GAMES ?= 1000000
FS_GAMES ?= 200000
DF_GAMES ?= 100000
DF_MADNESS_GAMES ?= 50000
# games of the demo's virus-dogs skill ladder (all its pairings together)
VD_LADDER_GAMES ?= 6000
# what hidden information is worth: a virus-dogs ladder of random, cautious (the reference), search and the
# all-seeing search at budget VD_HIDDEN_BUDGET (600 games a pairing: the gain's 95% interval about +-0.045,
# the skill ratio's about +-0.15)
VD_HIDDEN_GAMES ?= 2400
VD_HIDDEN_BUDGET ?= 8
# the robustness pair: daifugo madness played by four learned bots (DF_STRONG_GAMES games, and as many of its
# control run, laws off, so that its law effects are measured against the base game as the scripted run's are) next to
# demo/daifugo-madness (the same config and seed, scripted bots); a madness ladder of random,
# strategist, greedy (the reference) and learned (DF_LADDER_GAMES games in all) rates the learned player
DF_LADDER_GAMES ?= 6000
DF_STRONG_GAMES ?= 100000
# games of each confirmation and population check of the prescriptions (cardlab suggest) for virus-dogs and
# normal daifugo (the madness run's are checked on as many games as it has)
VD_SUGGEST_GAMES ?= 100000
DF_SUGGEST_GAMES ?= 20000

# games per differential check that the reference engine replays in the bounds-check pass
# (0: none; the normal pass compares the same games)
BOUNDSCHECK_REFERENCE_GAMES ?= 0

.PHONY: venv demo demo-daifugo-faking-sick demo-virus-dogs test test-boundscheck golden bench clean

# --no-compile: a module is byte-compiled when first imported, not every installed one up front
# (the set-up takes about 20 s instead of 42)
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --no-compile -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

# Two halves of about the same work run at once: daifugo and faking-sick (their batch kernels
# only: no demo run of theirs searches), and virus-dogs with its search ladders; then the report.
demo: $(STAMP)
	$(MAKE) -j2 demo-daifugo-faking-sick demo-virus-dogs
	$(BIN)/cardlab report $(DEMO_DIR)/virus-dogs $(DEMO_DIR)/virus-dogs-suggested $(DEMO_DIR)/virus-dogs-ladder $(DEMO_DIR)/virus-dogs-hidden $(DEMO_DIR)/faking-sick $(DEMO_DIR)/daifugo $(DEMO_DIR)/daifugo-suggested $(DEMO_DIR)/daifugo-madness $(DEMO_DIR)/daifugo-ladder \
	    $(DEMO_DIR)/daifugo-base $(DEMO_DIR)/daifugo-madness-base $(DEMO_DIR)/daifugo-madness-learned-base $$(test -d $(DEMO_DIR)/daifugo-madness-suggested && echo $(DEMO_DIR)/daifugo-madness-suggested) \
	    --robustness-pair $(DEMO_DIR)/daifugo-madness-learned $(DEMO_DIR)/daifugo-madness --out $(DEMO_DIR)/report

demo-daifugo-faking-sick: $(STAMP)
	$(BIN)/cardlab compile daifugo faking-sick --batch-only --jobs 1
	$(BIN)/cardlab simulate faking-sick --games $(FS_GAMES) --seed $(SEED) --workers $(WORKERS) -q --out $(DEMO_DIR)/faking-sick
	$(BIN)/cardlab simulate daifugo --games $(DF_GAMES) --seed $(SEED) --workers $(WORKERS) -q --out $(DEMO_DIR)/daifugo
	$(BIN)/cardlab simulate daifugo --games $(DF_MADNESS_GAMES) --seed $(SEED) --workers $(WORKERS) -q --set mode=madness --out $(DEMO_DIR)/daifugo-madness
	$(BIN)/cardlab simulate daifugo --games $(DF_GAMES) --seed $(SEED) --workers $(WORKERS) -q --set rule_deck= --out $(DEMO_DIR)/daifugo-base
	$(BIN)/cardlab simulate daifugo --games $(DF_MADNESS_GAMES) --seed $(SEED) --workers $(WORKERS) -q --set mode=madness --set laws=off --out $(DEMO_DIR)/daifugo-madness-base
	$(BIN)/cardlab simulate daifugo --games $(DF_STRONG_GAMES) --seed $(SEED) --workers $(WORKERS) -q --set mode=madness \
	    --bots learned,learned,learned,learned --out $(DEMO_DIR)/daifugo-madness-learned
	$(BIN)/cardlab simulate daifugo --games $(DF_STRONG_GAMES) --seed $(SEED) --workers $(WORKERS) -q --set mode=madness \
	    --set laws=off --bots learned,learned,learned,learned --out $(DEMO_DIR)/daifugo-madness-learned-base
	$(BIN)/cardlab ladder daifugo --rungs random,strategist,greedy,learned --reference greedy --set mode=madness \
	    --games $(DF_LADDER_GAMES) --seed $(SEED) --workers $(WORKERS) --out $(DEMO_DIR)/daifugo-ladder > /dev/null
	$(BIN)/cardlab suggest $(DEMO_DIR)/daifugo-madness --workers $(WORKERS) -q --out $(DEMO_DIR)/daifugo-madness-suggested
	$(BIN)/cardlab suggest $(DEMO_DIR)/daifugo --games $(DF_SUGGEST_GAMES) --workers $(WORKERS) -q --out $(DEMO_DIR)/daifugo-suggested

demo-virus-dogs: $(STAMP)
	$(BIN)/cardlab compile virus-dogs
	$(BIN)/cardlab simulate virus-dogs --games $(VD_GAMES) --seed $(SEED) --workers $(WORKERS) -q --out $(DEMO_DIR)/virus-dogs
	$(BIN)/cardlab suggest $(DEMO_DIR)/virus-dogs --games $(VD_SUGGEST_GAMES) --workers $(WORKERS) -q \
	    --out $(DEMO_DIR)/virus-dogs-suggested
	$(BIN)/cardlab ladder virus-dogs --budgets 16,64 --games $(VD_LADDER_GAMES) --seed $(SEED) --workers $(WORKERS) \
	    --out $(DEMO_DIR)/virus-dogs-ladder > /dev/null
	$(BIN)/cardlab ladder virus-dogs --rungs random,cautious,search@$(VD_HIDDEN_BUDGET),seeing@$(VD_HIDDEN_BUDGET) \
	    --reference cautious --games $(VD_HIDDEN_GAMES) --seed $(SEED) --workers $(WORKERS) --out $(DEMO_DIR)/virus-dogs-hidden > /dev/null

# the first pass also compiles the second pass's bounds-checked kernels while it compiles its own
test: $(STAMP)
	$(BIN)/lint-imports && CARDLAB_PRECOMPILE_BOUNDSCHECK=1 $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist worksteal
	$(MAKE) test-boundscheck

# The differential tests once more with every kernel compiled with bounds checks (an index
# out of range raises IndexError; sim.run.precompile.BOUNDSCHECK_ENV); sim/kit/jit_cache.py keeps these compilations apart from the
# normal ones. The fast engine plays every game again; the reference engine, which the normal
# pass compared on the same games, plays none of the differential checks (the contract tests,
# over every registered game, keep their reference engine). No search seat plays here: the
# bounds-checked compile of the search (half of daifugo's compile) would cost more than the pass.
test-boundscheck: $(STAMP)
	NUMBA_BOUNDSCHECK=1 CARDLAB_DIFF_REFERENCE_GAMES=$(BOUNDSCHECK_REFERENCE_GAMES) \
	    $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist worksteal tests/*/test_differential.py \
	    tests/test_game_contract.py::test_engines_agree_on_the_default_table_in_odd_batches \
	    tests/test_step_contract.py::test_step_contract_random_games_against_the_reference

# rewrite the golden playthroughs (tests/<game>/golden/) from the reference engines (after an intended change; review the diff)
golden: $(STAMP)
	$(BIN)/python -m tests.golden.regenerate

bench: $(STAMP)
	$(BIN)/cardlab bench all --report

clean:
	rm -rf $(VENV) $(DEMO_DIR)
