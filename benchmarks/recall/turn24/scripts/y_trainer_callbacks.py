"""A small Trainer with callbacks; the callbacks get the (moved) batch and the outputs."""
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


@dataclass
class TrainConfig:
    epochs: int = 3
    lr: float = 3e-3
    batch_size: int = 32
    n_classes: int = 4
    class_weights: list = field(default_factory=lambda: [1.0, 2.0, 2.0, 4.0])


class Callback:
    def on_epoch_start(self, trainer, epoch):
        pass

    def on_batch_end(self, trainer, batch, outputs, loss):
        pass

    def on_epoch_end(self, trainer, epoch):
        pass


class ConfusionMatrixCallback(Callback):
    def __init__(self, n_classes):
        self.n = n_classes
        self.cm = np.zeros((n_classes, n_classes), dtype=np.int64)

    def on_epoch_start(self, trainer, epoch):
        self.cm[:] = 0

    def on_batch_end(self, trainer, batch, outputs, loss):
        preds = outputs.detach().argmax(dim=1).numpy()  # expect: DEV011
        target = batch["label"].cpu().numpy()
        np.add.at(self.cm, (target, preds), 1)

    def on_epoch_end(self, trainer, epoch):
        recall = np.diag(self.cm) / np.maximum(self.cm.sum(1), 1)
        print(f"  epoch {epoch} per-class recall {np.round(recall, 2)}")


class LossPrinter(Callback):
    def __init__(self):
        self.losses = []

    def on_batch_end(self, trainer, batch, outputs, loss):
        self.losses.append(loss.item())

    def on_epoch_end(self, trainer, epoch):
        print(f"epoch {epoch} mean loss {np.mean(self.losses):.4f}")
        self.losses.clear()


class Trainer:
    def __init__(self, model, cfg, callbacks=()):
        self.cfg = cfg
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = model.to(self.device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)
        self.criterion = nn.CrossEntropyLoss(weight=torch.tensor(cfg.class_weights))  # expect: DEV012
        self.callbacks = list(callbacks)

    def _emit(self, hook, *args):
        for cb in self.callbacks:
            getattr(cb, hook)(self, *args)

    def fit(self, loader):
        for epoch in range(self.cfg.epochs):
            self._emit("on_epoch_start", epoch)
            self.model.train()
            for batch in loader:
                batch = {k: v.to(self.device) for k, v in batch.items()}
                outputs = self.model(batch["features"])
                loss = self.criterion(outputs, batch["label"])
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                self._emit("on_batch_end", batch, outputs, loss)
            self._emit("on_epoch_end", epoch)


class Blobs(Dataset):
    def __init__(self, n=400, n_classes=4):
        g = torch.Generator().manual_seed(11)
        self.y = torch.randint(0, n_classes, (n,), generator=g)
        self.x = torch.randn(n, 8, generator=g) + self.y[:, None].float()

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return {"features": self.x[i], "label": self.y[i]}


if __name__ == "__main__":
    cfg = TrainConfig()
    net = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, cfg.n_classes))
    loader = DataLoader(Blobs(n_classes=cfg.n_classes), batch_size=cfg.batch_size, shuffle=True)
    Trainer(net, cfg, callbacks=[LossPrinter(), ConfusionMatrixCallback(cfg.n_classes)]).fit(loader)
