import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset

from config import TrainConfig
from losses import LabelSmoothedCE
from model import GRUSeq2Seq
from utils import decode_batch


def toy_pairs(n, cfg):
    src = torch.randint(3, cfg.vocab_size, (n, cfg.max_len))
    tgt = src.flip(1)
    tgt_in = torch.cat([torch.ones(n, 1, dtype=torch.long), tgt[:, :-1]], dim=1)
    return TensorDataset(src, tgt_in, tgt)


def main():
    cfg = TrainConfig()
    accelerator = Accelerator()
    vocab = [f"w{i}" for i in range(cfg.vocab_size)]
    model = GRUSeq2Seq(cfg.vocab_size, cfg.hidden)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    train_dl = DataLoader(toy_pairs(256, cfg), batch_size=cfg.batch_size, shuffle=True)
    val_dl = DataLoader(toy_pairs(64, cfg), batch_size=cfg.batch_size)
    model, optimizer, train_dl, val_dl = accelerator.prepare(model, optimizer, train_dl, val_dl)
    criterion = LabelSmoothedCE(cfg.label_smoothing)

    for epoch in range(cfg.epochs):
        model.train()
        for src, tgt_in, tgt in train_dl:
            loss = criterion(model(src, tgt_in), tgt)
            optimizer.zero_grad()
            accelerator.backward(loss)
            optimizer.step()

        model.eval()
        hyps = []
        for src, _, _ in val_dl:
            pred = accelerator.unwrap_model(model).greedy(src, cfg.max_len)
            pred = accelerator.gather_for_metrics(pred)
            hyps.extend(decode_batch(pred, vocab))
        accelerator.print(epoch, hyps[:2])


if __name__ == "__main__":
    main()
