"""Synthetic sentiment examples and a whitespace tokenizer."""
import random

POSITIVE = ["great", "fun", "lovely", "superb", "enjoyable", "moving"]
NEGATIVE = ["boring", "awful", "dull", "messy", "tedious", "weak"]
FILLER = ["the", "film", "was", "really", "quite", "plot", "acting", "and"]


class WhitespaceTokenizer:
    def __init__(self, words):
        self.vocab = {"[PAD]": 0, "[UNK]": 1}
        for w in words:
            self.vocab.setdefault(w, len(self.vocab))

    def __call__(self, text):
        return [self.vocab.get(w, 1) for w in text.split()]


def make_examples(n, tokenizer, seed=0):
    rng = random.Random(seed)
    examples = []
    for _ in range(n):
        label = rng.randint(0, 1)
        words = rng.sample(FILLER, rng.randint(2, 6)) + rng.sample(POSITIVE if label else NEGATIVE, 2)
        rng.shuffle(words)
        examples.append({"input_ids": tokenizer(" ".join(words)), "label": label})
    return examples
