"""JupyterLab in a real browser: a study notebook run with ``interactive=True`` shows its explorer,
and the explorer reacts to a change.

Headless Chromium from Debian's ``chromium`` package (``apt-get install -y chromium``, see
``scripts/install_browser.sh``) driven by Playwright's Python package with the system browser -
nothing is downloaded. The screenshot goes to ``<runs>/lab/`` of the environment pytest started in
(``$SUMEVAL_RUNS`` or ``<root>/runs``, read before the test session moves runs to a temp folder).

Also, without a browser: every registered study, run with its smoke parameters and
``interactive=True``, ends with an ipywidgets view (marked slow: it runs each study).
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from sumeval import paths

from helpers import free_port, import_test_module  # tests/ is on the path

CHROMIUM = Path(os.environ.get("SUMEVAL_CHROMIUM", "/usr/bin/chromium"))
LAB_STUDY = "metric_correlations"  # the real study notebook the browser test opens, with its smoke parameters
SCREENSHOT_DIR = paths.runs_dir() / "lab"  # read at import, before conftest redirects runs
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]


def set_parameters(nb_path: Path, values: dict) -> None:
    """Rewrite ``name: type = ...`` lines of the parameters cell of ``nb_path`` with ``values``."""
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    cell = next(c for c in nb["cells"] if "parameters" in c.get("metadata", {}).get("tags", []))
    src = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
    for name, value in values.items():
        src, n = re.subn(rf"^({re.escape(name)}\s*:\s*\w+\s*=\s*)[^#\n]*?(\s*#.*)?$",
                         lambda m: f"{m.group(1)}{value!r}{m.group(2) or ''}", src, flags=re.M)
        assert n == 1, f"{nb_path.name}: parameter {name} not found in the parameters cell"
    cell["source"] = src
    nb_path.write_text(json.dumps(nb, indent=1), encoding="utf-8")


@pytest.fixture
def lab_server(tmp_path):
    """JupyterLab on 127.0.0.1 (random port, token) serving ``tmp_path/lab``; yields (url, token, root)."""
    root = tmp_path / "lab"
    root.mkdir()
    port, token = free_port(), secrets.token_hex(16)
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
           "JUPYTER_CONFIG_DIR": str(tmp_path / "jupyter_config")}  # no user config
    env.pop("MPLBACKEND", None)  # the kernel must use its inline backend, or the explorer draws no chart
    settings = tmp_path / "user_settings"  # no news prompt over the screenshot
    (settings / "@jupyterlab" / "apputils-extension").mkdir(parents=True)
    (settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false"}), encoding="utf-8")
    # every cell attached and rendered: JupyterLab's default ("contentVisibility") lets the browser skip
    # drawing cells out of the viewport, so whether a chart counts as shown would depend on the scroll
    (settings / "@jupyterlab" / "notebook-extension").mkdir(parents=True)
    (settings / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings").write_text(
        json.dumps({"windowingMode": "none"}), encoding="utf-8")
    log = open(tmp_path / "lab.log", "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
         "--LabApp.expose_app_in_browser=True", "--LabApp.news_url=None", f"--LabApp.user_settings_dir={settings}",
         "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
         "--MappingKernelManager.default_kernel_name=sumeval"] + (["--allow-root"] if os.geteuid() == 0 else []),
        stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 90
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.time() > deadline:
                pytest.fail(f"JupyterLab did not start: {(tmp_path / 'lab.log').read_text()[-2000:]}")
            time.sleep(0.5)
        yield url, token, root
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def _launch(playwright):
    return playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)


def _open_and_run(page, url: str, token: str, name: str, timeout_ms: int) -> None:
    page.goto(f"{url}/lab/tree/{name}?token={token}", wait_until="domcontentloaded")
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget "
                           "&& window.jupyterapp.shell.currentWidget.sessionContext", timeout=timeout_ms)
    kernel = page.evaluate("""async () => {
        const w = window.jupyterapp.shell.currentWidget;
        await w.context.ready; await w.sessionContext.ready;
        return w.sessionContext.session ? w.sessionContext.session.kernel.name : null; }""")
    assert kernel == "sumeval", f"the notebook opened with kernel {kernel!r}, not the project's kernel"
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")


def _output_text(page) -> str:
    return page.locator(".jupyter-widgets .widget-output, .jupyter-widgets-output-area").first.inner_text()


@pytest.mark.skipif(not CHROMIUM.is_file(), reason=f"no Chromium at {CHROMIUM}: run scripts/install_browser.sh "
                    "(apt-get install -y chromium) to run the browser test")
def test_explorer_renders_and_reacts_in_jupyterlab(lab_server, tmp_path):
    pytest.importorskip("playwright", reason="pip install playwright (uses /usr/bin/chromium; "
                        "never `playwright install`)")
    from playwright.sync_api import sync_playwright

    from sumeval.running import lab, study_params

    url, token, root = lab_server
    study = study_params.get_study(LAB_STUDY)
    nb = root / f"{LAB_STUDY}.ipynb"
    assert nb in lab.copy_notebooks(root)[0]  # what `make lab` does: the lab works on copies
    smoke = {k: v for k, v in study_params.resolve_parameters(study, "smoke").items() if k != "interactive"}
    set_parameters(nb, {**smoke, "interactive": True})
    shot = SCREENSHOT_DIR / f"explorer-{_dt.datetime.now().strftime('%Y%m%d-%H%M%S')}.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = _launch(p)
        page = browser.new_page(viewport={"width": 1280, "height": 1400})
        try:
            _open_and_run(page, url, token, nb.name, timeout_ms=90_000)
            dropdown = page.locator(".widget-select-multiple select").first
            dropdown.wait_for(state="visible", timeout=240_000)
            page.locator(".jupyter-widgets table").first.wait_for(timeout=60_000)
            assert page.locator(".widget-select-multiple select").count() == 3  # quality, level, measure
            options = dropdown.locator("option").all_inner_texts()
            assert options == ["Coherence", "Consistency", "Fluency", "Relevance"], options  # display names
            before = _output_text(page)
            assert "Coherence" in before and "Relevance" in before

            dropdown.select_option(label="Relevance")
            page.wait_for_function(
                """() => {
                    const o = document.querySelector('.jupyter-widgets .widget-output, .jupyter-widgets-output-area');
                    return o && o.innerText.includes('Relevance') && !o.innerText.includes('Coherence'); }""",
                timeout=60_000)
            after = _output_text(page)
            assert after != before
            level = page.locator(".widget-select-multiple select").nth(1)
            assert [t.replace("\xa0", " ") for t in level.locator("option").all_inner_texts()] == [
                "Input", "Summary (pooled)", "System"]  # widgets render spaces as nbsp
            level.select_option(value=level.locator("option").nth(1).get_attribute("value"))
            page.wait_for_function(
                """() => {
                    const o = document.querySelector('.jupyter-widgets .widget-output, .jupyter-widgets-output-area');
                    return o && o.innerText.includes('Summary (pooled)') && !o.innerText.includes('System'); }""",
                timeout=60_000)
            assert _output_text(page) != after
            # the bar chart redrawn: a decoded PNG in the explorer's output (not merely an <img> tag)
            page.wait_for_function(
                """() => {
                    const i = document.querySelector(
                        '.jupyter-widgets .widget-output img, .jupyter-widgets-output-area img');
                    return i && i.complete && i.naturalWidth > 100 && i.naturalHeight > 100; }""",
                timeout=60_000)
            page.evaluate("() => document.querySelector('.widget-select-multiple select')"
                          ".scrollIntoView({block: 'start'})")
            page.screenshot(path=str(shot), full_page=False)
        except Exception:
            page.screenshot(path=str(tmp_path / "failure.png"))
            shutil.copy(tmp_path / "failure.png", shot.with_name(shot.stem + "-failure.png"))
            html = page.evaluate("""() => {
                const o = document.querySelector('.jupyter-widgets .widget-output, .jupyter-widgets-output-area');
                return o ? o.innerHTML.slice(0, 3000) : '(no widget output area)'; }""")
            log_tail = (root.parent / "lab.log").read_text(errors="replace")[-3000:]
            print(f"explorer output HTML (first 3000 chars):\n{html}\n--- lab.log tail ---\n{log_tail}")
            raise
        finally:
            browser.close()
    assert shot.is_file() and shot.stat().st_size > 10_000
    print(f"screenshot: {shot}")


def _table_text(page) -> str:
    """The text of the explorer's result table (the last table in the run explorer's output)."""
    return page.evaluate("""() => {
        const t = [...document.querySelectorAll('.jupyter-widgets-output-area table, .widget-output table')];
        return t.length ? t[t.length - 1].innerText : ''; }""")


@pytest.mark.skipif(not CHROMIUM.is_file(), reason=f"no Chromium at {CHROMIUM}: run scripts/install_browser.sh "
                    "(apt-get install -y chromium) to run the browser test")
def test_run_explorer_chooses_a_run_and_filters_in_jupyterlab(lab_server, tmp_path):
    """sumeval.widgets.run_explorer on runs on disk (plots/test_explorer.py make_runs): the run's table ordered
    by value with intervals and clusters; choosing another human column and another run redraws it."""
    pytest.importorskip("playwright", reason="pip install playwright (uses /usr/bin/chromium; "
                        "never `playwright install`)")
    from playwright.sync_api import sync_playwright
    make_runs = import_test_module("plots/test_explorer.py").make_runs

    url, token, root = lab_server
    runs = make_runs(tmp_path / "runs")
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                     "source": f"from sumeval import widgets\nwidgets.run_explorer({str(runs)!r})"}],
          "metadata": {"kernelspec": {"name": "sumeval", "display_name": "sumeval", "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    (root / "explore.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    with sync_playwright() as p:
        browser = _launch(p)
        page = browser.new_page(viewport={"width": 1400, "height": 1400})
        try:
            _open_and_run(page, url, token, "explore.ipynb", timeout_ms=90_000)
            human = page.locator(".widget-select-multiple select").first
            human.wait_for(state="visible", timeout=120_000)
            page.wait_for_function("() => document.querySelector("
                                   "'.jupyter-widgets-output-area table, .widget-output table')",
                                   timeout=60_000)
            run = page.locator(".widget-dropdown select").nth(1)
            runs_shown = [t.replace("\xa0", " ") for t in run.locator("option").all_inner_texts()]  # widgets use nbsp
            assert runs_shown[0].startswith("default · default-bbb") and runs_shown[1].startswith("smoke · smoke-aaa")
            assert human.locator("option").all_inner_texts() == ["Consistency", "Relevance"]
            before = _table_text(page)
            # the default run, consistency / input: by value, with its interval and cluster
            assert before.index("BERTScore") < before.index("ROUGE-1") < before.index("BLEU"), before
            assert "0.46" in before and "[0.400, 0.500]" in before and "Consistency" in before
            human.select_option(label="Relevance")  # a click on a multi-select
            page.wait_for_function("""() => {
                const t = [...document.querySelectorAll('.jupyter-widgets-output-area table, .widget-output table')];
                const s = t.length ? t[t.length - 1].innerText : '';
                return s.includes('0.66') && !s.includes('0.46'); }""", timeout=60_000)
            after = _table_text(page)
            assert "Relevance" in after and "Consistency" not in after and after != before
            # a chart of the values with their intervals, drawn (one row per measure, nothing pooled)
            page.wait_for_function(
                """() => [...document.querySelectorAll('.jupyter-widgets-output-area img, .widget-output img')]
                           .some(i => i.complete && i.naturalWidth > 100 && i.naturalHeight > 100)""", timeout=60_000)
            run.select_option(index=1)  # the smoke run: its own values
            page.wait_for_function("""() => {
                const t = [...document.querySelectorAll('.jupyter-widgets-output-area table, .widget-output table')];
                const s = t.length ? t[t.length - 1].innerText : '';
                return s.includes('0.45') && !s.includes('0.46'); }""", timeout=60_000)
            page.wait_for_function("""() => [...document.querySelectorAll('.widget-html')]
                .some(e => e.innerText.replace(/\\s+/g, ' ').includes('parameter set smoke'))""",
                                   timeout=30_000)
        except Exception:
            page.screenshot(path=str(tmp_path / "failure.png"))
            print((root.parent / "lab.log").read_text(errors="replace")[-3000:])
            raise
        finally:
            browser.close()


# ------------------------------------------------------------------------------------------
# every registered study shows an explorer when interactive=True (no browser needed)
# ------------------------------------------------------------------------------------------
def _studies() -> list[str]:
    from sumeval.running import study_params

    return list(study_params.studies())


def _quiet_output_widgets(monkeypatch) -> None:
    """Headless, nbclient plays the front end of every ``ipywidgets.Output`` and echoes each captured
    output back to the kernel as a ``comm_msg`` on the shell channel - while it waits on that same
    channel for the cell's ``execute_reply``. Under load the reply can then go unnoticed: the kernel
    has run the cell and is idle, the client waits (here: 3 of 30 interactive runs of
    metric_correlations on a busy machine, each freed only when a 120 s cell timeout made nbclient
    poll again; none of 30 with the echo off). The echo only keeps the kernel's copy of the widget's outputs in
    step, which this check does not read, so it is switched off here; the runner never shows widgets
    (interactive=False). The finite cell timeout of the run below makes nbclient poll again, so a stall of another cause
    (ipykernel 7, see pyproject.toml) costs minutes, not the CI run."""
    import nbclient.client
    import nbclient.output_widget

    class _NoEcho(nbclient.output_widget.OutputWidget):
        def sync_state(self) -> None:
            pass

    monkeypatch.setattr(nbclient.client, "OutputWidget", _NoEcho)


@pytest.mark.slow
@pytest.mark.parametrize("name", _studies())
def test_every_study_shows_its_explorer_when_interactive(name, tmp_path, monkeypatch):
    import papermill

    from sumeval.running import runner, study_params

    study = study_params.get_study(name)
    params = {k: v for k, v in study_params.resolve_parameters(study, "smoke").items() if k != "interactive"}
    params["interactive"] = True
    monkeypatch.setenv("SUMEVAL_RUN_DIR", str(tmp_path))  # results of this check stay in tmp
    _quiet_output_widgets(monkeypatch)
    out = tmp_path / "executed.ipynb"
    papermill.execute_notebook(str(study.notebook), str(out), parameters=params,
                               kernel_name=runner.kernel_name(), cwd=str(tmp_path), progress_bar=False,
                               execution_timeout=600)
    nb = json.loads(out.read_text(encoding="utf-8"))
    views = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])
             if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert views, f"{name}: with interactive=True no cell shows a widget (the explorer)"
