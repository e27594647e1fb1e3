import numpy as np


class Callback:
    def on_epoch_start(self, trainer, epoch): pass
    def on_train_batch_end(self, trainer, loss): pass
    def on_validation_end(self, trainer, epoch, preds, tags): pass


class LossPrinter(Callback):
    def __init__(self, every=5):
        self.every = every

    def on_train_batch_end(self, trainer, loss):
        if trainer.step % self.every == 0:
            print(f"step {trainer.step} loss {loss:.4f}")


class TagHistogram(Callback):
    """Prints how often each tag is predicted, next to how often it occurs."""

    def on_validation_end(self, trainer, epoch, preds, tags):
        n = trainer.cfg.num_tags
        pred_hist, _ = np.histogram(preds.cpu().numpy(), bins=n, range=(0, n))
        true_hist, _ = np.histogram(tags.cpu().numpy(), bins=n, range=(0, n))
        print(f"epoch {epoch} predicted {pred_hist.tolist()} true {true_hist.tolist()}")
