"""Scoring the answers of a quantization A/B against references: scorers, paired statistics, sample files.

Qt-free. ``scorers`` turns one answer into a score (0 or 1) against a sample's reference; ``samples`` reads
sample files that carry references (JSONL/CSV) and the built-in bilingual set; ``stats`` compares the two
sides' scores on the same samples (paired bootstrap interval, McNemar exact test, sample sizes); ``report``
puts them together for ``advisor ab`` and the Quantization A/B page.
"""
