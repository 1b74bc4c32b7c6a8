"""The wizard card shows the plan's Markdown links and code spans as a link and code, never raw brackets, and lets no
other markup through (the texts are escaped first)."""

from __future__ import annotations

from ui.widgets.inline_markup import inline_html


def test_a_model_card_link_and_a_flag_become_a_link_and_code():
    said = "thinks by default ([Qwen's model card](https://huggingface.co/Qwen/Qwen3-30B-A3B)): `enable_thinking=False`"
    got = inline_html(said)
    assert '<a href="https://huggingface.co/Qwen/Qwen3-30B-A3B">Qwen&#x27;s model card</a>' in got
    assert "<code>enable_thinking=False</code>" in got
    assert "](" not in got and "`" not in got


def test_other_markup_stays_escaped_and_only_web_links_become_links():
    got = inline_html('<b>x</b> [run](javascript:alert(1)) a & b')
    assert "<b>" not in got and "&lt;b&gt;" in got and "&amp;" in got
    assert "<a " not in got  # a non-http target is left as text
