"""Train the seq2seq forecaster.

    python train.py --epochs 2 --device auto
    python train.py --epochs 4 --resume
"""
import argparse

import torch
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn
from torch.utils.data import DataLoader

from forecast_lab import Config, Seq2SeqForecaster, resolve_device
from forecast_lab import checkpoint
from forecast_lab.data import SeriesScaler, VariableHistoryDataset, collate, make_panel, to_device
from forecast_lab.evaluate import evaluate
from forecast_lab.model import gaussian_nll


def main():
    cfg = Config()
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=cfg.epochs)
    ap.add_argument("--device", default=cfg.device)
    ap.add_argument("--resume", action="store_true")
    args = ap.parse_args()
    cfg.epochs, cfg.device = args.epochs, args.device
    device = resolve_device(cfg.device)

    panel = make_panel(cfg.n_series, cfg.series_len)
    split = int(cfg.series_len * 0.8)
    scaler = SeriesScaler().fit(panel[:, :split])
    scaled = scaler.transform(panel)
    train_ds = VariableHistoryDataset(scaled[:, :split], cfg, n_samples=256, seed=0)
    val_ds = VariableHistoryDataset(scaled[:, split - cfg.max_history:], cfg, n_samples=64, seed=1)
    train_loader = DataLoader(train_ds, batch_size=cfg.batch_size, shuffle=True, collate_fn=collate)
    val_loader = DataLoader(val_ds, batch_size=64, collate_fn=collate)

    model = Seq2SeqForecaster(cfg.n_series, cfg.hidden, cfg.horizon).to(device)
    ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(cfg.ema_decay))
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    start = checkpoint.maybe_resume(cfg.ckpt, model, ema, optimizer, device) if args.resume else 0

    for epoch in range(start, cfg.epochs):
        for batch in train_loader:
            batch = to_device(batch, device)
            point, scale = model(batch["history"], batch["lengths"], batch["series_id"],
                                 target=batch["target"], teacher_forcing=0.5)
            loss = gaussian_nll(point, scale, batch["target"])
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            ema.update_parameters(model)
        mae, cover = evaluate(ema.module, val_loader, scaler, device)
        print(f"epoch {epoch}: nll {loss.item():.3f}  val MAE {mae:.2f}  95% coverage {cover:.2f}")
        checkpoint.save(cfg.ckpt, model, ema, optimizer, epoch)


if __name__ == "__main__":
    main()
