"""`devlint bench`: how a training step's time splits into compute and copies on each device,
from the seed's `Linear(4, 1)` to large MLPs, so a user sees where a GPU starts to pay."""
