import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, cfg):
        self.cfg = cfg
        self.device = cfg.device
        self.model = model.to(self.device)
        self.criterion = nn.CrossEntropyLoss(weight=cfg.class_weights)  # expect: DEV012
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)
        self.history = []

    def _step(self, images, labels):
        images, labels = images.to(self.device), labels.to(self.device)
        logits = self.model(images)
        loss = self.criterion(logits, labels)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, train_loader):
        for epoch in range(self.cfg.epochs):
            self.model.train()
            losses = [self._step(images, labels) for images, labels in train_loader]
            self.history.append(sum(losses) / len(losses))
            print(f"epoch {epoch}: loss {self.history[-1]:.4f}")
        return self.history

    @torch.no_grad()
    def accuracy(self, loader):
        self.model.eval()
        correct = total = 0
        for images, labels in loader:
            images, labels = images.to(self.device), labels.to(self.device)
            correct += (self.model(images).argmax(1) == labels).sum().item()
            total += labels.numel()
        return correct / total
