"""Benchmarks, run by `make bench`. Each bench_*.py module exposes run() -> list[Row]."""
