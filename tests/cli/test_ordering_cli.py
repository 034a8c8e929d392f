"""``sumeval ordering train | evaluate`` through a parser built here with
:func:`sumeval.cli.ordering.add_commands`, and through the ``sumeval`` command itself."""
from __future__ import annotations

import argparse
import json

import pytest

pytest.importorskip("torch")

from sumeval.cli import (
    main,  # noqa: E402
    ordering,  # noqa: E402
)
from sumeval.errors import SumevalError  # noqa: E402


def _parser():
    ap = argparse.ArgumentParser(prog="sumeval")
    ordering.add_commands(ap.add_subparsers(dest="command", required=True))
    return ap


def _run(argv):
    args = _parser().parse_args(argv)
    return args.func(args)


def test_train_then_evaluate_then_reuse(tmp_path, capsys):
    out = tmp_path / "run"
    base = ["ordering", "train", "--model", "lstm_ptrnet", "--dataset", "nips", "--max-train", "16",
            "--max-dev", "6", "--epochs", "1", "--hidden", "16", "--batch-size", "8", "--no-glove",
            "--out", str(out), "--quiet", "--threads", "1"]
    assert _run(base) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["run_dir"] == str(out) and summary["epochs_run"] == 1
    assert summary["train_documents"] == 16 and summary["dev_documents"] == 6
    assert summary["n_params"] > 0 and "tau" in summary["random_dev"]
    assert {"best.pt", "last.pt", "vocab.json", "config.json"} <= {p.name for p in out.iterdir()}

    preds = tmp_path / "pred.jsonl"
    assert _run(["ordering", "evaluate", "--run-dir", str(out), "--max-test", "5", "--beam", "2",
                 "--output", str(preds), "--quiet", "--threads", "1"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["dataset"] == "nips" and res["documents"] == 5 and res["beam"] == 2
    assert set(res["scores"]) == {"pmr", "acc", "tau", "wlcs_l"}
    lines = [json.loads(x) for x in preds.read_text().splitlines()]
    assert len(lines) == 5 and all(sorted(x["pred"]) == sorted(x["gold"]) for x in lines)

    # a second call with the same settings reuses the finished run (no new epoch)
    assert _run(base) == 0
    assert json.loads(capsys.readouterr().out)["history"] == summary["history"]
    # other settings in the same folder: refused, naming the checkpoint
    with pytest.raises(SumevalError, match="other settings"):
        _run([*base, "--lr", "0.5"])


def test_bad_arguments():
    ap = _parser()
    with pytest.raises(SystemExit):
        ap.parse_args(["ordering", "train", "--model", "bert", "--dataset", "nips"])
    with pytest.raises(SystemExit):
        ap.parse_args(["ordering", "train", "--model", "se_graph", "--dataset", "nips", "--epochs", "0"])
    with pytest.raises(SystemExit):
        ap.parse_args(["ordering", "evaluate"])  # --run-dir is required
    for bad in (["--optimizer", "sgd"], ["--lr-decay", "0"], ["--lr-decay", "1.5"]):
        with pytest.raises(SystemExit):
            ap.parse_args(["ordering", "train", "--model", "attordernet", "--dataset", "nips", *bad])


def test_adadelta_takes_the_release_learning_rate_unless_one_is_given(tmp_path, capsys):
    """``--optimizer adadelta`` without ``--lr`` trains at 1.0 (the ATTOrderNet release's), with
    ``--lr-decay`` in the run's config.json; Adam's runs keep 0.001 and no optimiser entry."""
    base = ["ordering", "train", "--model", "lstm_ptrnet", "--dataset", "nips", "--max-train", "8", "--max-dev", "4",
            "--epochs", "1", "--hidden", "16", "--no-glove", "--quiet", "--threads", "1"]
    assert _run([*base, "--optimizer", "adadelta", "--lr-decay", "0.95", "--out", str(tmp_path / "ada")]) == 0
    train = json.loads((tmp_path / "ada" / "config.json").read_text())["train"]
    assert (train["optimizer"], train["lr"], train["lr_decay"]) == ("adadelta", 1.0, 0.95)
    assert _run([*base, "--optimizer", "adadelta", "--lr", "0.5", "--out", str(tmp_path / "ada2")]) == 0
    train = json.loads((tmp_path / "ada2" / "config.json").read_text())["train"]
    assert (train["optimizer"], train["lr"]) == ("adadelta", 0.5) and "lr_decay" not in train
    assert _run([*base, "--out", str(tmp_path / "adam")]) == 0
    train = json.loads((tmp_path / "adam" / "config.json").read_text())["train"]
    assert train["lr"] == 0.001 and "optimizer" not in train and "lr_decay" not in train
    capsys.readouterr()


def test_evaluate_names_a_missing_run(tmp_path, capsys):
    with pytest.raises(SumevalError, match="not a finished"):
        _run(["ordering", "evaluate", "--run-dir", str(tmp_path / "nothing"), "--quiet"])
    assert main(["ordering", "evaluate", "--run-dir", str(tmp_path / "nothing"), "--quiet"]) == 2
    assert "not a finished" in capsys.readouterr().err
