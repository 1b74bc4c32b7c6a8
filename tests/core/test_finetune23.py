"""q41 (round 12, both blind reviewers: must-not "a placeholder model name in commands"): a fine-tune whose
checkpoint the answers do not give is served from a shell variable that stops the command until it is set, never
from an angle-bracket placeholder, and a step before the serve step says to set it. The commands the memo prints (both
languages) and those ``advisor plan --json`` gives are checked, and the variable's expansion is run by a real shell."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_answers, planned

Q41 = "q41_finetune_internal_callcentre"
LANGS = ("en", "zh_CN")


def _code_blocks(memo: str) -> list[str]:
    return re.findall(r"^```[^\n]*\n(.*?)^```", memo, flags=re.M | re.S)


def _commands(result) -> list[str]:
    return [c for c in (result.hardware.command, *(s.command for s in result.next_steps)) if c]


@pytest.mark.parametrize("lang", LANGS)
def test_q41_memo_prints_no_placeholder_in_any_command_and_sets_the_variable_in_a_step_first(lang):
    r = planned(advice_answers(Q41))
    memo = render_memo_markdown(r, lang)
    blocks = _code_blocks(memo)
    assert any("vllm serve " in b for b in blocks)
    for block in blocks:
        assert "<" not in block and "YOUR_FINE_TUNED_MODEL" not in block, block
    serve_block = next(b for b in blocks if "vllm serve " in b)
    assert '"${FINETUNE_DIR:?' in serve_block and "Qwen/" not in serve_block
    # the step that sets it comes before the serve step, on page 1 (the first three steps)
    step = next(s for s in r.next_steps if s.id == "finetune_checkpoint")
    ids = [s.id for s in r.next_steps]
    assert ids.index("finetune_checkpoint") < ids.index("serve") < 3
    text = step.text_in(lang)
    assert "FINETUNE_DIR" in text and text in memo
    assert memo.index(text) < memo.index(serve_block)


@pytest.mark.parametrize("lang", LANGS)
def test_q41_plan_json_commands_hold_no_placeholder(lang):
    data = planned(advice_answers(Q41)).to_json(lang)  # what ``advisor plan --json`` prints
    commands = [data["hardware"]["command"], *(s["command"] for s in data["next_steps"] if s["command"])]
    assert len(commands) > 2 and all("<" not in c and "YOUR_FINE_TUNED_MODEL" not in c for c in commands)
    step = next(s for s in data["next_steps"] if "FINETUNE_DIR" in s["text"])
    assert step["command"] is None  # what to set it to is the team's: no made-up path to copy


def test_q41_given_checkpoint_is_served_literally_with_no_variable_and_no_step():
    # a local path (s24-models24: a repository id on this mainland node is loaded from a local copy instead, round 13
    # q30, tests/core/test_models24.py)
    r = planned({**advice_answers(Q41), "checkpoint": "/data/ckpt/callcentre-7b-v3"})
    assert r.hardware.command.startswith("vllm serve /data/ckpt/callcentre-7b-v3 ")
    assert all("FINETUNE_" not in c for c in _commands(r))
    assert "finetune_checkpoint" not in {s.id for s in r.next_steps}


@pytest.mark.skipif(shutil.which("sh") is None, reason="no POSIX shell")
def test_the_variable_stops_the_command_until_set_and_then_is_the_checkpoint():
    r = planned(advice_answers(Q41))
    arg = re.search(r'"\$\{FINETUNE_DIR:\?[^}]*\}"', r.hardware.command).group(0)
    unset = subprocess.run(["sh", "-c", f"printf %s {arg}"], capture_output=True, text=True,
                           env={"PATH": "/usr/bin:/bin"})  # fmt: skip
    assert unset.returncode != 0 and "set FINETUNE_DIR to your merged fine-tune checkpoint" in unset.stderr
    given = subprocess.run(["sh", "-c", f"printf %s {arg}"], capture_output=True, text=True,
                           env={"PATH": "/usr/bin:/bin", "FINETUNE_DIR": "/data/ckpt/v3"})  # fmt: skip
    assert given.returncode == 0 and given.stdout == "/data/ckpt/v3"
