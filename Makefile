# Targets only call the CLI (or pip/pytest). `make` sets up .venv and builds every game into output/.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: all build test test-fast fuzz validate balance bench clean distclean

all: build

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,cluster]'
	git config diff.pnp.textconv "$(BIN)/pnp textconv" 2>/dev/null || true   # readable workbook diffs (.gitattributes)
	touch $(STAMP)

build: $(STAMP)
	$(BIN)/pnp build --paper all --format all --ink-saver

validate: $(STAMP)
	$(BIN)/pnp validate

balance: $(STAMP)
	$(BIN)/pnp validate --balance --workers 2

# every core: a module's tests stay on one worker (--dist loadscope), so a module's fixtures are made once
test: $(STAMP)
	$(BIN)/python -m pytest -r fE -n auto --dist loadscope --durations=15

test-fast: $(STAMP)
	$(BIN)/python -m pytest -r fE -n auto --dist loadscope -m "not slow"

# before a release: the fuzz test's targets drawn at random, PNP_FUZZ_EXAMPLES each (default 2000, minutes);
# what it finds stays in .hypothesis/, and a failing recipe goes to tests/data/fuzz_regressions/ (see the test)
PNP_FUZZ_EXAMPLES ?= 2000
fuzz: $(STAMP)
	PNP_FUZZ_EXAMPLES=$(PNP_FUZZ_EXAMPLES) $(BIN)/python -m pytest -r fE -n auto --dist load tests/data/test_fuzz_inputs.py

bench: $(STAMP)
	$(BIN)/python bench/run.py
	$(BIN)/python bench/hostile_sheets.py
	$(BIN)/python bench/hostile_yaml.py
	$(BIN)/python bench/incremental.py
	$(BIN)/python bench/release.py --jobs-one
	$(BIN)/python bench/exports.py
	$(BIN)/python bench/engine_speed.py --game buildit --games 1000
	$(BIN)/python bench/engine_speed.py --game allstar --games 1000 --all
	$(BIN)/python bench/engine_speed.py --game nba --games 1000 --min-rate 100
	$(BIN)/python bench/engine_speed.py --game fightball --games 1000 --all --min-rate 100
	$(BIN)/python bench/engine_speed.py --game challengers --games 1000 --all --min-rate 100
	$(BIN)/python bench/executors.py --games 2000

clean:                  # the outputs and the build cache (pnp clean; without the venv, their default places)
	if [ -x $(BIN)/pnp ]; then $(BIN)/pnp clean; else rm -rf output .pnp-cache; fi

distclean: clean
	rm -rf $(VENV) *.egg-info
