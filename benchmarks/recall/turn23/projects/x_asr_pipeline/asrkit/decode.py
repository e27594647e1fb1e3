"""CTC greedy decoding and a character error rate helper."""
from .data import TOKENS


def greedy_decode(log_probs, out_lens):
    """log_probs: (B, T, V) straight from the model."""
    best = log_probs.argmax(-1).numpy()  # expect: DEV011
    texts = []
    for row, n in zip(best, out_lens.tolist()):
        prev, out = 0, []
        for tok in row[:n]:
            if tok != prev and tok != 0:
                out.append(TOKENS[tok])
            prev = tok
        texts.append("".join(out))
    return texts


def cer(hyp, ref):
    d = list(range(len(ref) + 1))
    for i, h in enumerate(hyp, 1):
        prev, d[0] = d[0], i
        for j, r in enumerate(ref, 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (h != r))
    return d[len(ref)] / max(1, len(ref))
