"""WGAN with weight clipping, written in the pre-0.4 Variable / Tensor-type style."""
import numpy as np
import torch
import torch.nn as nn
from torch.autograd import Variable
from torch.utils.data import DataLoader, TensorDataset

latent_dim, img_shape, n_critic, clip_value = 8, (1, 8, 8), 2, 0.01
cuda = True if torch.cuda.is_available() else False


class Generator(nn.Module):
    def __init__(self):
        super(Generator, self).__init__()
        self.model = nn.Sequential(nn.Linear(latent_dim, 64), nn.LeakyReLU(0.2, inplace=True),
                                   nn.Linear(64, int(np.prod(img_shape))), nn.Tanh())

    def forward(self, z):
        return self.model(z).view(z.size(0), *img_shape)


class Critic(nn.Module):
    def __init__(self):
        super(Critic, self).__init__()
        self.model = nn.Sequential(nn.Linear(int(np.prod(img_shape)), 64), nn.LeakyReLU(0.2, inplace=True), nn.Linear(64, 1))

    def forward(self, img):
        return self.model(img.view(img.size(0), -1))


generator = Generator()
critic = Critic()
if cuda:
    generator.cuda()
    critic.cuda()

Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor
dataloader = DataLoader(TensorDataset(torch.rand(32, *img_shape)), batch_size=8, shuffle=True)
optimizer_G = torch.optim.RMSprop(generator.parameters(), lr=5e-5)
optimizer_D = torch.optim.RMSprop(critic.parameters(), lr=5e-5)

for epoch in range(1):
    for i, (imgs,) in enumerate(dataloader):
        real_imgs = Variable(imgs.type(Tensor))
        optimizer_D.zero_grad()
        z = Variable(torch.randn(imgs.shape[0], latent_dim))  # expect: DEV006
        fake_imgs = generator(z).detach()
        loss_D = -torch.mean(critic(real_imgs)) + torch.mean(critic(fake_imgs))
        loss_D.backward()
        optimizer_D.step()
        for p in critic.parameters():
            p.data.clamp_(-clip_value, clip_value)
        if i % n_critic == 0:
            optimizer_G.zero_grad()
            gen_imgs = generator(z)
            loss_G = -torch.mean(critic(gen_imgs))
            loss_G.backward()
            optimizer_G.step()
            print(f"[Epoch {epoch}] [Batch {i}/{len(dataloader)}] [D loss: {loss_D.item():.4f}] [G loss: {loss_G.item():.4f}]")
