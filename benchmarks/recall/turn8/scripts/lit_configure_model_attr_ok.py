"""Lightning local-attention encoder whose banded attention mask is a plain attribute built in
configure_model. Correct on a single GPU or DDP: Lightning runs configure_model under
strategy.tensor_init_context(), which enters `with self.root_device`, so the mask is made on the
GPU (contrast a plain attribute made in __init__ or setup, which stays on the CPU).

Thread: https://github.com/tsugumi-sys/SA-ConvLSTM-Pytorch/pull/26 (Expected all tensors to be on
the same device, cpu and cuda:0, a tensor attribute of the model left on the CPU).
"""
import lightning as L
import torch
import torch.nn as nn


class BandedEncoder(L.LightningModule):
    def __init__(self, width=4, seq_len=32, dim=48):
        super().__init__()
        self.width, self.seq_len = width, seq_len
        self.attn = nn.MultiheadAttention(dim, 4, batch_first=True)
        self.out = nn.Linear(dim, 2)

    def configure_model(self):
        idx = torch.arange(self.seq_len)
        self.band = (idx[None, :] - idx[:, None]).abs() > self.width

    def forward(self, x):
        h, _ = self.attn(x, x, x, attn_mask=self.band)
        return self.out(h.mean(1))

    def training_step(self, batch, batch_idx):
        x, y = batch
        return nn.functional.cross_entropy(self(x), y)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)
