"""Small CTC speech recogniser: config, data, model, trainer, greedy decoder."""
