"""The Benchmark page's panels, one file each; ``ui/pages/benchmark.py`` puts them together."""
