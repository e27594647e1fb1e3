"""VQA with a processor-style collate function (image preprocessing + tokenizer),
HF-style dict batches and a torchmetrics accuracy. Tokenizer is built in memory.
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from tokenizers import Tokenizer, models, pre_tokenizers
from torch.utils.data import DataLoader
from torchmetrics.classification import MulticlassAccuracy
from transformers import PreTrainedTokenizerFast

COLORS = ["red", "green", "blue"]
COUNTS = ["one", "two", "three"]
ANSWERS = COLORS + COUNTS
QUESTIONS = ["what color are the dots", "how many dots are there"]


def build_tokenizer():
    words = ["[PAD]", "[UNK]"] + sorted({w for q in QUESTIONS for w in q.split()})
    tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]")


def render(color, count, rng):
    img = torch.zeros(3, 24, 24)
    for _ in range(count):
        r, c = rng.randrange(2, 20), rng.randrange(2, 20)
        img[color, r - 2:r + 2, c - 2:c + 2] = 1.0
    return img


def make_examples(n, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        color, count = rng.randrange(3), rng.randrange(1, 4)
        q = rng.randrange(2)
        answer = COLORS[color] if q == 0 else COUNTS[count - 1]
        out.append({"image": render(color, count, rng), "question": QUESTIONS[q], "answer": ANSWERS.index(answer)})
    return out


class Processor:
    """Resizes/normalizes images and tokenizes questions, like an HF *Processor."""

    def __init__(self, tokenizer, mean=(0.5, 0.5, 0.5), std=(0.5, 0.5, 0.5)):
        self.tokenizer = tokenizer
        self.mean = torch.tensor(mean).view(3, 1, 1)
        self.std = torch.tensor(std).view(3, 1, 1)

    def __call__(self, images, questions):
        pixel_values = torch.stack([(img - self.mean) / self.std for img in images])
        enc = self.tokenizer(questions, padding=True, return_tensors="pt")
        enc["pixel_values"] = pixel_values
        return enc


class VQANet(nn.Module):
    def __init__(self, vocab_size, num_answers, dim=48):
        super().__init__()
        self.vision = nn.Sequential(nn.Conv2d(3, dim, 4, 4), nn.ReLU(), nn.Conv2d(dim, dim, 3, padding=1), nn.ReLU())
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.attn = nn.MultiheadAttention(dim, 4, batch_first=True)
        self.classifier = nn.Linear(2 * dim, num_answers)

    def forward(self, pixel_values, input_ids, attention_mask, labels=None, **kwargs):
        patches = self.vision(pixel_values).flatten(2).transpose(1, 2)
        words = self.embed(input_ids)
        fused, _ = self.attn(words, patches, patches)
        m = attention_mask.unsqueeze(-1).float()
        pooled = torch.cat([(fused * m).sum(1) / m.sum(1), patches.mean(1)], dim=-1)
        logits = self.classifier(pooled)
        loss = F.cross_entropy(logits, labels) if labels is not None else None
        return {"loss": loss, "logits": logits}


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tokenizer = build_tokenizer()
    processor = Processor(tokenizer)

    def collate(examples):
        batch = processor([e["image"] for e in examples], [e["question"] for e in examples])
        batch["labels"] = torch.tensor([e["answer"] for e in examples])
        return batch

    train_loader = DataLoader(make_examples(240, 0), batch_size=24, shuffle=True, collate_fn=collate)
    val_loader = DataLoader(make_examples(60, 1), batch_size=30, collate_fn=collate)

    model = VQANet(len(tokenizer), len(ANSWERS)).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
    val_acc = MulticlassAccuracy(num_classes=len(ANSWERS)).to(device)

    for epoch in range(3):
        model.train()
        for batch in train_loader:
            batch = batch.to(device)
            out = model(**batch)
            optimizer.zero_grad()
            out["loss"].backward()
            optimizer.step()

        model.eval()
        val_acc.reset()
        with torch.no_grad():
            for batch in val_loader:
                batch = batch.to(device)
                labels = batch.pop("labels")
                input_ids = batch["input_ids"]
                logits = model(batch["pixel_values"], input_ids, batch["attention_mask"])["logits"]
                val_acc.update(logits, labels)
        print(f"epoch {epoch}: train loss {out['loss'].item():.3f}  val acc {val_acc.compute().item():.3f}")

    # single question at inference time
    inputs = processor([render(2, 3, random.Random(5))], ["how many dots are there"]).to(device)
    with torch.no_grad():
        pred = model(**inputs)["logits"].argmax(-1).item()
    print("answer:", ANSWERS[pred])


if __name__ == "__main__":
    main()
