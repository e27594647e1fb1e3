"""Greedy CTC decoding and a token error rate."""
import numpy as np


def greedy_decode(log_probs, blank=0):
    best = np.asarray(log_probs).argmax(-1)  # expect: DEV011
    out = []
    for row in best:
        seq, prev = [], blank
        for s in row:
            if s != prev and s != blank:
                seq.append(int(s))
            prev = s
        out.append(seq)
    return out


def token_error_rate(hyps, refs):
    errors = sum(abs(len(h) - len(r)) + sum(a != b for a, b in zip(h, r)) for h, r in zip(hyps, refs))
    return errors / max(1, sum(len(r) for r in refs))
