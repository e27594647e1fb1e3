"""python train.py  -- trains the GCN of models.py on the graph of data.py, on the device of config.py."""
import torch
import torch.nn.functional as F

from config import TrainConfig
from data import make_sbm_graph, move_graph
from models import GCN


def accuracy(logits, y, mask):
    return (logits[mask].argmax(1) == y[mask]).float().mean().item()


def main(cfg: TrainConfig = TrainConfig()):
    torch.manual_seed(cfg.seed)
    device = torch.device(cfg.device)
    graph = make_sbm_graph(cfg.n_blocks, cfg.nodes_per_block, cfg.feat_dim, cfg.seed)
    graph = move_graph(graph, device)

    model = GCN(cfg.feat_dim, cfg.hidden, cfg.n_blocks, cfg.num_layers, cfg.dropout).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    for epoch in range(cfg.epochs):
        model.train()
        logits = model(graph.x, graph.edge_index, graph.edge_weight)
        loss = F.cross_entropy(logits[graph.train_mask], graph.y[graph.train_mask])  # expect: DEV004
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if epoch % 20 == 0 or epoch == cfg.epochs - 1:
            model.eval()
            with torch.no_grad():
                logits = model(graph.x, graph.edge_index, graph.edge_weight)
            print(f"epoch {epoch} loss {loss.item():.4f} val acc {accuracy(logits.cpu(), graph.y.cpu(), graph.val_mask):.3f}")


if __name__ == "__main__":
    main()
