"""Helpers for dict batches."""

MODEL_INPUT_KEYS = ("input_ids", "attention_mask", "token_type_ids")


def to_device(batch, device):
    """Return a copy of `batch` with the model inputs on `device`."""
    moved = dict(batch)
    for key in MODEL_INPUT_KEYS:
        if key in moved:
            moved[key] = moved[key].to(device)
    return moved
