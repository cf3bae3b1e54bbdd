"""Benchmarks (not run by the test command). See bench/README.md."""
