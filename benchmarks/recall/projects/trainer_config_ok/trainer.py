import torch
import torch.nn as nn

from metrics import balanced_accuracy, confusion_matrix


class Trainer:
    def __init__(self, model, cfg, weights=None):
        self.cfg = cfg
        self.device = torch.device(cfg.device)
        self.model = model.to(self.device)
        self.criterion = nn.CrossEntropyLoss(weight=weights).to(self.device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)
        self.start_epoch = 0

    def _to_device(self, images, labels):
        return images.to(self.device, non_blocking=True), labels.to(self.device, non_blocking=True)

    def fit(self, train_loader):
        for epoch in range(self.start_epoch, self.cfg.epochs):
            self.model.train()
            total = 0.0
            for images, labels in train_loader:
                images, labels = self._to_device(images, labels)
                loss = self.criterion(self.model(images), labels)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                total += loss.item()
            print(f"epoch {epoch}: loss {total / len(train_loader):.4f}")
            self.save(epoch)

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        cm = 0
        for images, labels in loader:
            images, labels = self._to_device(images, labels)
            cm = cm + confusion_matrix(self.model(images), labels, self.cfg.num_classes)
        return balanced_accuracy(cm)

    def save(self, epoch):
        torch.save({"epoch": epoch, "model": self.model.state_dict(),
                    "optimizer": self.optimizer.state_dict()}, self.cfg.checkpoint)

    def resume(self, path):
        state = torch.load(path, map_location=self.device)
        self.model.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.start_epoch = state["epoch"] + 1
