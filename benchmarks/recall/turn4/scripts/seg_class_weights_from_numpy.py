"""Semantic segmentation with inverse-frequency class weights computed from the label maps."""
import numpy as np
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
N_CLASSES = 4
masks = np.random.choice(N_CLASSES, size=(20, 32, 32), p=[0.7, 0.2, 0.07, 0.03])
images = np.random.rand(20, 3, 32, 32).astype(np.float32)

freq = np.bincount(masks.ravel(), minlength=N_CLASSES) / masks.size
class_weights = torch.from_numpy(1.0 / (freq + 1e-3)).float()
criterion = nn.CrossEntropyLoss(weight=class_weights, ignore_index=255)  # expect: DEV012

model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, N_CLASSES, 1)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(2):
    for i in range(0, 20, 5):
        x = torch.from_numpy(images[i:i + 5]).to(device)
        y = torch.from_numpy(masks[i:i + 5]).long().to(device)
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(epoch, loss.item())
