"""What verifying a cache entry on load costs: the sha256 check of :class:`sumeval.cache.Store`.

Takes the largest entry of the tokenised-corpus store (``retrieval_terms``: the sparse backend's
term matrix of a Wikipedia collection, tens of MB) under ``$SUMEVAL_CACHE`` - or, when there is
none, a synthetic 48 MB entry - writes it into a temporary store, and times (best of 5, warm page
cache): reading the file, the sha256 of its payload, decoding the arrays, and the whole
``Store.get_arrays`` (read + check + decode), beside ``np.load`` of the same arrays as a bare
``.npz`` (what the store did before it checked). The verification's share is sha256 / get_arrays.
Also times :func:`sumeval.retrieval.index.verify_index` on the cached indexes (what ``sumeval
index list`` and every index load now do).
"""
from __future__ import annotations

import hashlib
import io
import tempfile
import time
from pathlib import Path

import numpy as np


def _best(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def _largest_entry(cache: Path) -> tuple[dict[str, np.ndarray], str]:
    from sumeval.cache import Store

    files = sorted((cache / "retrieval_terms").rglob("*.npz"), key=lambda p: p.stat().st_size)
    if files:
        arrays = Store("retrieval_terms", root=cache).get_arrays(files[-1].stem)
        if arrays is not None:
            return arrays, f"retrieval_terms/{files[-1].name}"
    rng = np.random.default_rng(0)
    return {"indices": rng.integers(0, 2**31, 8_000_000, dtype=np.int32),
            "data": rng.integers(1, 9, 4_000_000, dtype=np.int32)}, "synthetic (48 MB)"


def main() -> dict:
    from sumeval.cache import Store, cache_key
    from sumeval.paths import cache_dir
    from sumeval.retrieval.index import verify_index

    arrays, source = _largest_entry(cache_dir())
    with tempfile.TemporaryDirectory() as tmp:
        store = Store("bench", root=tmp)
        key = cache_key(bench="cache-verify")
        path = store.put_arrays(key, arrays)
        data = path.read_bytes()
        payload = data[data.index(b"\n") + 1:]

        def decode():
            with np.load(io.BytesIO(payload), allow_pickle=False) as z:
                return {n: z[n] for n in z.files}

        t_read = _best(path.read_bytes)
        t_sha = _best(lambda: hashlib.sha256(payload).hexdigest())
        t_decode = _best(decode)
        t_get = _best(lambda: store.get_arrays(key))
        plain = Path(tmp) / "plain.npz"  # the same arrays as a bare .npz: the load without any check
        plain.write_bytes(payload)

        def load_plain():
            with np.load(plain, allow_pickle=False) as z:
                return {n: z[n] for n in z.files}

        t_plain = _best(load_plain)
    out = {"entry": source, "size_mb": round(len(data) / 2**20, 1), "read_s": round(t_read, 4),
           "sha256_s": round(t_sha, 4), "decode_s": round(t_decode, 4), "get_arrays_s": round(t_get, 4),
           "plain_np_load_s": round(t_plain, 4), "sha256_share_of_get": round(t_sha / t_get, 3),
           "sha256_mb_per_s": round(len(payload) / 2**20 / t_sha, 1)}
    print(f"{source}: {out['size_mb']} MB; read {t_read * 1e3:.1f} ms, sha256 {t_sha * 1e3:.1f} ms "
          f"({out['sha256_mb_per_s']} MB/s), decode {t_decode * 1e3:.1f} ms, "
          f"Store.get_arrays {t_get * 1e3:.1f} ms (check = {100 * out['sha256_share_of_get']:.0f}%); "
          f"np.load of the bare .npz {t_plain * 1e3:.1f} ms")
    folders = [p for p in (cache_dir() / "retrieval_indexes").glob("*") if p.is_dir() and ".partial-" not in p.name]
    if folders:
        t_idx = [(_best(lambda f=f: verify_index(f)), f) for f in folders]
        out["verify_index_s_max"] = round(max(t for t, _ in t_idx), 4)
        out["n_indexes"] = len(folders)
        print(f"verify_index over {len(folders)} cached indexes: at most {out['verify_index_s_max'] * 1e3:.1f} ms each")
    return out


if __name__ == "__main__":
    main()
