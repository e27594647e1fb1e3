"""Graph attention-style aggregation over mini-batches of small molecules-like graphs; self
loops are appended to each batch's edge list before message passing."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def add_self_loops(edge_index, num_nodes):
    loops = torch.arange(num_nodes)  # expect: DEV006
    return torch.cat([edge_index, torch.stack([loops, loops])], dim=1)


class MeanAgg(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)

    def forward(self, x, edge_index):
        edge_index = add_self_loops(edge_index, x.size(0))
        src, dst = edge_index
        out = torch.zeros(x.size(0), self.lin.out_features, device=x.device)
        out.index_add_(0, dst, self.lin(x)[src])
        count = torch.bincount(dst, minlength=x.size(0)).clamp(min=1).unsqueeze(-1)
        return out / count


def random_batch(n_graphs=8, nodes=6):
    xs, eis, ys, offset = [], [], [], 0
    for g in range(n_graphs):
        x = torch.randn(nodes, 5)
        ei = torch.randint(0, nodes, (2, 10)) + offset
        xs.append(x)
        eis.append(ei)
        ys.append(int(x[:, 0].sum() > 0))
        offset += nodes
    batch_vec = torch.arange(n_graphs).repeat_interleave(nodes)
    return torch.cat(xs), torch.cat(eis, 1), batch_vec, torch.tensor(ys)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    conv = MeanAgg(5, 16).to(device)
    head = nn.Linear(16, 2).to(device)
    opt = torch.optim.Adam(list(conv.parameters()) + list(head.parameters()), lr=1e-2)
    for step in range(40):
        x, ei, bvec, y = [t.to(device) for t in random_batch()]
        h = F.relu(conv(x, ei))
        pooled = torch.zeros(8, 16, device=device).index_add_(0, bvec, h) / 6
        loss = F.cross_entropy(head(pooled), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
