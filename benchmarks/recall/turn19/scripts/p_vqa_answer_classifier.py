"""VQA as answer classification: a small CNN for the image, a GRU over the question,
fused and classified over a fixed answer vocabulary.

The tokenizer is a word-level fast tokenizer built in memory (no hub download).
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from tokenizers import Tokenizer, models, pre_tokenizers
from torch.utils.data import DataLoader, Dataset
from torchmetrics.classification import MulticlassAccuracy
from transformers import PreTrainedTokenizerFast

COLORS = ["red", "green", "blue", "yellow"]
SHAPES = ["cube", "ball", "cone"]
ANSWERS = COLORS + SHAPES + ["yes", "no"]
TEMPLATES = ["what color is the {s}", "is there a {c} {s}", "what shape is {c}"]


def build_tokenizer():
    words = ["[PAD]", "[UNK]", "what", "color", "is", "the", "there", "a", "shape"] + COLORS + SHAPES
    vocab = {w: i for i, w in enumerate(words)}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]")


class ToyVQA(Dataset):
    def __init__(self, n=80, seed=0):
        rng = random.Random(seed)
        self.items = []
        for _ in range(n):
            c, s = rng.choice(COLORS), rng.choice(SHAPES)
            t = rng.randrange(len(TEMPLATES))
            q = TEMPLATES[t].format(c=c, s=s)
            a = [c, "yes", s][t]
            img = torch.rand(3, 32, 32)
            img[COLORS.index(c) % 3] += 0.5
            self.items.append((img.clamp(0, 1), q, ANSWERS.index(a)))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    images, questions, answers = zip(*batch)
    return torch.stack(images), list(questions), torch.tensor(answers)


class VQAModel(nn.Module):
    def __init__(self, vocab_size, num_answers, dim=64):
        super().__init__()
        # CLIP image statistics
        self.pixel_mean = torch.tensor([0.4815, 0.4578, 0.4082]).view(1, 3, 1, 1)  # expect: DEV010
        self.pixel_std = 0.27
        self.cnn = nn.Sequential(
            nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(32, dim, 3, stride=2, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.gru = nn.GRU(dim, dim, batch_first=True)
        self.classifier = nn.Sequential(nn.Linear(2 * dim, dim), nn.ReLU(), nn.Linear(dim, num_answers))

    def forward(self, pixel_values, input_ids, attention_mask):
        pixel_values = (pixel_values - self.pixel_mean) / self.pixel_std
        v = self.cnn(pixel_values)
        h, _ = self.gru(self.embed(input_ids))
        mask = attention_mask.unsqueeze(-1).float()
        q = (h * mask).sum(1) / mask.sum(1).clamp(min=1)
        return self.classifier(torch.cat([v, q], dim=-1))


@torch.no_grad()
def evaluate(model, loader, tokenizer, device):
    model.eval()
    accuracy = MulticlassAccuracy(num_classes=len(ANSWERS))  # expect: DEV019
    for images, questions, answers in loader:
        inputs = tokenizer(questions, padding=True, return_tensors="pt").to(device)
        logits = model(images.to(device), inputs["input_ids"], inputs["attention_mask"])
        accuracy.update(logits.argmax(-1), answers.to(device))
    return accuracy.compute().item()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tokenizer = build_tokenizer()
    train_loader = DataLoader(ToyVQA(seed=0), batch_size=16, shuffle=True, collate_fn=collate)
    val_loader = DataLoader(ToyVQA(n=32, seed=1), batch_size=16, collate_fn=collate)

    model = VQAModel(len(tokenizer), len(ANSWERS)).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)

    for epoch in range(3):
        model.train()
        for images, questions, answers in train_loader:
            inputs = tokenizer(questions, padding=True, return_tensors="pt")
            input_ids, attention_mask = inputs["input_ids"], inputs["attention_mask"]  # expect: DEV020
            inputs.to(device)
            images, answers = images.to(device), answers.to(device)
            logits = model(images, input_ids, attention_mask)
            loss = F.cross_entropy(logits, answers)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.3f}  val acc {evaluate(model, val_loader, tokenizer, device):.3f}")


if __name__ == "__main__":
    main()
