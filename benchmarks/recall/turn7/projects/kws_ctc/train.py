"""Train the CTC model and report the token error rate on a held-out set."""
import torch
import torch.nn as nn

from config import Config
from data import make_loader
from decode import greedy_decode, token_error_rate
from model import AcousticModel


def main():
    cfg = Config()
    model = AcousticModel(cfg.n_mels, cfg.hidden, cfg.n_symbols).to(cfg.device)
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        for feats, feat_lens, targets, target_lens in make_loader(64, cfg):
            feats = feats.to(cfg.device)
            log_probs = model(feats, feat_lens)
            loss = ctc(log_probs.transpose(0, 1), targets, feat_lens, target_lens)
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    hyps, refs = [], []
    with torch.no_grad():
        for feats, feat_lens, targets, target_lens in make_loader(16, cfg, shuffle=False):
            log_probs = model(feats.to(cfg.device), feat_lens)
            hyps.extend(greedy_decode(log_probs))
            refs.extend([t.tolist() for t in targets.split(target_lens.tolist())])
    print("TER", token_error_rate(hyps, refs))


if __name__ == "__main__":
    main()
