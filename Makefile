PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEMO_DIR ?= demo
DEMO_GAMES_VD ?= 1000000
DEMO_GAMES_FS ?= 200000
DEMO_GAMES_DF ?= 100000

.PHONY: venv demo test bench lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(BIN)/cardlab simulate virus-dogs --games $(DEMO_GAMES_VD) --seed 1 --out $(DEMO_DIR)/virus-dogs
	$(BIN)/cardlab report $(DEMO_DIR)/virus-dogs --out $(DEMO_DIR)/report
	@echo "report: $(DEMO_DIR)/report/report.html and $(DEMO_DIR)/report/report.pdf"

test: $(STAMP)
	$(BIN)/python -m pytest -q -x

bench: $(STAMP)
	$(BIN)/cardlab bench all

clean:
	rm -rf $(VENV) $(DEMO_DIR)
