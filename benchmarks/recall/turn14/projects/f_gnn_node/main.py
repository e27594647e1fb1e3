"""Train a GAT on a synthetic citation graph, keep the best validation checkpoint,
reload it and report test accuracy / macro-F1.

    python main.py --epochs 100
"""
import argparse
from dataclasses import replace

import torch

from gnnnode.config import ExperimentConfig
from gnnnode.data import synthetic_citation_graph
from gnnnode.engine import evaluate, load_checkpoint, macro_f1, save_checkpoint, train_step
from gnnnode.model import GAT


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int)
    parser.add_argument("--device")
    args = parser.parse_args()
    cfg = ExperimentConfig()
    cfg = replace(cfg, **{k: v for k, v in vars(args).items() if v is not None})

    torch.manual_seed(cfg.seed)
    device = torch.device(cfg.device)
    graph = synthetic_citation_graph(cfg.n_nodes, cfg.n_classes, cfg.n_feats, seed=cfg.seed)
    idf = torch.log(graph.num_nodes / (1.0 + graph.x.sum(dim=0)))
    graph = graph.to(device)

    model = GAT(cfg.n_feats, cfg.hidden, cfg.n_classes, cfg.heads, cfg.n_layers, cfg.dropout, feature_scale=idf).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)

    best = -1.0
    for epoch in range(cfg.epochs):
        loss = train_step(model, graph, optimizer)
        scores, _ = evaluate(model, graph)
        if scores["val"] > best:
            best = scores["val"]
            save_checkpoint(cfg.checkpoint, model, optimizer, epoch, best)
        if epoch % 20 == 0:
            print(f"epoch {epoch:3d}  loss {loss:.4f}  train {scores['train']:.3f}  val {scores['val']:.3f}")

    epoch, val_acc = load_checkpoint(cfg.checkpoint, model, device)
    scores, pred = evaluate(model, graph)
    y_test = graph.y[graph.test_mask].cpu().numpy()
    f1 = macro_f1(y_test, pred[graph.test_mask.cpu().numpy()], cfg.n_classes)
    print(f"best epoch {epoch} (val {val_acc:.3f})  test acc {scores['test']:.3f}  test macro-F1 {f1:.3f}")


if __name__ == "__main__":
    main()
