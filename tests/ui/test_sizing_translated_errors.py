"""A problem the core finds with the Sizing page's inputs reads in the UI's language (issue 26: a Chinese screen
showed the core's English sentence "input: the shared prefix … is part of the prompt")."""

import re

CJK = re.compile(r"[\u4e00-\u9fff]")


def test_a_prefix_longer_than_the_prompt_is_said_in_chinese_and_reworded_on_a_switch(qtbot, main_window):
    page = main_window.sizing_page
    main_window.set_language("zh_CN")
    try:
        page.context_spin.setValue(4096)
        page.prefix_spin.setValue(4000)  # the prompt is 4096 − 512 output tokens
        qtbot.waitUntil(lambda: not page.input_error.isHidden(), timeout=3000)
        text = page.input_error.text()
        assert CJK.search(text) and "3584" in text and "4000" in text
        assert not re.search(r"\b(input|shared prefix|prompt|give at most)\b", text), text
        main_window.set_language("en")  # the problem on screen follows the language
        qtbot.waitUntil(lambda: "shared prefix" in page.input_error.text(), timeout=3000)
        assert not CJK.search(page.input_error.text())
    finally:
        main_window.set_language("en")
