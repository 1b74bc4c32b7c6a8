"""Every key exists in every locale with the same placeholders, and every literal key used in code exists."""

import ast
import re
import string
from pathlib import Path

import pytest

from advisor import i18n

ROOT = Path(__file__).resolve().parents[2]


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_locales_have_the_same_keys_and_placeholders():
    en = i18n.catalog("en")
    zh = i18n.catalog("zh_CN")
    assert set(en) - set(zh) == set(), "keys missing in zh_CN"
    assert set(zh) - set(en) == set(), "keys missing in en"
    for key in en:
        assert _placeholders(en[key]) == _placeholders(zh[key]), key
        assert zh[key].strip(), f"empty zh_CN text for {key}"


def _literal_keys_in_code() -> set[tuple[str, str]]:
    found = set()
    for folder in ("advisor", "ui"):
        for path in (ROOT / folder).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name == "tr" and node.args:
                    arg = node.args[0]
                elif name == "translate" and len(node.args) >= 2:
                    arg = node.args[1]
                else:
                    continue
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.add((arg.value, f"{path.relative_to(ROOT)}:{node.lineno}"))
    # Jinja templates call t("key") (the memo): a key missing there would print as its name in the memo
    for path in (ROOT / "resources" / "templates").rglob("*.j2"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for key in re.findall(r"""\bt\(\s*["']([a-z][\w.]*)["']""", line):
                found.add((key, f"{path.relative_to(ROOT)}:{number}"))
    return found


def test_every_key_used_in_code_exists():
    en = i18n.catalog("en")
    missing = sorted(where + " " + key for key, where in _literal_keys_in_code() if key not in en)
    assert missing == []


def test_translate_formats_and_falls_back():
    assert i18n.translate("zh_CN", "app.name") == "推理部署顾问"
    assert i18n.translate("en", "app.name") == "Inference Advisor"
    assert i18n.translate("en", "no.such.key") == "no.such.key"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("zh_CN.UTF-8", "zh_CN"), ("zh-Hans", "zh_CN"), ("zh_TW", "zh_CN"), ("en_US.UTF-8", "en"), (None, "en"), ("de_DE", "en")],
)
def test_normalize_language(raw, expected):
    assert i18n.normalize_language(raw) == expected


def test_system_language_follows_environment(monkeypatch):
    monkeypatch.setenv("LANGUAGE", "")
    monkeypatch.setenv("LC_ALL", "")
    monkeypatch.setenv("LC_MESSAGES", "")
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert i18n.system_language() == "zh_CN"
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    assert i18n.system_language() == "en"


def test_key_names_are_dotted_identifiers():
    for key in i18n.catalog("en"):
        assert re.fullmatch(r"[a-z0-9_]+(\.[a-z0-9_]+)+", key), key


def test_plural_choice_follows_the_count():
    translate = i18n.translate
    # {n:one|other} picks by the count, whether it arrives as a number or already formatted ("1", "1,024")
    assert translate("en", "sizing.advice.lower_concurrency", n=1, context="8k") == "Serve at most 1 concurrent request at 8k context."
    assert translate("en", "sizing.advice.lower_concurrency", n="1,024", context="8k").startswith("Serve at most 1,024 concurrent requests")
    assert translate("en", "calc.decode_only", n=1) == "decode only: the one request decoding, no prompt being read"
    assert translate("en", "calc.decode_only", n=8) == "decode only: all 8 decoding, no prompt being read"
    assert "1 user sends their next request" in translate("en", "calc.assumptions", prompt=1, output=1, context=2, n=1)
    # zh_CN has no plural forms: the same placeholder, the number only
    assert translate("zh_CN", "sizing.advice.lower_concurrency", n=1, context="8k").count("1") == 1


def test_no_english_text_counts_one_in_the_plural():
    # every count placeholder that can be 1 and precedes a plural noun goes through the plural choice
    en = i18n.catalog("en")
    plural_after_count = re.compile(r"\{(n|c|ok|concurrency|per_replica|peak)\} (concurrent )?(requests|users)\b")
    offenders = [key for key, text in en.items() if plural_after_count.search(text)]
    assert not offenders, offenders
