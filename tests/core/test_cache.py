"""Cache keys, the store and atomic writes; paths and their environment overrides."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sumeval import paths
from sumeval.cache import Store, atomic_path, atomic_write_json, cache_key


def test_cache_key_is_stable_and_sensitive():
    a = cache_key(model="m", text="hello", window=450, layers=[1, 2])
    assert a == cache_key(layers=[1, 2], window=450, text="hello", model="m")  # order-free
    assert a != cache_key(model="m", text="hello", window=451, layers=[1, 2])
    assert a != cache_key(model="m", text="hello ", window=450, layers=[1, 2])
    arr = np.arange(6, dtype=np.float32)
    assert cache_key(x=arr) == cache_key(x=arr.copy()) != cache_key(x=arr + 1)
    assert cache_key(x=1) != cache_key(x=1, include_version=False)
    with pytest.raises(TypeError, match="cannot hash"):
        cache_key(x=object())


def test_store_round_trips(tmp_path):
    store = Store("unit", root=tmp_path)
    k = cache_key(case="roundtrip")
    assert store.get_arrays(k) is None and store.get_json(k) is None and store.get_frame(k) is None
    store.put_arrays(k, {"e": np.eye(3, dtype=np.float16), "ids": np.array([4, 5])})
    got = store.get_arrays(k)
    assert got["e"].dtype == np.float16 and np.array_equal(got["e"], np.eye(3)) and list(got["ids"]) == [4, 5]
    store.put_json(k, {"a": [1, 2]})
    assert store.get_json(k) == {"a": [1, 2]}
    frame = pd.DataFrame({"x": [1.5, np.nan], "s": ["a", "b"]})
    store.put_frame(k, frame)
    pd.testing.assert_frame_equal(store.get_frame(k), frame)
    assert store.path(k, "npz").parent.name == k[:2]


def test_atomic_write_leaves_target_untouched_on_failure(tmp_path):
    target = tmp_path / "out.json"
    atomic_write_json(target, {"v": 1})
    with pytest.raises(RuntimeError):
        with atomic_path(target) as tmp:
            tmp.write_text("half-writ")
            raise RuntimeError("interrupted")
    assert target.read_text().strip().startswith("{") and '"v": 1' in target.read_text()
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]  # no partial file left


def test_clear_partial(tmp_path):
    store = Store("unit", root=tmp_path)
    (store.folder / "ab").mkdir(parents=True)
    (store.folder / "ab" / ".x.npz.123.partial").write_text("")
    assert store.clear_partial() == 1 and store.clear_partial() == 0


def test_paths_follow_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("SUMEVAL_CACHE", str(tmp_path / "c"))
    monkeypatch.setenv("SUMEVAL_DATA", f"{tmp_path / 'd1'}:{tmp_path / 'd2'}")
    assert paths.cache_dir() == tmp_path / "c"
    places = paths.data_search_path()
    assert places[:2] == [tmp_path / "d1", tmp_path / "d2"]
    assert places[2] == paths.project_root() / "data"
    assert places[3].parts[-2:] == ("shared", "data")
