"""Train the two-tower model with BPR, then the user adapter, and report recall@10 / NDCG@10:
python train.py
"""
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from adapters import attach_user_adapter
from data import Interactions, sample_negatives
from metrics import recall_and_ndcg
from model import TwoTower


def fit(model, params, loader, n_items, device, epochs):
    opt = torch.optim.Adam(params, lr=5e-3)
    for epoch in range(epochs):
        for users, pos in loader:
            users, pos = users.to(device), pos.to(device)
            neg = sample_negatives(users.size(0), n_items)
            loss = -F.logsigmoid(model.score(users, pos) - model.score(users, neg)).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: bpr {loss.item():.4f}")


@torch.no_grad()
def evaluate(model, data, device):
    users = torch.arange(data.n_users)
    held_out = data.items.view(data.n_users, -1)[:, -1]
    scores = model.all_scores(users.to(device))
    return recall_and_ndcg(scores, held_out)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = Interactions()
    loader = DataLoader(data, batch_size=128, shuffle=True)
    model = TwoTower(data.n_users, data.n_items).to(device)
    fit(model, model.parameters(), loader, data.n_items, device, epochs=3)
    print("base: recall@10 %.3f ndcg@10 %.3f" % evaluate(model, data, device))

    adapter_params = attach_user_adapter(model)
    fit(model, adapter_params, loader, data.n_items, device, epochs=2)
    print("adapted: recall@10 %.3f ndcg@10 %.3f" % evaluate(model, data, device))


if __name__ == "__main__":
    main()
