"""Fine-tune a pretrained VGG on a 10-class dataset by replacing its last classifier layer."""
import torch
import torch.nn as nn
import torchvision
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

model = torchvision.models.vgg11(weights=None)
model = model.to(device)
for p in model.features.parameters():
    p.requires_grad = False
model.classifier[6] = nn.Linear(4096, 10)  # expect: DEV015

optimizer = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=1e-3, momentum=0.9)
loader = DataLoader(TensorDataset(torch.randn(8, 3, 64, 64), torch.randint(0, 10, (8,))), batch_size=4)
criterion = nn.CrossEntropyLoss()
for images, labels in loader:
    images, labels = images.to(device), labels.to(device)
    loss = criterion(model(images), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(loss.item())
