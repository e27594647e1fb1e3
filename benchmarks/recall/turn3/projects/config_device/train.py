"""Train the tiny LM with an EMA copy of the weights used for evaluation."""
import copy
import os

import numpy as np
import torch

from tinylm.config import Config
from tinylm.data import get_batch
from tinylm.model import GPT


def main():
    cfg = Config()
    tokens = np.fromfile("data/train.bin", dtype=np.uint16) if os.path.exists("data/train.bin") else \
        np.random.randint(0, cfg.vocab_size, 100_000).astype(np.uint16)
    model = GPT(cfg)
    ema = copy.deepcopy(model).eval()  # expect: DEV016
    model.to(cfg.device)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, betas=(0.9, 0.95), weight_decay=0.1)
    for step in range(cfg.max_steps):
        x, y = get_batch(tokens, cfg.block_size, cfg.batch_size, cfg.device)
        _, loss = model(x, y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        with torch.no_grad():
            for pe, pm in zip(ema.parameters(), model.parameters()):
                pe.lerp_(pm, 1 - cfg.ema_decay)
        if step % 200 == 0:
            with torch.no_grad():
                _, val_loss = ema(x, y)
            print(step, loss.item(), val_loss.item())


if __name__ == "__main__":
    main()
