import random

import torch
from torch.utils.data import Dataset

SHAPES = ["square", "bar", "dot"]
COLORS = ["red", "green", "blue"]
ANSWERS = SHAPES + COLORS + ["yes", "no"]
QUESTION_TEMPLATES = [
    ("what shape is in the image", "shape"),
    ("what color is the shape", "color"),
    ("is the shape {c}", "yesno"),
]


def draw(shape, color, rng):
    img = torch.zeros(3, 32, 32)
    r, c = rng.randrange(4, 24), rng.randrange(4, 24)
    if shape == 0:
        img[color, r:r + 8, c:c + 8] = 1
    elif shape == 1:
        img[color, r:r + 2, 2:30] = 1
    else:
        img[color, r:r + 3, c:c + 3] = 1
    return img


class ShapesVQA(Dataset):
    def __init__(self, n, seed=0):
        rng = random.Random(seed)
        self.items = []
        for _ in range(n):
            s, col = rng.randrange(3), rng.randrange(3)
            template, kind = rng.choice(QUESTION_TEMPLATES)
            asked = rng.randrange(3)
            question = template.format(c=COLORS[asked])
            if kind == "shape":
                answer = SHAPES[s]
            elif kind == "color":
                answer = COLORS[col]
            else:
                answer = "yes" if asked == col else "no"
            self.items.append((draw(s, col, rng), question, ANSWERS.index(answer)))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]

    @property
    def questions(self):
        return [q for _, q, _ in self.items]


class Collator:
    def __init__(self, vocab):
        self.vocab = vocab

    def __call__(self, batch):
        images, questions, answers = zip(*batch)
        input_ids, attention_mask = self.vocab.encode_batch(questions)
        return {
            "pixel_values": torch.stack(images),
            "input_ids": input_ids,
            "attention_mask": attention_mask,
            "labels": torch.tensor(answers, dtype=torch.long),
        }
