"""API keys for benchmark targets: the OS keyring when it works, else one session's memory. Never a file.

One store for the CLI (``advisor bench --keyring``) and the Benchmark page: a key is filed under the service name
below with the server's URL as the user name, so a key the app saved is the one the command line reads.
"""

from __future__ import annotations

from typing import Any

KEYRING_SERVICE = "inference-advisor"


def _keyring() -> Any:
    """The keyring module when a real backend is there (a headless server often has none), else None."""
    try:
        import keyring
        from keyring.backends import fail

        if isinstance(keyring.get_keyring(), fail.Keyring):
            return None
        return keyring
    except Exception:  # noqa: BLE001 - any backend failure means "no keyring", never a crash
        return None


def keyring_key(url: str) -> str | None:
    """The key the OS keyring holds for ``url`` (None: none stored, or no keyring backend)."""
    kr = _keyring()
    if kr is None:
        return None
    try:
        return kr.get_password(KEYRING_SERVICE, url)
    except Exception:  # noqa: BLE001
        return None


class KeyStore:
    """API keys per URL: the OS keyring when it works, else this session's memory only (``backend_ok`` False, and
    the caller says so)."""

    def __init__(self) -> None:
        self.memory: dict[str, str] = {}
        self.backend_ok: bool | None = None

    def get(self, url: str) -> str | None:
        if url in self.memory:
            return self.memory[url]
        return keyring_key(url)

    def put(self, url: str, key: str) -> bool:
        """True when stored in the OS keyring; False when only kept in memory for this session."""
        kr = _keyring()
        if kr is not None:
            try:
                kr.set_password(KEYRING_SERVICE, url, key)
                self.memory.pop(url, None)
                self.backend_ok = True
                return True
            except Exception:  # noqa: BLE001
                pass
        self.memory[url] = key
        self.backend_ok = False
        return False


def auth_headers(api_key: str | None) -> dict[str, str]:
    """The bearer header for ``api_key``, after the one key check (:func:`advisor.redact.check_api_key`): a key
    with CR/LF or another control character, or non-ASCII, raises ``SecretError`` with a message a newcomer
    understands, before any request. Every side request (probe, model list, tokenizer, sample answer) uses it."""
    from advisor.redact import check_api_key

    key = check_api_key(api_key)
    return {"Authorization": f"Bearer {key}"} if key else {}
