"""Recall@K for image-to-text retrieval, gathered across processes."""
import numpy as np
import torch


@torch.no_grad()
def evaluate(accelerator, model, loader, ks=(1, 5, 10)):
    model.eval()
    img_embs, txt_embs = [], []
    for feats, captions in loader:
        zi, zt, _ = model(feats, captions)  # expect: DEV002
        zi, zt = accelerator.gather_for_metrics((zi, zt))
        img_embs.append(zi)
        txt_embs.append(zt)
    sims = (torch.cat(img_embs) @ torch.cat(txt_embs).T).numpy()  # expect: DEV011
    ranks = (-sims).argsort(axis=1)
    hits = ranks == np.arange(len(sims))[:, None]
    return {f"R@{k}": float(hits[:, :k].any(axis=1).mean()) for k in ks}
