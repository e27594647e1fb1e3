import torch
from sklearn.linear_model import LogisticRegression


@torch.no_grad()
def linear_probe(encoder, x, edge_index, y, train_idx, test_idx):
    encoder.eval()
    emb = encoder.embed(x, edge_index).cpu().numpy()
    labels = y.cpu().numpy()
    tr, te = train_idx.cpu().numpy(), test_idx.cpu().numpy()
    clf = LogisticRegression(max_iter=500).fit(emb[tr], labels[tr])
    return clf.score(emb[te], labels[te])
