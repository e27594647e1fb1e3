import numpy as np
import torch


@torch.no_grad()
def ddim_guided(model, schedule, labels, shape, guidance_scale, steps):
    device = labels.device
    model.eval()
    x = torch.randn(shape, device=device)
    null = torch.full_like(labels, model.null_class)
    seq = schedule.ddim_timesteps(steps)
    for i, t_now in enumerate(seq):
        t_prev = seq[i + 1] if i + 1 < len(seq) else -1
        t = torch.full((shape[0],), t_now, device=device, dtype=torch.long)
        eps_c, eps_u = model(torch.cat([x, x]), torch.cat([t, t]), torch.cat([labels, null])).chunk(2)
        eps = eps_u + guidance_scale * (eps_c - eps_u)
        a_t = schedule.alphas_cumprod[t_now]
        a_prev = schedule.alphas_cumprod[t_prev] if t_prev >= 0 else torch.tensor(1.0)
        x0 = (x - (1 - a_t).sqrt() * eps) / a_t.sqrt()
        x = a_prev.sqrt() * x0 + (1 - a_prev).sqrt() * eps
    model.train()
    return x


def latents_to_grid(latents, nrow=4):
    """Pack the first three latent channels into an RGB-ish uint8 grid for quick inspection."""
    lat = latents[:, :3]
    lat = (lat - lat.amin()) / (lat.amax() - lat.amin() + 1e-8)
    imgs = (lat * 255).round().byte().permute(0, 2, 3, 1).numpy()  # expect: DEV011
    rows = [np.concatenate(list(imgs[i:i + nrow]), axis=1) for i in range(0, len(imgs), nrow)]
    return np.concatenate(rows, axis=0)
