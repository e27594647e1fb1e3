"""Graph contrastive pretraining (two augmented views, InfoNCE) and a linear probe.

    python train.py --epochs 30 --device auto
"""
import torch

from graphssl.augment import two_views
from graphssl.config import parse_config, resolve_device
from graphssl.data import community_graph, split_masks
from graphssl.loss import grace_loss
from graphssl.model import Encoder


def main(argv=None):
    cfg = parse_config(argv)
    device = resolve_device(cfg.device)
    torch.manual_seed(0)

    x, edge_index, y = community_graph(cfg.nodes, cfg.classes, cfg.feat_dim)
    x, edge_index = x.to(device), edge_index.to(device)
    train_idx, test_idx = split_masks(cfg.nodes)

    encoder = Encoder(cfg.feat_dim, cfg.hidden, cfg.out_dim).to(device)
    opt = torch.optim.Adam(encoder.parameters(), lr=cfg.lr, weight_decay=1e-5)
    for epoch in range(cfg.epochs):
        encoder.train()
        (x1, e1), (x2, e2) = two_views(x, edge_index, cfg.drop_edge, cfg.mask_feat)
        loss = grace_loss(encoder(x1, e1), encoder(x2, e2), cfg.tau)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if epoch % 10 == 0:
            print(f"epoch {epoch:03d} contrastive loss {loss.item():.4f}")

    try:
        from graphssl.probe import linear_probe
    except ImportError:
        print("scikit-learn missing: skipping the linear probe")
        return
    acc = linear_probe(encoder, x, edge_index, y, train_idx, test_idx)
    print(f"linear probe accuracy: {acc:.3f}")


if __name__ == "__main__":
    main()
