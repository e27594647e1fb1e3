"""Tiny DDPM: config, schedule, denoiser, sampler and logging helpers."""
