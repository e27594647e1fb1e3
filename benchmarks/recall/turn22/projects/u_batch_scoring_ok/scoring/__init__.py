"""Batch scoring package: config, model, checkpoint registry, engine, post-processing."""
