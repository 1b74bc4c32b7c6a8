"""Pydantic types shared by every layer, one module per area (model, gpu, workload, estimates, bench, telemetry…).

Validation messages are written for a newcomer: they name the field, the value and what would be valid.
"""
