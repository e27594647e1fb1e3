import numpy as np
import torch


@torch.no_grad()
def hit_rate_at_k(model, users, targets, seen, n_items, device, k=10):
    """users: list of user ids; targets: {user: held-out item}; seen: {user: set(items)}"""
    model.eval()
    u = torch.as_tensor(users, device=device)
    all_items = torch.arange(n_items, device=device).expand(len(users), -1)
    scores = model(u, all_items)
    for row, user in enumerate(users):
        if seen.get(user):
            scores[row, torch.tensor(sorted(seen[user]))] = float("-inf")
    top = scores.topk(k, dim=1).indices.cpu().numpy()
    return float(np.mean([targets[user] in top[row] for row, user in enumerate(users)]))
