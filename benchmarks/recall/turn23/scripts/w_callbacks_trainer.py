"""A small trainer with callbacks (progress, AUC-style evaluation), in the style of keras-like wrappers."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Callback:
    def on_train_begin(self, trainer): pass
    def on_batch_end(self, trainer, outputs): pass
    def on_eval_batch_end(self, trainer, outputs): pass
    def on_epoch_end(self, trainer, epoch): pass


class PrintLoss(Callback):
    def on_batch_end(self, trainer, outputs):
        if trainer.global_step % 4 == 0:
            print(f"step {trainer.global_step} loss {outputs['loss'].item():.4f}")


class RankingEval(Callback):
    """Collects eval scores and reports a threshold sweep at the end of each epoch."""

    def on_train_begin(self, trainer):
        self.scores, self.targets = [], []

    def on_eval_batch_end(self, trainer, outputs):
        self.scores.append(outputs["probs"][:, 1].detach())
        self.targets.append(outputs["labels"].cpu())

    def on_epoch_end(self, trainer, epoch):
        scores = torch.cat(self.scores).numpy()  # expect: DEV011
        targets = torch.cat(self.targets).numpy()
        for thr in (0.3, 0.5, 0.7):
            pred = scores > thr
            acc = float(np.mean(pred == targets.astype(bool)))
            print(f"epoch {epoch} thr {thr} acc {acc:.3f}")
        self.scores, self.targets = [], []


class Trainer:
    def __init__(self, model, optimizer, callbacks=(), device=None):
        self.device = device or torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = model.to(self.device)
        self.optimizer = optimizer
        self.callbacks = list(callbacks)
        self.global_step = 0

    def _call(self, hook, *args):
        for cb in self.callbacks:
            getattr(cb, hook)(self, *args)

    def _prepare_batch(self, batch):
        for key in batch:
            batch[key].to(self.device)  # expect: DEV005
        return batch

    def training_step(self, batch):
        batch = self._prepare_batch(batch)
        logits = self.model(batch["features"])  # also: DEV002
        loss = F.cross_entropy(logits, batch["labels"])
        return {"loss": loss}

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        for batch in loader:
            feats = batch["features"].to(self.device)
            labels = batch["labels"].to(self.device)
            probs = self.model(feats).softmax(-1)
            self._call("on_eval_batch_end", {"probs": probs, "labels": labels})
        self.model.train()

    def fit(self, train_loader, eval_loader, epochs=2):
        self._call("on_train_begin")
        for epoch in range(epochs):
            for batch in train_loader:
                out = self.training_step(batch)
                self.optimizer.zero_grad()
                out["loss"].backward()
                self.optimizer.step()
                self.global_step += 1
                self._call("on_batch_end", out)
            self.evaluate(eval_loader)
            self._call("on_epoch_end", epoch)


def dict_loader(n_batches, bs=8, dim=10):
    return [
        {"features": torch.randn(bs, dim), "labels": torch.randint(0, 2, (bs,))}
        for _ in range(n_batches)
    ]


if __name__ == "__main__":
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(10, 24), nn.ReLU(), nn.Linear(24, 2))
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    trainer = Trainer(net, opt, callbacks=[PrintLoss(), RankingEval()])
    trainer.fit(dict_loader(8), dict_loader(3))
