"""Train a class-conditional GAN on four labelled 2-D Gaussian blobs."""
import torch
from torch.utils.data import DataLoader, TensorDataset

from losses import discriminator_loss, generator_loss
from metrics import discriminator_confidence, per_class_means
from nets import N_CLASSES, Discriminator, Generator, sample_noise

CENTERS = torch.tensor([[2.0, 0.0], [0.0, 2.0], [-2.0, 0.0], [0.0, -2.0]])


def blobs(n=512):
    labels = torch.randint(0, N_CLASSES, (n,))
    return TensorDataset(CENTERS[labels] + 0.1 * torch.randn(n, 2), labels)


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    dataset = blobs()
    points = dataset.tensors[0]
    loader = DataLoader(dataset, batch_size=64, shuffle=True, drop_last=True)
    G = Generator(points.mean(0), points.std(0)).to(device)
    D = Discriminator().to(device)
    opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
    fixed_z = sample_noise(32, device)
    fixed_labels = torch.arange(32, device=device) % N_CLASSES

    for epoch in range(3):
        for real, labels in loader:
            real, labels = real.to(device), labels.to(device)
            fake = G(sample_noise(real.size(0), device), labels)

            d_real = D(real, labels)
            d_loss = discriminator_loss(d_real, D(fake.detach(), labels))
            opt_d.zero_grad()
            d_loss.backward()
            opt_d.step()

            g_loss = generator_loss(D(fake, labels))
            opt_g.zero_grad()
            g_loss.backward()
            opt_g.step()

        with torch.no_grad():
            means = per_class_means(G(fixed_z, fixed_labels), fixed_labels, N_CLASSES)
        print(f"epoch {epoch}: d {d_loss.item():.3f} g {g_loss.item():.3f} "
              f"D(real) {discriminator_confidence(d_real):.2f} class means {means}")


if __name__ == "__main__":
    main()
