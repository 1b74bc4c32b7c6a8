"""One place that finds the top-level ``resources/`` folder, in a checkout and in an installed wheel."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources as importlib_resources
from pathlib import Path
from typing import Any


@cache
def resources_dir() -> Path:
    """The ``resources/`` folder: beside the package in a checkout, or installed as package data."""
    checkout = Path(__file__).resolve().parent.parent / "resources"
    if checkout.is_dir():
        return checkout
    installed = Path(str(importlib_resources.files("resources")))
    if installed.is_dir():
        return installed
    raise FileNotFoundError("resources/ folder not found: reinstall inference-advisor")


def resource_path(*parts: str) -> Path:
    return resources_dir().joinpath(*parts)


def load_json(*parts: str) -> Any:
    with resource_path(*parts).open(encoding="utf-8") as f:
        return json.load(f)
