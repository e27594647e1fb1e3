"""Node classification with a small graph-attention network."""
