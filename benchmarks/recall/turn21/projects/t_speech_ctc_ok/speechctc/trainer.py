import torch
import torch.nn as nn

from .config import BLANK
from .decode import greedy


class Trainer:
    def __init__(self, model, cfg):
        self.device = torch.device(cfg.device)
        self.model = model.to(self.device)
        self.cfg = cfg
        self.ctc = nn.CTCLoss(blank=BLANK, zero_infinity=True)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)

    def _step(self, batch):
        feats = batch["feats"].to(self.device)
        labels = batch["labels"].to(self.device)
        # lengths stay on the CPU: pack_padded_sequence needs them there, CTCLoss takes either
        log_probs, out_lens = self.model(feats, batch["feat_lens"])
        return self.ctc(log_probs.transpose(0, 1), labels, out_lens, batch["label_lens"])

    def fit(self, loader):
        for epoch in range(self.cfg.epochs):
            self.model.train()
            for batch in loader:
                loss = self._step(batch)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
            print(f"epoch {epoch} ctc {loss.item():.3f}")

    @torch.no_grad()
    def transcribe(self, batch):
        self.model.eval()
        log_probs, out_lens = self.model(batch["feats"].to(self.device), batch["feat_lens"])
        return greedy(log_probs, out_lens)
