"""Train the intent classifier and print per-class accuracy."""
import torch
import torch.nn.functional as F

from config import Config
from data import make_loader, toy_data
from model import IntentModel
from report import per_class_accuracy


def main():
    cfg = Config()
    rows = toy_data(vocab=cfg.vocab_size, n_classes=cfg.n_classes)
    train_loader = make_loader(rows[:160], cfg.batch_size, cfg.device)
    test_loader = make_loader(rows[160:], 40, cfg.device, shuffle=False)
    model = IntentModel(cfg.vocab_size, cfg.dim, cfg.n_classes).to(cfg.device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(cfg.epochs):
        for ids, mask, labels in train_loader:
            loss = F.cross_entropy(model(ids, mask), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
    preds, trues = [], []
    with torch.no_grad():
        for ids, mask, labels in test_loader:
            preds.extend(model(ids, mask).argmax(1).cpu().tolist())
            trues.extend(labels.cpu().tolist())
    print(per_class_accuracy(preds, trues, cfg.n_classes))


if __name__ == "__main__":
    main()
