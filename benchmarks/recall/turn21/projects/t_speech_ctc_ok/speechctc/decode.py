from .config import ALPHABET, BLANK


def greedy(log_probs, out_lens):
    """Collapse repeats and drop blanks; returns strings."""
    best = log_probs.argmax(-1).cpu()
    texts = []
    for row, n in zip(best.numpy(), out_lens.tolist()):
        prev, chars = BLANK, []
        for tok in row[:n]:
            if tok != prev and tok != BLANK:
                chars.append(ALPHABET[tok])
            prev = tok
        texts.append("".join(chars))
    return texts
