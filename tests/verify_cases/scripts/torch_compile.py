"""torch.compile on the model, as in any torch 2.x recipe."""
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).to(device)
compiled = torch.compile(model)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
X, y = torch.randn(256, 16), torch.randint(0, 4, (256,))
for step in range(20):
    xb = X[step % 8 * 32:(step % 8 + 1) * 32].to(device)
    yb = y[step % 8 * 32:(step % 8 + 1) * 32].to(device)
    loss = nn.functional.cross_entropy(compiled(xb), yb)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
torch.save(compiled._orig_mod.state_dict(), "model.pt")
