"""Reusable widgets of the desktop app."""
