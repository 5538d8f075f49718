"""Datasets, metrics, baselines and the batch runner."""
