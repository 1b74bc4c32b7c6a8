"""PySide6 desktop shell of Inference Advisor. Imports the Qt-free ``advisor`` core, never the reverse."""
