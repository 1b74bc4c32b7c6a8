"""The Quantization A/B page (量化 A/B), one file per panel: page.py (the page: the run, its progress and result),
sides_panel.py (the A and B targets), load_panel.py (the prompts and the load), section.py (the project file's
``ab`` section bound to the widgets, once, for open and save). The simulated servers, scoring, judge and result
panels are ui/widgets/ab_sims.py, ab_quality.py, ab_judge.py and ab_result_view.py."""

from ui.pages.ab.page import AbPage

__all__ = ["AbPage"]
