"""Image model that normalises inputs itself with ImageNet statistics, for deployment on raw [0, 1] images."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Normalize(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        self.mean = torch.tensor(mean).view(1, -1, 1, 1)  # expect: DEV010
        self.std = torch.tensor(std).view(1, -1, 1, 1)  # expect: DEV010

    def forward(self, x):
        return (x - self.mean) / self.std


class DeployableNet(nn.Module):
    def __init__(self, num_classes=6):
        super().__init__()
        self.normalize = Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])
        self.body = nn.Sequential(nn.Conv2d(3, 12, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2), nn.Flatten())
        self.fc = nn.Linear(12 * 4, num_classes)

    def forward(self, x):
        return self.fc(self.body(self.normalize(x)))


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = DeployableNet().to(device)
loader = DataLoader(TensorDataset(torch.rand(24, 3, 20, 20), torch.randint(0, 6, (24,))), batch_size=8)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for images, labels in loader:
    images, labels = images.to(device), labels.to(device)
    loss = nn.functional.cross_entropy(model(images), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"loss {loss.item():.4f}")
torch.save(model.state_dict(), "/tmp/deployable_net.pt")
