"""Fakes at external boundaries (NVML), used by the core tests."""
