"""Fully connected autoencoder on flattened 28x28 images; reconstruction MSE."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class AutoEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(28 * 28, 128), nn.ReLU(True), nn.Linear(128, 32), nn.ReLU(True), nn.Linear(32, 8))
        self.decoder = nn.Sequential(nn.Linear(8, 32), nn.ReLU(True), nn.Linear(32, 128), nn.ReLU(True),
                                     nn.Linear(128, 28 * 28), nn.Sigmoid())

    def forward(self, x):
        return self.decoder(self.encoder(x))


num_epochs, batch_size, learning_rate = 2, 8, 1e-3
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
dataset = TensorDataset(torch.rand(32, 1, 28, 28), torch.zeros(32, dtype=torch.long))
dataloader = DataLoader(dataset, batch_size=batch_size, shuffle=True)

model = AutoEncoder().to(device)
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate, weight_decay=1e-5)

for epoch in range(num_epochs):
    for data in dataloader:
        img, _ = data
        img = img.view(img.size(0), -1)
        img.to(device)  # expect: DEV005
        output = model(img)  # also: DEV002
        loss = criterion(output, img)  # also: DEV004
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch [{epoch + 1}/{num_epochs}], loss:{loss.item():.4f}")

with torch.no_grad():
    codes = model.encoder(img.to(device))
print("latent codes:", codes.shape)
