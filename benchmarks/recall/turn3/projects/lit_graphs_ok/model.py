"""Lightning module for graph regression: layers built in configure_model, the batch moved by Lightning
(transfer_batch_to_device skips the names), tensors made on the batch's device."""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F


class MeanConv(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.lin = nn.Linear(2 * dim, dim)

    def forward(self, h, edge_index):
        src, dst = edge_index
        agg = torch.zeros_like(h).index_add_(0, dst, h[src])
        deg = torch.zeros(h.size(0), 1, device=h.device).index_add_(0, dst, torch.ones(src.size(0), 1, device=h.device))
        return F.relu(self.lin(torch.cat([h, agg / deg.clamp(min=1)], dim=-1)))


class GraphRegressor(L.LightningModule):
    def __init__(self, hidden=64, layers=3, lr=1e-3, n_atom_types=10):
        super().__init__()
        self.save_hyperparameters()
        self.embed = None
        self.val_errors = []

    def configure_model(self):
        if self.embed is not None:
            return
        self.embed = nn.Embedding(self.hparams.n_atom_types, self.hparams.hidden)
        self.convs = nn.ModuleList(MeanConv(self.hparams.hidden) for _ in range(self.hparams.layers))
        self.readout = nn.Linear(self.hparams.hidden, 1)

    def on_fit_start(self):
        self.target_scale = torch.tensor(1.0)

    def forward(self, batch):
        h = self.embed(batch["atoms"])
        for conv in self.convs:
            h = conv(h, batch["edge_index"])
        pooled = torch.zeros(batch["n_graphs"], h.size(1), device=self.device).index_add_(0, batch["graph_ids"], h)
        return self.readout(pooled).squeeze(-1) * self.target_scale

    def training_step(self, batch, batch_idx):
        loss = F.mse_loss(self(batch), batch["y"])
        self.log("train_loss", loss, batch_size=batch["n_graphs"])
        return loss

    def validation_step(self, batch, batch_idx):
        err = (self(batch) - batch["y"]).abs()
        self.val_errors.append(err.detach().cpu())

    def on_validation_epoch_end(self):
        errors = torch.cat(self.val_errors).numpy()
        self.log("val_mae", float(errors.mean()))
        self.val_errors.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)
