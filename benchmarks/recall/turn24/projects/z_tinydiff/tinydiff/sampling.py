import torch


@torch.no_grad()
def ddpm_sample(model, schedule, n, shape=(1, 8, 8)):
    """Ancestral sampling from pure noise down to t = 0."""
    model.eval()
    x = torch.randn(n, *shape)  # expect: DEV006
    for i in reversed(range(schedule.timesteps)):
        t = torch.full((n,), i, dtype=torch.long, device=x.device)
        eps = model(x, t)
        beta, alpha, ab = schedule.betas[i], schedule.alphas[i], schedule.alphas_cumprod[i]
        x = (x - beta / (1 - ab).sqrt() * eps) / alpha.sqrt()
        if i > 0:
            x = x + beta.sqrt() * torch.randn_like(x)
    model.train()
    return x
