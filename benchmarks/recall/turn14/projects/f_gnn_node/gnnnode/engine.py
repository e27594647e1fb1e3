import numpy as np
import torch
import torch.nn.functional as F


def train_step(model, graph, optimizer):
    model.train()
    optimizer.zero_grad()
    out = model(graph.x, graph.edge_index)
    loss = F.cross_entropy(out[graph.train_mask], graph.y[graph.train_mask])
    loss.backward()
    optimizer.step()
    return loss.item()


@torch.no_grad()
def evaluate(model, graph):
    model.eval()
    pred = model(graph.x, graph.edge_index).argmax(dim=1)
    scores = {}
    for split in ("train", "val", "test"):
        mask = getattr(graph, f"{split}_mask")
        scores[split] = (pred[mask] == graph.y[mask]).float().mean().item()
    return scores, pred.cpu().numpy()


def macro_f1(y_true, y_pred, n_classes):
    f1s = []
    for c in range(n_classes):
        tp = np.sum((y_pred == c) & (y_true == c))
        fp = np.sum((y_pred == c) & (y_true != c))
        fn = np.sum((y_pred != c) & (y_true == c))
        f1s.append(2 * tp / max(2 * tp + fp + fn, 1))
    return float(np.mean(f1s))


def save_checkpoint(path, model, optimizer, epoch, val_acc):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch, "val_acc": val_acc}, path)


def load_checkpoint(path, model, device):
    state = torch.load(path, map_location=device)
    model.load_state_dict(state["model"])
    return state["epoch"], state["val_acc"]
