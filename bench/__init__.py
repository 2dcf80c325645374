"""The benchmark suite: ``python -m bench [--json]``.

Every figure is measured side by side in one run, and reported with the
baseline it is compared to, so the ratios hold on any machine. See
``bench/suite.py`` for what each row measures.
"""
