"""Secrets and server text on their way out: the one place they are masked, escaped or refused.

Every URL, header value and piece of server-chosen text that is stored, printed or exported passes through
:func:`redact` first (the store, the CLI's printing, the exports call it). Three things are handled here:

- **API keys.** :func:`check_api_key` refuses a key that would break or inject an HTTP header (CR, LF, any
  control character, non-ASCII) before any request is sent, and remembers a good key for the life of the
  process, so that a server (or proxy) that echoes the key back in an error message never gets it written
  down: :func:`redact` replaces every remembered key with ``***``.
- **Credentials in a URL** (``http://user:SECRET@host/v1``). The benchmark refuses such a URL up front
  (:func:`url_credentials_problem`: an API key goes in an environment variable or the keyring, never in a
  URL that lands in the history); :func:`redact` still masks any ``user:password@`` it meets, for URLs that
  came from elsewhere (an older database, a server's own error text).
- **Server text.** :func:`terminal_text` is the one door to the terminal (control and escape sequences are
  shown as ``\\x1b``-style escapes, so a server cannot clear the screen, fake lines, set the window title or
  write the clipboard); :func:`csv_cell` is the one door to a CSV cell (a leading ``= + - @`` tab or CR is
  neutralised with a leading apostrophe, as OWASP advises against formula injection).
"""

from __future__ import annotations

import re
import threading
from typing import Any

MASK = "***"
_MIN_SECRET = 4  # a "key" shorter than this would mask ordinary words: it is still refused from output below

_secrets: set[str] = set()
_lock = threading.Lock()

# scheme://user[:password]@ — the userinfo of a URL (RFC 3986), anywhere in a text
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://)([^/\s@?#]*)@")
# C0 controls except tab/newline, DEL, and C1 controls (U+0080-U+009F: CSI/OSC in 8-bit form)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_CONTROL_ALL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"^[+-]?\d+(\.\d+)?([eE][+-]?\d+)?$")  # "-1.5" is data, "-1+cmd" is not


class SecretError(ValueError):
    """A secret that cannot be used safely (an API key that would inject a header, a URL with a password)."""


def check_api_key(key: str | None) -> str | None:
    """The key, checked and remembered for :func:`redact`; raises :class:`SecretError` for a key that cannot
    go in an HTTP header unchanged. None and "" mean no key."""
    if not key:
        return None
    from advisor.i18n import tr

    if _CONTROL_ALL.search(key):
        raise SecretError(tr("redact.key_control"))
    try:
        key.encode("ascii")
    except UnicodeEncodeError:
        raise SecretError(tr("redact.key_non_ascii")) from None
    if key != key.strip():
        raise SecretError(tr("redact.key_spaces"))
    remember_secret(key)
    return key


def remember_secret(secret: str | None) -> None:
    """Mask ``secret`` in everything :func:`redact` sees from now on (this process)."""
    if secret and len(secret) >= _MIN_SECRET:
        import json

        with _lock:
            _secrets.add(secret)
            _secrets.add(json.dumps(secret, ensure_ascii=False)[1:-1])  # as it appears inside stored JSON


def url_credentials_problem(url: str | None) -> str | None:
    """A message when ``url`` carries ``user[:password]@`` (never quoting the credential), else None."""
    if not url or not _USERINFO.search(url.strip()):
        return None
    from advisor.i18n import tr

    return tr("redact.url_credentials", url=redact_url(url))


def redact_url(url: str) -> str:
    """``url`` without the credential in its userinfo: ``http://user:pw@host`` → ``http://***@host``."""
    return str(redact(url))


def redact(value: Any) -> Any:
    """``value`` with every remembered secret and every URL credential masked; strings inside lists and dicts
    too (a copy; other types as they are)."""
    if isinstance(value, str):
        return _redact_str(value)
    if isinstance(value, dict):
        return {k: redact(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(redact(v) for v in value)
    return value


def _redact_str(text: str) -> str:
    if "@" in text:
        text = _USERINFO.sub(lambda m: m.group(1) + MASK + "@", text)
    with _lock:
        secrets = sorted(_secrets, key=len, reverse=True)
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, MASK)
    return text


def _escape(match: re.Match[str]) -> str:
    return f"\\x{ord(match.group()):02x}"


def terminal_text(value: Any, *, one_line: bool = False) -> str:
    """Server-chosen text made safe for a terminal: redacted, control and escape characters shown as ``\\xNN``
    (newlines kept unless ``one_line``)."""
    text = redact(str(value))
    return (_CONTROL_ALL if one_line else _CONTROL).sub(_escape, text)


def csv_cell(value: Any) -> Any:
    """A CSV cell that a spreadsheet shows as text: redacted, and a leading ``= + - @`` tab or CR prefixed with
    ``'`` (OWASP). Numbers pass unchanged (a negative number is data, not a formula)."""
    if value is None or isinstance(value, (int, float)):
        return value
    text = redact(str(value))
    if text.startswith(_FORMULA_START) and not _NUMBER.match(text):
        return "'" + text
    return text
