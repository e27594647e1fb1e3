# 5-way 1-shot MAML with the standard 4-block conv backbone, on random
# "Omniglot-like" character prototypes (28x28 blobs with small jitter).
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

N_WAY, K_SHOT, K_QUERY = 5, 1, 5
INNER_LR, META_LR = 0.4, 1e-3
INNER_STEPS, META_BATCH, META_ITERS = 1, 4, 20

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
torch.manual_seed(0)
random.seed(0)

PROTOTYPES = (torch.rand(50, 1, 28, 28) > 0.85).float()


def conv_block(cin, cout):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1),
        nn.BatchNorm2d(cout, track_running_stats=False),
        nn.ReLU(),
        nn.MaxPool2d(2),
    )


class MetaConvNet(nn.Module):
    def __init__(self, n_way, hidden=32):
        super().__init__()
        chans = [1, hidden, hidden, hidden, hidden]
        self.blocks = [conv_block(chans[i], chans[i + 1]) for i in range(4)]  # expect: DEV009
        self.head = nn.Linear(hidden, n_way)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.head(x.mean(dim=(2, 3)))


def sample_episode():
    classes = random.sample(range(len(PROTOTYPES)), N_WAY)
    xs, ys, xq, yq = [], [], [], []
    for label, c in enumerate(classes):
        proto = PROTOTYPES[c]
        shots = proto + 0.1 * torch.randn(K_SHOT + K_QUERY, 1, 28, 28)
        xs.append(shots[:K_SHOT]); ys += [label] * K_SHOT
        xq.append(shots[K_SHOT:]); yq += [label] * K_QUERY
    return torch.cat(xs), torch.tensor(ys), torch.cat(xq), torch.tensor(yq)


model = MetaConvNet(N_WAY).to(device)
meta_opt = torch.optim.Adam(model.parameters(), lr=META_LR)

for it in range(META_ITERS):
    meta_opt.zero_grad()
    outer_loss, outer_acc = 0.0, 0.0
    for _ in range(META_BATCH):
        xs, ys, xq, yq = (t.to(device) for t in sample_episode())
        fast = dict(model.named_parameters())
        for _ in range(INNER_STEPS):
            inner = F.cross_entropy(functional_call(model, fast, (xs,)), ys)
            grads = torch.autograd.grad(inner, list(fast.values()), create_graph=True)
            fast = {n: w - INNER_LR * g for (n, w), g in zip(fast.items(), grads)}
        logits = functional_call(model, fast, (xq,))
        loss = F.cross_entropy(logits, yq)
        outer_loss = outer_loss + loss
        outer_acc += (logits.argmax(1) == yq).float().mean().item()
    (outer_loss / META_BATCH).backward()
    meta_opt.step()
    if (it + 1) % 5 == 0:
        print(f"iter {it + 1}: loss {outer_loss.item() / META_BATCH:.3f} acc {outer_acc / META_BATCH:.3f}")
