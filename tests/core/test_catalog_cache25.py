"""What a plan keeps between reads (#27): the GPU catalog as last read (``advisor.catalog._loaded``), a rule's
validated sources (``advisor.plan.data.rule_sources``) and the engine settings a candidate's limits start from
(``advisor.plan.sizing._engine``). Each is kept only while what it was made from is the same (the built-in table's
very tuple and the user's file to the byte; the very rows of the facts table; the very profile and GPU objects and the
step budget), so a changed file, a replaced table, an edited GPU row or another profile is never answered from it."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from advisor import catalog
from advisor.domain.engine_profiles import get_profile, resolve_engine
from advisor.domain.sizing import EngineSettings
from advisor.plan import data, sizing

GiB = 1024**3


def _user_file() -> Path:
    return catalog.data_dir_path() / "user_gpus.json"


def _row(gpu_id: str, name: str) -> dict:
    return {**catalog.get_gpu("l40s").model_dump(mode="json"), "id": gpu_id, "name": name, "user_defined": False}


def _write(rows: list[dict]) -> None:
    path = _user_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(rows), encoding="utf-8")  # in place, as an editor would: same inode


def test_reading_the_catalog_makes_no_folder() -> None:
    catalog.load_gpus()
    assert not catalog.data_dir_path().exists()


def test_a_user_file_written_changed_or_removed_is_read_again() -> None:
    before = catalog.load_gpus()
    assert catalog.load_gpus() == before and "mine-a" not in data.gpus_by_id()
    _write([_row("mine-a", "Mine A")])
    assert catalog.get_gpu("mine-a").name == "Mine A" and "mine-a" in data.gpus_by_id()
    # the same length, the same inode, written within the same clock tick: only the bytes tell them apart
    _write([_row("mine-b", "Mine B")])
    assert "mine-a" not in data.gpus_by_id() and catalog.get_gpu("mine-b").user_defined
    with pytest.raises(catalog.CatalogError):
        catalog.get_gpu("mine-a")
    _user_file().unlink()
    assert catalog.load_gpus() == before
    with pytest.raises(catalog.CatalogError):
        catalog.get_gpu("mine-b")


def test_a_damaged_file_fails_every_read_until_it_is_fixed() -> None:
    fixed = [_row("mine-a", "Mine A")]
    _user_file().parent.mkdir(parents=True, exist_ok=True)
    _user_file().write_text("[{broken", encoding="utf-8")
    for _ in range(2):  # never kept: each read says what is wrong
        with pytest.raises(catalog.CatalogError):
            catalog.load_gpus()
    _write(fixed)
    assert catalog.get_gpu("mine-a").name == "Mine A"


def test_a_replaced_built_in_table_is_read_and_the_old_one_comes_back(monkeypatch: pytest.MonkeyPatch) -> None:
    real = catalog.load_gpus()
    h100 = catalog.get_gpu("h100-sxm-80g")
    fake = tuple(g.model_copy(update={"name": g.name + " (patched)"}) for g in real)
    with monkeypatch.context() as m:
        m.setattr(catalog, "_builtin_gpus", lambda: fake)
        assert catalog.load_gpus() == list(fake)
        assert catalog.get_gpu("h100-sxm-80g").name == h100.name + " (patched)"
        assert data.gpus_by_id()["h100-sxm-80g"].name.endswith("(patched)")
    assert catalog.load_gpus() == real and catalog.get_gpu("h100-sxm-80g") is h100


def test_the_kept_catalog_is_what_reading_it_afresh_gives() -> None:
    _write([_row("mine-a", "Mine A"), _row("l40s", "My L40S")])  # a user row replaces the built-in one
    assert catalog.load_gpus() == catalog._merged()
    assert data.gpus_by_id() == {g.id: g for g in catalog._merged()}
    assert catalog.get_gpu("l40s").name == "My L40S"
    # each caller gets its own list and dict: changing one changes nothing another reads
    catalog.load_gpus().clear()
    data.gpus_by_id().clear()
    assert len(catalog.load_gpus()) == len(catalog._merged()) > 2


def test_an_unknown_name_is_said_in_the_language_of_the_moment() -> None:
    from advisor.i18n import set_language

    with pytest.raises(catalog.CatalogError) as en:
        catalog.get_gpu("no-such-gpu-xyz")
    set_language("zh_CN")
    with pytest.raises(catalog.CatalogError) as zh:
        catalog.get_gpu("no-such-gpu-xyz")
    assert str(en.value) != str(zh.value)


def _ctx(engine: str, max_context: int) -> Any:
    return SimpleNamespace(engine=engine, max_context=max_context)  # all that _engine reads of a Ctx


def _fresh(engine: str, max_context: int, gpu) -> EngineSettings:
    profile = get_profile(engine)
    if profile.id != "vllm":
        return resolve_engine(EngineSettings(), profile, gpu)
    return resolve_engine(EngineSettings(max_num_batched_tokens=max(8192, min(max_context, 16384))), profile, gpu)


@pytest.mark.parametrize("engine", ["vllm", "sglang"])
def test_kept_engine_settings_are_what_resolving_them_afresh_gives(engine: str) -> None:
    small, big = catalog.get_gpu("l40s"), catalog.get_gpu("h100-sxm-80g")
    for gpu in (small, big, small.model_copy(update={"memory_bytes": 80 * GiB})):  # an edited row: its own key
        for context in (4096, 12000, 32768):
            kept = sizing._engine(_ctx(engine, context), gpu)
            assert kept == _fresh(engine, context, gpu)
            assert sizing._engine(_ctx(engine, context), gpu) is kept
    # vLLM's bigger batch defaults on a GPU of 70 GiB or more: the edited L40S row is not the real one
    edited = small.model_copy(update={"memory_bytes": 80 * GiB})
    assert sizing._engine(_ctx("vllm", 8192), edited) != sizing._engine(_ctx("vllm", 8192), small)


def test_a_replaced_profile_is_never_answered_from_what_was_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    gpu = catalog.get_gpu("l40s")
    kept = sizing._engine(_ctx("vllm", 8192), gpu)
    other = get_profile("vllm").model_copy(update={"max_num_seqs": kept.max_num_seqs + 7})
    monkeypatch.setattr(sizing, "serving_profile", lambda ctx=None: other)
    assert sizing._engine(_ctx("vllm", 8192), gpu).max_num_seqs == kept.max_num_seqs + 7


def test_a_rules_sources_follow_a_patched_facts_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """``data.rule_sources`` keeps each rule's validated sources by the very rows they came from: a patched facts
    table (another list of rows) is validated afresh, and the real one read again once the patch is undone."""
    real = data.facts()
    rid = next(k for k, v in real["rules"].items() if v.get("sources") and "sources_by_variant" not in v)
    first = data.rule_sources(rid)
    assert first == [data.Source.model_validate(s) for s in real["rules"][rid]["sources"]]
    assert data.rule_sources(rid) is not first  # a fresh list each call
    patched = {**real, "rules": {**real["rules"], rid: {**real["rules"][rid],
                                                          "sources": [{"title": "Patched", "grade": "A"}]}}}
    with monkeypatch.context() as m:
        m.setattr(data, "facts", lambda: patched)
        assert [s.title for s in data.rule_sources(rid)] == ["Patched"]
    assert data.rule_sources(rid) == first
