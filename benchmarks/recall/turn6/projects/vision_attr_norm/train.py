"""Train and evaluate the defect classifier."""
import torch
import torch.nn.functional as F

from config import TrainConfig
from data import make_loader
from model import DefectNet


def main():
    cfg = TrainConfig()
    model = DefectNet(cfg.mean, cfg.std, cfg.n_classes).to(cfg.device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    train_loader = make_loader(256, cfg.image_size, cfg.batch_size, True)
    test_loader = make_loader(64, cfg.image_size, 64, False)
    for epoch in range(cfg.epochs):
        model.train()
        for imgs, labels in train_loader:
            imgs, labels = imgs.to(cfg.device), labels.to(cfg.device)
            loss = F.cross_entropy(model(imgs), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    correct = 0
    with torch.no_grad():
        for imgs, labels in test_loader:
            correct += (model(imgs.to(cfg.device)).argmax(1).cpu() == labels).sum().item()
    print("accuracy", correct / 64)


if __name__ == "__main__":
    main()
