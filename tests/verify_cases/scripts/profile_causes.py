"""Each cause of a slow GPU step from issue 34, once per step, marked `# cause: KIND`
(`devlint verify --profile` must name each with its line; tests/test_verify_profile.py)."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
X = torch.randn(64, 4)
y = (X.sum(1) > 0).long()
loader = DataLoader(TensorDataset(X, y), batch_size=16)
model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    for xb, yb in loader:
        model.to(device)  # cause: model
        xb, yb = xb.to(device), yb.to(device)  # cause: batch
        scale = torch.tensor([1.0, 2.0, 0.5, 1.0]).to(device)  # cause: from-data
        out = model(xb * scale)
        loss = nn.functional.cross_entropy(out, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        pred = out.argmax(1)
        if (pred == yb).all():  # cause: truth
            print("all right")
        print(f"loss {loss.item():.4f}")  # cause: read
        print(loss)  # cause: print
        shown = f"{loss:.3f}"  # cause: print
        probs = out.softmax(1).detach().cpu().numpy()  # cause: copy-back
        hits = pred.nonzero()  # cause: size
        right = out[pred == yb]  # cause: size
        if torch.cuda.is_available():
            torch.cuda.synchronize()  # cause: synchronize
