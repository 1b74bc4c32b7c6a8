"""Each scorer on fixed answers, English and Chinese (full-width forms, "答案是 B", "选B", worked answers)."""

import json

import pytest

from advisor.bench.quality.samples import ScoredSample, builtin_path, builtin_samples
from advisor.bench.quality.scorers import extract_choice, extract_number, normalise, score


def _s(scorer, **kw):
    return ScoredSample(id="t", prompt="p", scorer=scorer, **kw)


def test_normalise_full_width_punctuation_and_spaces_next_to_chinese():
    assert normalise("Ｃａｎｂｅｒｒａ。") == "canberra"
    assert normalise("  The   Pacific, Ocean! ") == "the pacific ocean"
    assert normalise("答案 是 堪培拉。") == "答案是堪培拉"
    assert normalise("ＧＰＵ 显存 80 GB") == "gpu显存80 gb"


@pytest.mark.parametrize(("answer", "ok"), [("1969", True), (" 1969\n", True), ("1969.", False), ("1970", False)])
def test_exact(answer, ok):
    assert score(answer, _s("exact", reference="1969")).value == float(ok)


@pytest.mark.parametrize(("answer", "reference", "ok"), [
    ("Canberra.", "Canberra", True), ("ＣＡＮＢＥＲＲＡ", "canberra", True), ("堪培拉。", "堪培拉", True),
    ("水 星", "水星", True), ("Sydney", "Canberra", False), ("Canberra, I think", "Canberra", False)])
def test_normalised_exact(answer, reference, ok):
    assert score(answer, _s("normalised", reference=reference)).value == float(ok)


def test_contains():
    assert score("The largest ocean is the Pacific Ocean.", _s("contains", reference="pacific")).value == 1.0
    assert score("地球上最大的大洋是太平洋。", _s("contains", reference="太平洋")).value == 1.0
    assert score("地球上最大的大洋是大西洋。", _s("contains", reference="太平洋")).value == 0.0
    assert score("anything", _s("contains", reference="")).value == 0.0  # an empty reference proves nothing


def test_regex():
    sample = _s("regex", pattern=r"^2026-03-04$")
    assert score("2026-03-04", sample).value == 1.0
    assert score("2026-04-03", sample).value == 0.0
    assert score("２０２６-０３-０４", sample).value == 1.0  # full-width digits typed by a Chinese IME


@pytest.mark.parametrize(("answer", "number"), [
    ("391", 391), ("The total is 1,250.", 1250), ("答案是 205 分钟", 205), ("3 小时 25 分钟，答案是 205。", 205),
    ("It takes 3 h 25 min, so 205 minutes", 205), ("１２", 12), ("−3.5", -3.5), ("no number", None),
    ("The answer is 42 (not 41).", 42)])
def test_extract_number(answer, number):
    assert extract_number(answer) == number


def test_numeric_with_and_without_tolerance():
    assert score("37.78", _s("numeric", reference="37.8", tolerance=0.05)).value == 1.0
    assert score("37.9", _s("numeric", reference="37.8", tolerance=0.05)).value == 0.0
    assert score("一共 28 元。", _s("numeric", reference="28")).value == 1.0
    assert score("28.0", _s("numeric", reference="28")).value == 1.0
    assert score("28.5", _s("numeric", reference="28")).value == 0.0
    got = score("about 5215", _s("numeric", reference="5,215"))
    assert got.value == 1.0 and got.extracted == "5215"


@pytest.mark.parametrize(("answer", "letter"), [
    ("答案是 B", "B"), ("答案是B。", "B"), ("选B", "B"), ("我选择 C", "C"), ("答案：（C）", "C"), ("答案：Ｄ", "D"),
    ("The answer is (C).", "C"), ("The answer is B.", "B"), ("B. ohm", "B"), ("B", "B"), ("(D)", "D"),
    ("I would pick A because volts measure potential", "A"), ("I think so", None), ("It could be A or B", None)])
def test_extract_choice(answer, letter):
    assert extract_choice(answer) == letter


def test_choice_scorer_letters_and_option_text():
    sample = _s("choice", choices=["London", "Paris", "Rome", "Berlin"], answer="B")
    assert score("答案是 B", sample).value == 1.0
    assert score("The answer is C.", sample).value == 0.0
    assert score("I think it is Paris.", sample).value == 1.0  # no letter: the text of exactly one option
    assert score("E", sample).value == 0.0  # not one of the four options


def test_json_scorer():
    sample = _s("json", required_keys=["name", "age"])
    assert score('{"name": "李雷", "age": 31}', sample).value == 1.0
    assert score('```json\n{"name": "Li", "age": 3}\n```', sample).value == 1.0  # fenced, as models often answer
    assert score('{"name": "Li"}', sample).extracted == "missing age"
    assert score("[2，3，5]", _s("json")).value == 0.0  # full-width commas are not JSON
    assert score("[2, 3, 5]", _s("json")).value == 1.0
    assert score('["name", "age"]', sample).value == 0.0  # keys required: must be an object


@pytest.mark.parametrize("language", ["en", "zh"])
def test_built_in_samples_score_their_simulated_answers(language):
    """The simulator's right answer of every built-in sample scores 1 and its wrong answer 0 (else the demo's
    stated error rate would not be the error rate the report shows)."""
    rows = [json.loads(line) for line in builtin_path(language).read_text(encoding="utf-8").splitlines()]
    assert "_license" in rows[0]
    samples = builtin_samples(language)
    assert len(samples) == 30 and {s.scorer for s in samples} == {"numeric", "normalised", "exact", "contains",
                                                                  "regex", "choice", "json"}
    for sample, row in zip(samples, rows[1:], strict=True):
        assert score(row["sim_right"], sample).value == 1.0, sample.id
        assert score(row["sim_wrong"], sample).value == 0.0, sample.id
