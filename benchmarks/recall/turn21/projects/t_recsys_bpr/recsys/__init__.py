"""Implicit-feedback recommender: config, data, model, loss and ranking metrics."""
