"""Token-tagging Trainer whose overridden prediction_step decodes argmax tags to NumPy for a
custom span scorer.

Thread: https://github.com/JDAI-CV/fast-reid/pull/509 (can't convert cuda:0 device type tensor to
numpy, `.numpy()` on a model output); https://github.com/neuro-ml/thunder/issues/49.
"""
import numpy as np
import torch
from transformers import Trainer


class SpanTrainer(Trainer):
    def prediction_step(self, model, inputs, prediction_loss_only, ignore_keys=None):
        inputs = self._prepare_inputs(inputs)
        labels = inputs.get("labels")
        with torch.no_grad():
            out = model(**inputs)
        tags = out.logits.argmax(dim=-1).numpy()  # expect: DEV011
        spans = np.count_nonzero(np.diff(tags, axis=-1), axis=-1)
        return out.loss.detach(), torch.from_numpy(spans), labels
