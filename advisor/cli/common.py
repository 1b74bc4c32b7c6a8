"""Helpers shared by the command modules: JSON output, user-facing errors and strict argument types.

The argument types (``type=positive_int`` …) refuse what ``int``/``float`` would quietly take or what would make
a command hang: ``nan``, ``inf``, ``1e999``, ``0`` where nothing can happen, fractions above 1, integers of
thousands of digits. Their messages say what is expected, with an example, in words a newcomer understands.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from typing import Any

from pydantic import BaseModel

from advisor.validation import validation_message  # noqa: F401 - the CLI commands import it from here

INT_ARG_LIMIT = 10**15
"""Largest whole number any option takes (far above any real count of tokens, requests or bytes)."""


def _tr(key: str, **kwargs: object) -> str:
    from advisor.i18n import tr

    return tr(key, **kwargs)


def _show(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _parse_int(text: str) -> int:
    raw = text.strip()
    try:
        value = int(raw) if len(raw) <= 30 else None
    except ValueError:
        value = None
    if value is None:
        try:
            as_float = float(raw) if len(raw) <= 30 else math.nan
        except ValueError:
            as_float = math.nan
        if math.isfinite(as_float) and not as_float.is_integer():
            raise argparse.ArgumentTypeError(_tr("inputs.arg.fraction_not_int", value=_show(text)))
        raise argparse.ArgumentTypeError(_tr("inputs.arg.not_int", value=_show(text)))
    if abs(value) > INT_ARG_LIMIT:
        raise argparse.ArgumentTypeError(_tr("inputs.arg.too_big", value=_show(text), limit=f"{INT_ARG_LIMIT:.0e}"))
    return value


def _parse_float(text: str) -> float:
    raw = text.strip()
    try:
        value = float(raw) if len(raw) <= 40 else math.nan
    except ValueError:
        raise argparse.ArgumentTypeError(_tr("inputs.arg.not_number", value=_show(text))) from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(_tr("inputs.arg.not_finite", value=_show(text)))
    return value


def integer(text: str) -> int:
    """Any whole number (seeds)."""
    return _parse_int(text)


def positive_int(text: str) -> int:
    """A whole number ≥ 1 (counts, lengths, GPUs)."""
    value = _parse_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(_tr("inputs.arg.not_positive_int", value=_show(text)))
    return value


def nonneg_int(text: str) -> int:
    """A whole number ≥ 0 (ports where 0 means "pick one", optional counts)."""
    value = _parse_int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(_tr("inputs.arg.negative", value=_show(text)))
    return value


def finite_float(text: str) -> float:
    """Any finite number (no nan, inf)."""
    return _parse_float(text)


def nonneg_float(text: str) -> float:
    """A finite number ≥ 0 (spreads, rates where 0 is meaningful)."""
    value = _parse_float(text)
    if value < 0:
        raise argparse.ArgumentTypeError(_tr("inputs.arg.negative", value=_show(text)))
    return value


def positive_float(text: str) -> float:
    """A finite number > 0 (rates, time scales, intervals)."""
    value = _parse_float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(_tr("inputs.arg.not_positive", value=_show(text)))
    return value


def engine_version(text: str) -> str:
    """An engine release such as 0.11.0 or 0.5.5.post1 (what `vllm --version` prints)."""
    from advisor.versions import release_number

    if not release_number(text):
        raise argparse.ArgumentTypeError(_tr("inputs.arg.not_version", value=_show(text)))
    return text.strip()


def fraction(text: str) -> float:
    """A share in (0, 1] (memory utilisation, efficiency factors): 0.9, not 90."""
    value = _parse_float(text)
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(_tr("inputs.arg.not_fraction", value=_show(text)))
    return value


def number_list(text: str, kind: type, name: str, *, most: int = 64, high: float | None = None) -> list:
    """Comma-separated positive finite numbers ("1,2,4,8"), each at most ``high``; UserError naming the option
    otherwise."""
    parse = positive_int if kind is int else positive_float
    values = []
    for part in text.split(","):
        if not part.strip():
            continue
        try:
            values.append(parse(part))
        except argparse.ArgumentTypeError as exc:
            raise UserError(f"{name}: {exc}") from None
    if not values:
        raise UserError(_tr("inputs.arg.empty_list", name=name))
    if len(values) > most:
        raise UserError(_tr("inputs.arg.long_list", name=name, most=most))
    if high is not None and max(values) > high:
        raise UserError(_tr("inputs.arg.level_too_high", name=name, value=f"{max(values):g}", high=f"{high:g}"))
    return values


class UserError(Exception):
    """An error caused by the user's input: printed as one clear line, exit code 2, no traceback."""


def _default(obj: Any) -> Any:
    if isinstance(obj, BaseModel):
        return obj.model_dump(mode="json")
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


def print_json(data: Any) -> None:
    if isinstance(data, BaseModel):
        data = data.model_dump(mode="json")
    try:
        json.dump(data, sys.stdout, ensure_ascii=False, indent=2, default=_default)
        sys.stdout.write("\n")
        sys.stdout.flush()
    except BrokenPipeError:  # `advisor … --json | head`: the reader left; stop quietly, as cat does
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        raise SystemExit(141) from None


def network_settings(ca_bundle: str | None, urls: list[str], *, client_cert: str | None = None,
                     client_key: str | None = None) -> None:
    """--ca-bundle (or ADVISOR_CA_BUNDLE) and --client-cert/--client-key (or ADVISOR_CLIENT_CERT/_KEY), checked
    before anything is sent, then used by every connection of the command (advisor/tls.py); a proxy the
    environment names is said to be unused (advisor/proxies.py)."""
    from advisor.proxies import ignored_proxy
    from advisor.redact import terminal_text
    from advisor.tls import ENV, TlsFileError, use_ca_bundle, use_client_cert, use_client_cert_from_env

    try:
        use_ca_bundle(ca_bundle or os.environ.get(ENV))
        if client_cert or client_key:  # the options name both files: the environment's key is not mixed in
            use_client_cert(client_cert, client_key)
        else:
            use_client_cert_from_env()
    except TlsFileError as exc:
        raise UserError(str(exc)) from None
    for url in dict.fromkeys(urls):
        proxy = ignored_proxy(url)
        if proxy:
            print(terminal_text(_tr("bench.cli.proxy_ignored", proxy=proxy, url=url)), file=sys.stderr)


def check_out_target(path: str | None) -> None:
    """Refuse an ``--out`` the writer would refuse (a folder, a link, a read-only file, a missing folder), before
    anything runs."""
    from advisor.atomic import check_target

    if not path:
        return
    try:
        check_target(path)
    except OSError as exc:
        raise UserError(f"--out: {exc.strerror or exc}") from None


def fail(message: str, code: int = 2) -> int:
    from advisor.redact import terminal_text

    print(f"advisor: error: {terminal_text(message)}", file=sys.stderr)  # may quote a server or a file
    return code
