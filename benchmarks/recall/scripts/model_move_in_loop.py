"""Speech-command style 1-D CNN; the epoch loop alternates train and eval mode."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class KeywordNet(nn.Module):
    def __init__(self, n_classes=6):
        super().__init__()
        self.conv1 = nn.Conv1d(1, 8, kernel_size=9, stride=4)
        self.bn1 = nn.BatchNorm1d(8)
        self.conv2 = nn.Conv1d(8, 16, kernel_size=5)
        self.fc = nn.Linear(16, n_classes)

    def forward(self, x):
        x = F.max_pool1d(F.relu(self.bn1(self.conv1(x))), 2)
        x = F.relu(self.conv2(x))
        return self.fc(F.adaptive_avg_pool1d(x, 1).squeeze(-1))


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
waveforms = torch.randn(32, 1, 400)
labels = torch.randint(0, 6, (32,))
train_loader = DataLoader(TensorDataset(waveforms, labels), batch_size=8, shuffle=True)
model = KeywordNet()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-4)

for epoch in range(2):
    model.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        model.to(device)  # expect: DEV007
        data, target = data.to(device), target.to(device)
        output = model(data)
        loss = F.cross_entropy(output, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
