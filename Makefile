# Two commands for a newcomer: `make run` (the demo) and `make test` (every test).
# Both create .venv and install what they need; only Python 3.11+, make and git are assumed.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
HOST   ?=
PORT   ?=

.PHONY: run test lint venv clean bench screenshots

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is needed, found " + sys.version.split()[0]'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

venv: $(STAMP)

# The main job: the companion in demo mode, following a filmed deal from its "camera": the golden
# deal video (rendered once, about a minute, then cached: python -m vision.synth.golden) played
# through the video: camera backend, so cards laid on the table become pegs on the page and the
# simulated LEDs. Open the address it prints; Ctrl-C stops it.
# `make run PORT=9000 HOST=0.0.0.0` (phones on the network can then open it) or ARGS="...".
run: $(STAMP)
	@video=$$($(BIN)/python -m vision.synth.golden --reset turn-down) && \
	$(BIN)/crib serve --demo --camera "video:$$video" $(if $(HOST),--host $(HOST)) $(if $(PORT),--port $(PORT)) $(ARGS)

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	@for b in benchmarks/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

# The page's screenshots in docs/screenshots/ (Chromium at a 390 px phone width).
screenshots: $(STAMP)
	$(BIN)/python docs/screenshots.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
