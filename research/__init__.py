"""Experiments kept outside the package: off by default when they were in it, not shipped, imported by
no shipped code (research/README.md)."""
