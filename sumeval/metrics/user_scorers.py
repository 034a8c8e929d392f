"""A user's scorer classes for the measures of a meta-evaluation: imported by path
(``mypkg.mymod:MyScorer``, ``--measure-class``, ``--module-path DIR``) or by the name of an entry
point of the group ``sumeval.measures``; built with the options they accept and signed with their
import path, version and source hash (so an edited or upgraded class is never served cached scores).
"""
from __future__ import annotations

import contextlib
import importlib
import inspect
import os
import re
import sys
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence, TypeVar

from sumeval.errors import InputError
from sumeval.hashing import sha256_file
from sumeval.metrics.base import Scorer
from sumeval.metrics.registry import accepted_options, get_scorers

__all__ = ["ENTRY_POINT_GROUP", "load_scorer_class", "entry_point_measures", "build_scorer_class", "build_scorers",
           "UserCodeError", "is_user_class", "call_user", "check_columns", "CLASS_RE", "construct_scorer",
           "class_identity", "load_entry_point", "user_signature"]

ENTRY_POINT_GROUP = "sumeval.measures"
_DOTTED = r"[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*"  # a dotted Python name
CLASS_RE = re.compile(rf"^(?P<module>{_DOTTED}):(?P<attr>{_DOTTED})\Z")  # \Z: "$" allows a trailing newline
_T = TypeVar("_T")


# --------------------------------------------------------------------------------------------
# Errors raised inside a user's class
# --------------------------------------------------------------------------------------------
class UserCodeError(InputError):
    """A user's Scorer class raised: the message names the measure, the class, the method, the
    exception and the line of the user's code that raised it, and says what to do; the original
    exception is its ``__cause__`` (for a debugger or ``traceback.print_exception``)."""


def is_user_class(cls: type) -> bool:
    """True for a class that is not sumeval's own (its module is outside the ``sumeval`` package):
    an exception it raises is the user's code failing, one from sumeval's own scorers a bug."""
    module = getattr(cls, "__module__", None) or ""
    return module != "sumeval" and not module.startswith("sumeval.")


def class_label(cls: type) -> str:
    """``"badscorers.RaisesInScore"``: module and qualified name of ``cls``."""
    return f"{cls.__module__}.{getattr(cls, '__qualname__', cls.__name__)}"


def _raised_at(exc: BaseException, cls: type, *, only_mine: bool = False) -> str:
    """``"/path/badscorers.py:60, in score_batch"``: the innermost frame of the traceback in the
    source file of ``cls`` (the user's line), else the innermost frame (else "" when
    ``only_mine``); "" without a traceback."""
    import traceback

    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return ""
    source = None
    with contextlib.suppress(TypeError, OSError):
        source = inspect.getsourcefile(cls)
    mine = [f for f in frames if source and os.path.abspath(f.filename) == os.path.abspath(source)]
    if only_mine and not mine:
        return ""
    frame = (mine or frames)[-1]
    return f"{frame.filename}:{frame.lineno}, in {frame.name}"


def _entry_method(exc: BaseException, cls: type, method: str) -> str:
    """The user's method that sumeval's ``method`` called and that raised (``signature`` calls the
    user's ``options``): the outermost frame in ``cls``'s source file, when ``method`` itself is not
    the user's code; else ``method``."""
    import traceback

    try:
        source = os.path.abspath(inspect.getsourcefile(cls) or "")
    except (TypeError, OSError):
        return method
    names = [f.name for f in traceback.extract_tb(exc.__traceback__) if os.path.abspath(f.filename) == source]
    if not names or method in names or not callable(getattr(cls, names[0], None)):
        return method
    return names[0]


def _exception_text(exc: BaseException, width: int = 400) -> str:
    """``"ZeroDivisionError: oops"``, its lines joined and cut to ``width`` characters."""
    text = " ".join(line.strip() for line in str(exc).splitlines() if line.strip())
    text = text if len(text) <= width else text[: width - 3] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def user_code_error(cls: type, measure: str, method: str, exc: BaseException, during: str = "",
                    fix: str = "") -> UserCodeError:
    """The :class:`UserCodeError` for ``exc`` raised by ``cls.method`` of measure ``measure``."""
    at = _raised_at(exc, cls)
    where = "; ".join(p for p in (f"at {at}" if at else "", during) if p)
    culprit = _entry_method(exc, cls, method)
    fix = fix or (f"fix {cls.__name__}.{culprit} (the full traceback: call it on these inputs in "
                  "Python), or leave the measure out")
    called = method if culprit == method else f"{culprit} (called by {method})"
    return UserCodeError(f"measure {measure!r} ({class_label(cls)}): {called} raised "
                         f"{_exception_text(exc)}" + (f" ({where})" if where else "") + f"; {fix}")


