# conditional GAN (MLP) on 10-class toy "digits", ported from an old 0.3-era script
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

cuda = torch.cuda.is_available()
device = torch.device("cuda" if cuda else "cpu")

n_classes = 10
latent_dim = 32
img_size = 12
img_shape = (1, img_size, img_size)
batch_size = 32
n_epochs = 2

# class k = bright pixel block at a class-specific row
X = np.random.rand(640, *img_shape).astype(np.float32) * 0.1
Y = np.random.randint(0, n_classes, size=640)
for i, y in enumerate(Y):
    X[i, 0, y + 1, 2:10] = 1.0
X = X * 2 - 1
dataloader = DataLoader(TensorDataset(torch.from_numpy(X), torch.from_numpy(Y)), batch_size=batch_size,
                        shuffle=True, drop_last=True)


class Generator(nn.Module):
    def __init__(self):
        super(Generator, self).__init__()

        def block(in_feat, out_feat, normalize=True):
            layers = [nn.Linear(in_feat, out_feat)]
            if normalize:
                layers.append(nn.BatchNorm1d(out_feat, 0.8))
            layers.append(nn.LeakyReLU(0.2, inplace=True))
            return layers

        self.model = nn.Sequential(
            *block(latent_dim + n_classes, 128, normalize=False),
            *block(128, 256),
            nn.Linear(256, int(np.prod(img_shape))),
            nn.Tanh()
        )

    def forward(self, gen_input):
        img = self.model(gen_input)
        return img.view(img.size(0), *img_shape)


class Discriminator(nn.Module):
    def __init__(self):
        super(Discriminator, self).__init__()
        self.label_embedding = nn.Embedding(n_classes, n_classes)
        self.model = nn.Sequential(
            nn.Linear(n_classes + int(np.prod(img_shape)), 256),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Dropout(0.4),
            nn.Linear(256, 1),
        )

    def forward(self, img, labels):
        d_in = torch.cat((img.view(img.size(0), -1), self.label_embedding(labels)), -1)
        return self.model(d_in)


adversarial_loss = nn.MSELoss()   # LSGAN objective
generator = Generator().to(device)
discriminator = Discriminator().to(device)
optimizer_G = torch.optim.Adam(generator.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=2e-4, betas=(0.5, 0.999))


def one_hot(labels):
    return F.one_hot(labels, n_classes).type(torch.FloatTensor)  # expect: DEV021


for epoch in range(n_epochs):
    for i, (imgs, labels) in enumerate(dataloader):
        b = imgs.shape[0]
        valid = torch.ones(b, 1, device=device)
        fake = torch.zeros(b, 1, device=device)

        real_imgs = imgs.to(device)
        labels.to(device)  # expect: DEV005

        # -----------------
        #  Train Generator
        # -----------------
        optimizer_G.zero_grad()
        z = torch.randn(b, latent_dim, device=device)
        gen_labels = torch.randint(0, n_classes, (b,), device=device)
        gen_imgs = generator(torch.cat((z, one_hot(gen_labels)), -1))
        g_loss = adversarial_loss(discriminator(gen_imgs, gen_labels), valid)
        g_loss.backward()
        optimizer_G.step()

        # ---------------------
        #  Train Discriminator
        # ---------------------
        optimizer_D.zero_grad()
        d_real_loss = adversarial_loss(discriminator(real_imgs, labels), valid)  # also: DEV002
        d_fake_loss = adversarial_loss(discriminator(gen_imgs.detach(), gen_labels), fake)
        d_loss = (d_real_loss + d_fake_loss) / 2
        d_loss.backward()
        optimizer_D.step()

        if i % 10 == 0:
            print("[Epoch %d/%d] [Batch %d/%d] [D loss: %f] [G loss: %f]"
                  % (epoch, n_epochs, i, len(dataloader), d_loss.item(), g_loss.item()))
