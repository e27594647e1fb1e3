"""python main.py [--reload-only]"""
import argparse
import os

import torch

from clf.config import Config
from clf.data import make_loader
from clf.engine import evaluate, train_one_epoch
from clf.model import TicketClassifier


def train(cfg):
    model = TicketClassifier(cfg).to(cfg.device)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    train_dl, val_dl = make_loader(cfg, "train"), make_loader(cfg, "val")
    for epoch in range(cfg.epochs):
        loss = train_one_epoch(model, train_dl, optimizer, cfg.device)
        print(f"epoch {epoch} loss {loss:.3f}", evaluate(model, val_dl, cfg.device, cfg.num_classes))
    torch.save(model.state_dict(), cfg.ckpt_path)


def reload_and_eval(cfg):
    model = TicketClassifier(cfg)
    model.load_state_dict(torch.load(cfg.ckpt_path, map_location="cpu"))
    model.to(cfg.device)
    print("reloaded:", evaluate(model, make_loader(cfg, "val"), cfg.device, cfg.num_classes))


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--reload-only", action="store_true")
    args = ap.parse_args()
    cfg = Config()
    if not args.reload_only or not os.path.exists(cfg.ckpt_path):
        train(cfg)
    reload_and_eval(cfg)
