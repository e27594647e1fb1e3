import lightning as L
import torch
from sklearn.metrics import roc_auc_score


class AUCReport(L.Callback):
    """Computes the validation ROC AUC from the probabilities the module collected."""

    def on_validation_epoch_end(self, trainer, pl_module):
        probs = torch.cat(pl_module.val_probs)
        targets = torch.cat(pl_module.val_targets)
        auc = roc_auc_score(targets, probs)  # expect: DEV011
        pl_module.log("val/auc", float(auc))
        pl_module.val_probs.clear()
        pl_module.val_targets.clear()
