"""Fine-tune the tiny encoder on synthetic sentiment data with dict batches."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from data.collate import PaddingCollator
from data.dataset import FILLER, NEGATIVE, POSITIVE, WhitespaceTokenizer, make_examples
from model import TinyEncoderClassifier
from utils.batch import to_device
from utils.metrics import accuracy, predictions


def evaluate(model, loader, device):
    model.eval()
    preds, gold = [], []
    with torch.no_grad():
        for batch in loader:
            batch = to_device(batch, device)
            labels = batch.pop("labels")
            logits = model(**batch)
            preds.extend(predictions(logits))
            gold.extend(labels.tolist())
    return accuracy(preds, gold)


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tokenizer = WhitespaceTokenizer(FILLER + POSITIVE + NEGATIVE)
    collator = PaddingCollator()
    train_loader = DataLoader(make_examples(256, tokenizer), batch_size=32, shuffle=True, collate_fn=collator)
    eval_loader = DataLoader(make_examples(64, tokenizer, seed=1), batch_size=32, collate_fn=collator)

    model = TinyEncoderClassifier(len(tokenizer.vocab)).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-3)
    loss_fn = nn.CrossEntropyLoss()

    for epoch in range(3):
        model.train()
        for batch in train_loader:
            batch = to_device(batch, device)
            labels = batch.pop("labels")
            logits = model(**batch)
            loss = loss_fn(logits, labels)  # expect: DEV004
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.3f} eval acc {evaluate(model, eval_loader, device):.3f}")


if __name__ == "__main__":
    main()
