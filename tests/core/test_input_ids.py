"""GPU and model ids: exact, alias or an unambiguous prefix; anything else is refused with suggestions."""

from __future__ import annotations

import pytest

from advisor.catalog import CatalogError, edit_distance, get_gpu, get_model, match_id


@pytest.mark.parametrize(
    ("text", "gpu"),
    [
        ("rtx-4090", "rtx-4090"),
        ("RTX-4090", "rtx-4090"),
        ("4090", "rtx-4090"),  # whole segment beats the "4090" inside "4090d"
        ("4090d", "rtx-4090d"),
        ("H100 SXM", "h100-sxm-80g"),
        ("h20", "h20-96g"),  # not h200
        ("l4", "l4"),
        ("l40", "l40"),
        ("NVIDIA GeForce RTX 4090 24GB", "rtx-4090"),  # full name
        ("mi300", "mi300x"),
    ],
)
def test_exact_alias_and_unambiguous_prefix(text, gpu):
    assert get_gpu(text).id == gpu


@pytest.mark.parametrize("text", ["1", "x", "s", "-", "", "  ", "_"])
def test_short_or_empty_ids_never_resolve(text):
    """Issue #13 item 7: these used to resolve to an H100 by substring."""
    with pytest.raises(CatalogError) as err:
        get_gpu(text)
    assert "advisor gpus" in str(err.value)


def test_ambiguous_prefix_lists_the_candidates():
    with pytest.raises(CatalogError, match="several GPUs") as err:
        get_gpu("h100")
    for gpu in ("h100-sxm-80g", "h100-pcie-80g", "h100-nvl-94g"):
        assert gpu in str(err.value)


def test_typo_gets_did_you_mean():
    with pytest.raises(CatalogError, match=r"Did you mean: rtx-4090\b"):
        get_gpu("rtx4090")
    with pytest.raises(CatalogError, match="Did you mean: deepseek-v3"):
        get_model("deepsek-v3")
    with pytest.raises(CatalogError, match="llama-3"):
        get_model("llama3")


def test_models_by_id_repo_and_prefix():
    assert get_model("qwen2.5-7b-instruct").id == "qwen2.5-7b-instruct"
    assert get_model("Qwen/Qwen2.5-7B-Instruct").id == "qwen2.5-7b-instruct"
    assert get_model("qwen3-8").id == "qwen3-8b"
    with pytest.raises(CatalogError, match="several models"):
        get_model("qwen2.5-7b")  # the instruct model or its AWQ build
    with pytest.raises(CatalogError, match="unknown model preset"):
        get_model("x")


def test_messages_follow_the_language():
    from advisor import i18n

    i18n.set_language("zh_CN")
    with pytest.raises(CatalogError, match="你是不是想用"):
        get_gpu("rtx4090")


def test_match_id_and_edit_distance():
    entries = [("alpha-1", []), ("alpha-2", ["first-two"]), ("beta", [])]
    assert match_id("beta", entries, "gpu") == "beta"
    assert match_id("first", entries, "gpu") == "alpha-2"
    with pytest.raises(CatalogError, match="alpha-1, alpha-2"):
        match_id("alpha", entries, "gpu")
    assert match_id("beta", [("alpha", ["beta"]), ("beta", [])], "gpu") == "beta"  # an id beats an alias
    assert edit_distance("kitten", "sitting") == 3
    assert edit_distance("", "abc") == 3
    assert edit_distance("same", "same") == 0
