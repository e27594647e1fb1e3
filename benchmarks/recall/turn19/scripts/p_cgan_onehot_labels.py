import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable

parser = argparse.ArgumentParser()
parser.add_argument("--n_epochs", type=int, default=2, help="number of epochs of training")
parser.add_argument("--batch_size", type=int, default=32, help="size of the batches")
parser.add_argument("--lr", type=float, default=0.0002, help="adam: learning rate")
parser.add_argument("--latent_dim", type=int, default=16, help="dimensionality of the latent space")
parser.add_argument("--n_classes", type=int, default=4, help="number of classes for dataset")
parser.add_argument("--img_size", type=int, default=8, help="size of each image dimension")
opt = parser.parse_args()
print(opt)

img_shape = (1, opt.img_size, opt.img_size)
cuda = True if torch.cuda.is_available() else False


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
            *block(opt.latent_dim + opt.n_classes, 64, normalize=False),
            *block(64, 128),
            nn.Linear(128, int(np.prod(img_shape))),
            nn.Tanh()
        )

    def forward(self, noise, onehot):
        # concatenate label one-hot and noise to produce the input
        gen_input = torch.cat((noise, onehot), -1)
        img = self.model(gen_input)
        return img.view(img.size(0), *img_shape)


class Discriminator(nn.Module):
    def __init__(self):
        super(Discriminator, self).__init__()
        self.model = nn.Sequential(
            nn.Linear(opt.n_classes + int(np.prod(img_shape)), 128),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(128, 128),
            nn.Dropout(0.4),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(128, 1),
        )

    def forward(self, img, onehot):
        d_in = torch.cat((img.view(img.size(0), -1), onehot), -1)
        return self.model(d_in)


def to_onehot(labels):
    return F.one_hot(labels, opt.n_classes).type(torch.FloatTensor)  # expect: DEV021


# Loss functions
adversarial_loss = torch.nn.MSELoss()

# Initialize generator and discriminator
generator = Generator()
discriminator = Discriminator()

if cuda:
    generator.cuda()
    discriminator.cuda()
    adversarial_loss.cuda()

# toy dataset: class k is a bright horizontal bar in row 2k
n = 256
labels_np = np.random.randint(0, opt.n_classes, n)
imgs_np = np.random.uniform(-1, -0.8, (n, 1, opt.img_size, opt.img_size)).astype(np.float32)
imgs_np[np.arange(n), 0, 2 * labels_np, :] = 1.0
dataloader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(torch.from_numpy(imgs_np), torch.from_numpy(labels_np)),
    batch_size=opt.batch_size, shuffle=True, drop_last=True,
)

optimizer_G = torch.optim.Adam(generator.parameters(), lr=opt.lr, betas=(0.5, 0.999))
optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=opt.lr, betas=(0.5, 0.999))

FloatTensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor
LongTensor = torch.cuda.LongTensor if cuda else torch.LongTensor

# ----------
#  Training
# ----------

for epoch in range(opt.n_epochs):
    for i, (imgs, labels) in enumerate(dataloader):
        batch_size = imgs.shape[0]

        # Adversarial ground truths
        valid = Variable(FloatTensor(batch_size, 1).fill_(1.0), requires_grad=False)
        fake = Variable(FloatTensor(batch_size, 1).fill_(0.0), requires_grad=False)

        # Configure input
        real_imgs = Variable(imgs.type(FloatTensor))
        labels = Variable(labels.type(LongTensor))

        # -----------------
        #  Train Generator
        # -----------------
        optimizer_G.zero_grad()
        z = Variable(FloatTensor(np.random.normal(0, 1, (batch_size, opt.latent_dim))))
        gen_labels = Variable(LongTensor(np.random.randint(0, opt.n_classes, batch_size)))
        gen_imgs = generator(z, to_onehot(gen_labels))
        g_loss = adversarial_loss(discriminator(gen_imgs, to_onehot(gen_labels)), valid)
        g_loss.backward()
        optimizer_G.step()

        # ---------------------
        #  Train Discriminator
        # ---------------------
        optimizer_D.zero_grad()
        d_real_loss = adversarial_loss(discriminator(real_imgs, to_onehot(labels)), valid)
        d_fake_loss = adversarial_loss(discriminator(gen_imgs.detach(), to_onehot(gen_labels)), fake)
        d_loss = (d_real_loss + d_fake_loss) / 2
        d_loss.backward()
        optimizer_D.step()

    print("[Epoch %d/%d] [D loss: %f] [G loss: %f]" % (epoch, opt.n_epochs, d_loss.item(), g_loss.item()))
