"""A user's scorer classes for the measures of a meta-evaluation: imported by path
(``mypkg.mymod:MyScorer``, ``--measure-class``, ``--module-path DIR``) or by the name of an entry
point of the group ``sumeval.measures``; built with the options they accept and signed with their
import path, version and source hash (so an edited or upgraded class is never served cached scores).
"""
from __future__ import annotations

import contextlib
import importlib
import inspect
import re
import sys
from pathlib import Path
from typing import Any, Mapping, Sequence

from sumeval.errors import InputError
from sumeval.hashing import sha256_file
from sumeval.metrics.base import Scorer

__all__ = ["ENTRY_POINT_GROUP", "load_scorer_class", "entry_point_measures", "build_scorer_class"]

ENTRY_POINT_GROUP = "sumeval.measures"
_DOTTED = r"[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*"  # a dotted Python name
_CLASS_RE = re.compile(rf"^(?P<module>{_DOTTED}):(?P<attr>{_DOTTED})$")


@contextlib.contextmanager
def _search_path(folders: Sequence[str | Path]):
    """``folders`` put first on ``sys.path`` for the block (then removed again)."""
    added = [str(Path(f).expanduser().resolve()) for f in folders]
    for f in added:
        if not Path(f).is_dir():
            raise InputError(f"--module-path {f!r} is not a folder")
    sys.path[:0] = added
    importlib.invalidate_caches()
    try:
        yield
    finally:
        for f in added:
            with contextlib.suppress(ValueError):
                sys.path.remove(f)


def load_scorer_class(path: str, module_path: Sequence[str | Path] = ()) -> type[Scorer]:
    """The Scorer subclass at ``path`` (``"package.module:ClassName"``).

    Raises :class:`InputError` naming the path when it is malformed, its module does not import
    (with the ImportError), the attribute is missing or is not a Scorer subclass.
    """
    m = _CLASS_RE.match(path.strip())
    if not m:
        raise InputError(f"measure class {path!r} is not of the form package.module:ClassName")
    module_name, attr = m.group("module"), m.group("attr")
    try:
        with _search_path(module_path):
            module = importlib.import_module(module_name)
    except InputError:
        raise
    except Exception as exc:  # ImportError, or any error raised while the module runs
        where = f" (searched --module-path {', '.join(map(str, module_path))} first)" if module_path else ""
        raise InputError(
            f"measure class {path!r}: module {module_name!r} could not be imported{where} "
            f"({type(exc).__name__}: {exc}). Install its package, put its folder on PYTHONPATH, or "
            "pass the folder that holds it with --module-path DIR") from exc
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            found = sorted(n for n, v in vars(module).items()
                           if inspect.isclass(v) and issubclass(v, Scorer) and v is not Scorer)
            raise InputError(f"measure class {path!r}: module {module_name!r} has no attribute "
                             f"{attr!r}; its Scorer classes: {', '.join(found) or 'none'}")
        obj = getattr(obj, part)
    _check_scorer_class(obj, path)
    return obj


def _check_scorer_class(obj: Any, where: str) -> None:
    if not (inspect.isclass(obj) and issubclass(obj, Scorer)):
        kind = "class" if inspect.isclass(obj) else type(obj).__name__
        raise InputError(f"measure class {where!r} is a {kind} ({obj!r}), not a subclass of "
                         "sumeval.metrics.Scorer; see the Scorer interface in examples/README.md")
    if inspect.isabstract(obj):
        missing = sorted(getattr(obj, "__abstractmethods__", ()))
        raise InputError(f"measure class {where!r} does not implement {', '.join(missing)} of "
                         "sumeval.metrics.Scorer")


def entry_point_measures() -> dict[str, Any]:
    """``{name: EntryPoint}`` of the group ``sumeval.measures`` of the installed packages."""
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def _load_entry_point(ep: Any) -> type[Scorer]:
    dist = getattr(getattr(ep, "dist", None), "name", None) or "an installed package"
    try:
        obj = ep.load()
    except Exception as exc:
        raise InputError(f"measure {ep.name!r} (entry point {ep.value!r} of {dist}, group "
                         f"{ENTRY_POINT_GROUP}) could not be loaded ({type(exc).__name__}: {exc})") from exc
    _check_scorer_class(obj, f"{ep.name} = {ep.value}")
    return obj


def _class_identity(cls: type, path: str) -> dict[str, str]:
    """Import path, version and source hash of a user's scorer class (for its signature)."""
    version = getattr(cls, "version", None)
    if not version:
        from importlib.metadata import PackageNotFoundError, packages_distributions, version as dist_version

        top = cls.__module__.split(".")[0]
        for dist in packages_distributions().get(top, []):
            with contextlib.suppress(PackageNotFoundError):
                version = f"{dist}-{dist_version(dist)}"
                break
    source = "unknown"
    with contextlib.suppress(TypeError, OSError):
        file = inspect.getsourcefile(cls)
        if file:
            source = sha256_file(file)[:16]
    return {"class": path, "version": str(version or "unversioned"), "source_sha": source}


def _build(factory, cls: type, options: Mapping[str, Any], where: str) -> Scorer:
    """``factory(**options)``, a constructor's complaint turned into an InputError naming ``where``."""
    try:
        scorer = factory(**options)
    except InputError:
        raise
    except TypeError as exc:
        raise InputError(f"measure {where!r}: could not build {cls.__name__}("
                         f"{', '.join(f'{k}={v!r}' for k, v in options.items())}) ({exc})") from exc
    if not scorer.name:
        scorer.name = cls.__name__
    return scorer


def _user_signature(signature: str, identity: Mapping[str, str]) -> str:
    """A user class's signature: its scorer's, then its import path, version and source hash."""
    return signature + "".join(f"|{k}={v}" for k, v in identity.items())



def build_scorer_class(path: str, *, options: Mapping[str, Any] | None = None,
                       module_path: Sequence[str | Path] = ()) -> Scorer:
    """A user's scorer, built from its class path (``"pkg.mod:MyScorer"``) with the ``options``
    its constructor accepts; its :meth:`~Scorer.signature` also records the class's import path,
    version and source hash (as :func:`resolve_measures` does), so it is signed like a built-in
    measure wherever it is used (``sumeval score --measure-class``)."""
    from sumeval.metrics import _accepted

    cls = load_scorer_class(path, module_path)
    scorer = _build(cls, cls, _accepted(cls, dict(options or {})), path)
    identity = _class_identity(cls, path)
    base = scorer.signature
    scorer.signature = lambda: _user_signature(base(), identity)  # type: ignore[method-assign]
    return scorer
