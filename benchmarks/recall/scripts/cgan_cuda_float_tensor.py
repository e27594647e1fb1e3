"""Conditional GAN (labels embedded into G and D) in the torch.cuda.FloatTensor style."""
import torch
import torch.nn as nn
from torch.autograd import Variable
from torch.utils.data import DataLoader, TensorDataset

n_classes, latent_dim, img_dim = 4, 8, 36
cuda = torch.cuda.is_available()


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.label_emb = nn.Embedding(n_classes, n_classes)
        self.model = nn.Sequential(nn.Linear(latent_dim + n_classes, 64), nn.ReLU(), nn.Linear(64, img_dim), nn.Tanh())

    def forward(self, noise, labels):
        return self.model(torch.cat((self.label_emb(labels), noise), -1))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.label_embedding = nn.Embedding(n_classes, n_classes)
        self.model = nn.Sequential(nn.Linear(n_classes + img_dim, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))

    def forward(self, img, labels):
        return self.model(torch.cat((img.view(img.size(0), -1), self.label_embedding(labels)), -1))


generator, discriminator = Generator(), Discriminator()
adversarial_loss = nn.MSELoss()
if cuda:
    generator.cuda()
    discriminator.cuda()

FloatTensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor
LongTensor = torch.cuda.LongTensor if cuda else torch.LongTensor
loader = DataLoader(TensorDataset(torch.rand(24, img_dim), torch.randint(0, n_classes, (24,))), batch_size=8)
optimizer_G = torch.optim.Adam(generator.parameters(), lr=2e-4)
optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=2e-4)

for i, (imgs, labels) in enumerate(loader):
    batch_size = imgs.shape[0]
    valid = Variable(torch.cuda.FloatTensor(batch_size, 1).fill_(1.0), requires_grad=False)  # expect: DEV001
    fake = Variable(FloatTensor(batch_size, 1).fill_(0.0), requires_grad=False)
    real_imgs = Variable(imgs.type(FloatTensor))
    labels = Variable(labels.type(LongTensor))

    optimizer_G.zero_grad()
    z = Variable(FloatTensor(batch_size, latent_dim).normal_(0, 1))
    gen_labels = Variable(LongTensor(batch_size).random_(0, n_classes))
    gen_imgs = generator(z, gen_labels)
    g_loss = adversarial_loss(discriminator(gen_imgs, gen_labels), valid)
    g_loss.backward()
    optimizer_G.step()

    optimizer_D.zero_grad()
    d_real = adversarial_loss(discriminator(real_imgs, labels), valid)
    d_fake = adversarial_loss(discriminator(gen_imgs.detach(), gen_labels), fake)
    d_loss = (d_real + d_fake) / 2
    d_loss.backward()
    optimizer_D.step()
    print(f"[Batch {i}] [D loss: {d_loss.item():.4f}] [G loss: {g_loss.item():.4f}]")
