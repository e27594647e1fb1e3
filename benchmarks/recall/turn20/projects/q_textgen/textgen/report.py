import json

import numpy as np


def token_stats(samples):
    """Distinct-n and length statistics for a batch of generated token ids."""
    arr = samples.numpy()  # expect: DEV011
    distinct1 = np.mean([len(set(row)) / len(row) for row in arr])
    bigrams = [set(zip(row[:-1], row[1:])) for row in arr]
    distinct2 = np.mean([len(b) / max(len(row) - 1, 1) for b, row in zip(bigrams, arr)])
    return {"distinct_1": float(distinct1), "distinct_2": float(distinct2), "length": int(arr.shape[1])}


def write_report(stats, path="gen_report.json"):
    with open(path, "w") as f:
        json.dump(stats, f, indent=2)
