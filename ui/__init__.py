"""PySide6 desktop shell of Inference Advisor. Imports the Qt-free ``advisor`` core, never the reverse."""

# Order matters.
# 1) pydantic's lazily imported internals before PySide6: shiboken's import hook inspects every module
#    imported after PySide6, and its `hasattr(module, "__wrapped__")` on the half-imported pydantic package
#    raises a circular ImportError ("cannot import name 'import_string' from partially initialized module
#    'pydantic._internal._validators'") — `import ui.app` in a fresh interpreter failed without this.
try:
    import pydantic._internal._validators  # noqa: F401
except ImportError:  # a future pydantic may move it; the core's own imports below still load pydantic
    pass
import advisor.settings  # noqa: F401, E402  (pydantic models of the core, loaded before Qt)

# 2) Before any signal is emitted or void Qt method called: see ui/qt_compat.py.
from ui import qt_compat as _qt_compat  # noqa: F401, E402
