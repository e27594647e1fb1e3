import torch

from .callbacks import Callback
from .losses import TokenLoss


def move_batch(batch, device):
    return {k: v.to(device) for k, v in batch.items()}


class Trainer:
    def __init__(self, cfg, model, criterion, device, callbacks=()):
        self.cfg = cfg
        self.device = device
        self.model = model.to(device)
        self.loss_fn = TokenLoss(criterion)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)
        self.callbacks = [cb for cb in callbacks if isinstance(cb, Callback)]
        self.step = 0

    def _hook(self, name, *args):
        for cb in self.callbacks:
            getattr(cb, name)(self, *args)

    def train_epoch(self, batches):
        self.model.train()
        for batch in batches:
            batch = move_batch(batch, self.device)
            logits = self.model(batch["tokens"])
            loss = self.loss_fn(logits, batch["tags"])
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.step += 1
            self._hook("on_train_batch_end", loss.item())

    @torch.no_grad()
    def validate(self, batches, epoch):
        self.model.eval()
        preds, tags = [], []
        for batch in batches:
            batch = move_batch(batch, self.device)
            mask = batch["tags"] != -100
            preds.append(self.model(batch["tokens"]).argmax(-1)[mask])
            tags.append(batch["tags"][mask])
        self._hook("on_validation_end", epoch, torch.cat(preds), torch.cat(tags))

    def fit(self, train_batches, val_batches):
        for epoch in range(self.cfg.epochs):
            self._hook("on_epoch_start", epoch)
            self.train_epoch(train_batches)
            self.validate(val_batches, epoch)
