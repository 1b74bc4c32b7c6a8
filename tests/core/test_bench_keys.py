"""One API-key store for the app and the CLI: the OS keyring when it works, else this session's memory."""

import keyring
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import fail

from advisor.bench.keys import KEYRING_SERVICE, KeyStore, keyring_key


class _MemoryKeyring(KeyringBackend):
    priority = 1

    def __init__(self):
        super().__init__()
        self.saved = {}

    def get_password(self, service, username):
        return self.saved.get((service, username))

    def set_password(self, service, username, password):
        self.saved[(service, username)] = password

    def delete_password(self, service, username):
        self.saved.pop((service, username), None)


@pytest.fixture
def backend():
    before = keyring.get_keyring()
    yield
    keyring.set_keyring(before)


def test_a_key_the_app_saves_is_the_one_the_command_line_reads(backend):
    os_keyring = _MemoryKeyring()
    keyring.set_keyring(os_keyring)
    store = KeyStore()
    assert store.put("http://gpu-box:8000/v1", "sk-1") is True and store.backend_ok is True
    assert os_keyring.saved == {(KEYRING_SERVICE, "http://gpu-box:8000/v1"): "sk-1"}
    assert store.memory == {}  # kept by the OS, not by us
    assert keyring_key("http://gpu-box:8000/v1") == "sk-1" == store.get("http://gpu-box:8000/v1")


def test_without_a_keyring_the_key_lives_in_memory_only_and_says_so(backend):
    keyring.set_keyring(fail.Keyring())
    store = KeyStore()
    assert store.put("http://gpu-box:8000/v1", "sk-2") is False and store.backend_ok is False
    assert store.get("http://gpu-box:8000/v1") == "sk-2"
    assert keyring_key("http://gpu-box:8000/v1") is None  # a fresh process (the CLI) does not see it