def call_user(owner: Any, method: str, fn: Callable[..., _T], *args: Any, measure: str | None = None,
              during: str = "", fix: str = "", **kwargs: Any) -> _T:
    """``fn(*args, **kwargs)``, where ``fn`` is method ``method`` of ``owner`` (a scorer or its
    class). When ``owner`` is a user's class (:func:`is_user_class`) any exception it raises
    becomes a :class:`UserCodeError` naming the measure, the class, the method, the exception, the
    user's line and ``during`` (e.g. the rows being scored). sumeval's own scorers are called as
    they are: an exception from them is a bug in sumeval and keeps its traceback."""
    cls = owner if inspect.isclass(owner) else type(owner)
    if not is_user_class(cls):
        return fn(*args, **kwargs)
    try:
        return fn(*args, **kwargs)
    except UserCodeError:
        raise
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - any failure of the user's code (sys.exit too)
        name = measure or getattr(owner, "name", "") or cls.__name__
        raise user_code_error(cls, name, method, exc, during, fix) from exc


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
    m = CLASS_RE.match(path.strip())
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


def load_entry_point(ep: Any) -> type[Scorer]:
    """The scorer class of the installed entry point ``ep`` (group :data:`ENTRY_POINT_GROUP`); InputError naming
    the entry point and its package when it cannot be loaded or is not a scorer class."""
    dist = getattr(getattr(ep, "dist", None), "name", None) or "an installed package"
    try:
        obj = ep.load()
    except Exception as exc:
        raise InputError(f"measure {ep.name!r} (entry point {ep.value!r} of {dist}, group "
                         f"{ENTRY_POINT_GROUP}) could not be loaded ({type(exc).__name__}: {exc})") from exc
    _check_scorer_class(obj, f"{ep.name} = {ep.value}")
    return obj


def class_identity(cls: type, path: str) -> dict[str, str]:
    """Import path, version and source hash of a user's scorer class (for its signature)."""
    version = getattr(cls, "version", None)
    if not version:
        from importlib.metadata import PackageNotFoundError, packages_distributions
        from importlib.metadata import version as dist_version

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


def construct_scorer(factory, cls: type, options: Mapping[str, Any], where: str) -> Scorer:
    """``factory(**options)``, a constructor's complaint turned into an InputError naming ``where``
    (any exception of a user's class: a :class:`UserCodeError` naming its line)."""
    call = f"{cls.__name__}({', '.join(f'{k}={v!r}' for k, v in options.items())})"
    try:
        scorer = factory(**options)
    except InputError:
        raise
    except TypeError as exc:
        at = _raised_at(exc, cls, only_mine=True) if is_user_class(cls) else ""
        raise InputError(f"measure {where!r}: could not build {call} ({exc})"
                         + (f" (raised at {at})" if at else "")) from exc
    except Exception as exc:
        if not is_user_class(cls):
            raise
        name = getattr(cls, "name", "") or cls.__name__
        raise user_code_error(cls, name, "__init__", exc, f"building {call} for {where!r}",
                              f"fix {cls.__name__}.__init__ (or the options given to it), or leave the "
                              "measure out") from exc
    if not scorer.name:
        scorer.name = cls.__name__
    return scorer


def user_signature(signature: str, identity: Mapping[str, str]) -> str:
    """A user class's signature: its scorer's, then its import path, version and source hash."""
    return signature + "".join(f"|{k}={v}" for k, v in identity.items())



def build_scorer_class(path: str, *, options: Mapping[str, Any] | None = None,
                       module_path: Sequence[str | Path] = ()) -> Scorer:
    """A user's scorer, built from its class path (``"pkg.mod:MyScorer"``) with the ``options``
    its constructor accepts; its :meth:`~Scorer.signature` also records the class's import path,
    version and source hash (as :func:`resolve_measures` does), so it is signed like a built-in
    measure wherever it is used (``sumeval score --measure-class``)."""
    cls = load_scorer_class(path, module_path)
    scorer = construct_scorer(cls, cls, accepted_options(cls, dict(options or {})), path)
    check_columns(scorer, path)
    identity = class_identity(cls, path)
    call_user(scorer, "signature", scorer.signature)  # options() / versions() raising: said now
    base = scorer.signature
    scorer.signature = lambda: user_signature(base(), identity)  # type: ignore[method-assign]
    return scorer


def check_columns(scorer: Scorer, where: str) -> list[str]:
    """``scorer.columns()``, checked: a non-empty list of names (else InputError naming ``where``;
    an exception it raises: :class:`UserCodeError`)."""
    cls = type(scorer)
    cols = call_user(scorer, "columns", scorer.columns)
    if not isinstance(cols, (list, tuple)) or not cols or not all(isinstance(c, str) for c in cols):
        raise InputError(f"measure {where!r}: {cls.__name__}.columns() returned {cols!r}; it must "
                         "return a non-empty list of column names")
    return list(cols)


def build_scorers(names: Sequence[str], classes: Sequence[str], module_path: Sequence[str],
                  options: dict[str, Any]) -> list:
    """The measures a command names: registered measures by name, then users' Scorer classes
    (``module:Class``, ``--measure-class``), each given the options its constructor accepts; an
    option no measure accepts is an InputError (``sumeval score``, and each worker of a sharded run)."""
    built = [build_scorer_class(p, options=options, module_path=module_path) for p in classes]
    taken = {k for p in classes for k in accepted_options(load_scorer_class(p, module_path), options)}
    if not names:
        unused = sorted(set(options) - taken)
        if unused:
            raise InputError(f"option(s) {', '.join(unused)} are not used by any of the measures {', '.join(classes)}")
        return built
    return get_scorers(list(names), used_elsewhere=taken, **options) + built
